package io.listwatch.apiserver.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.core.Quantity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** kube's quota/v1 resources helpers (resources_test.go: TestAdd, TestSubtract..., TestLessThanOrEqual, TestMask). */
class ResourceListTest {

  private static ResourceList list(String... pairs) {
    java.util.Map<String, Quantity> m = new java.util.TreeMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], Quantity.of(pairs[i + 1]));
    }
    return ResourceList.of(m);
  }

  @Test
  void add_sumsNamesInBoth_andKeepsTheOthers() {
    assertThat(list("cpu", "100m", "memory", "1Gi").add(list("cpu", "900m", "pods", "1")))
        .hasToString("cpu=1,memory=1Gi,pods=1");
  }

  @Test
  void subtractWithNonNegativeResult_neverGoesBelowZero() {
    assertThat(list("cpu", "1", "memory", "1Gi").subtractWithNonNegativeResult(list("cpu", "2", "pods", "1")))
        .hasToString("cpu=0,memory=1Gi,pods=0");
  }

  @Test
  void exceeding_namesWhatIsAboveTheLimit_comparingOnlyNamesInBoth() {
    assertThat(list("cpu", "2", "memory", "1Gi", "pods", "9").exceeding(list("cpu", "1", "memory", "2Gi")))
        .containsExactly("cpu");
    assertThat(list("cpu", "1000m").exceeding(list("cpu", "1"))).isEmpty();
  }

  @Test
  void maskAndSigns() {
    assertThat(list("cpu", "1", "memory", "1Gi").mask(List.of("memory", "pods"))).hasToString("memory=1Gi");
    assertThat(list("cpu", "0", "pods", "0").isZero()).isTrue();
    assertThat(list("cpu", "-1", "pods", "1").negatives()).containsExactly("cpu");
    assertThat(list("cpu", "1").sameAmounts(list("cpu", "1000m"))).isTrue();
    assertThat(ResourceList.fromJson(io.listwatch.apiserver.InMemoryCore.json("{\"cpu\":\"0.5\",\"bad\":\"x\"}")))
        .isEqualTo(ResourceList.of(Map.of("cpu", Quantity.of("500m"))));
  }
}
