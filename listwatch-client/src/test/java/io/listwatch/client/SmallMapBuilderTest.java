package io.listwatch.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SmallMapBuilderTest {

  @Test
  void build_isTheSharedEmptyMap_withoutEntries() {
    assertThat(new SmallMapBuilder().build()).isSameAs(Map.of());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 5, 9, 10, 11, 25})
  void build_holdsEveryEntry_atEverySize(int n) {
    SmallMapBuilder b = new SmallMapBuilder();
    Map<String, String> expected = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      b.put("k" + i, "v" + i);
      expected.put("k" + i, "v" + i);
    }
    Map<String, String> built = b.build();
    assertThat(built).containsExactlyInAnyOrderEntriesOf(expected);
    assertThatThrownBy(() -> built.put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void put_aRepeatedKey_keepsTheLastValue() {
    SmallMapBuilder b = new SmallMapBuilder();
    b.put("app", "a");
    b.put("tier", "t");
    b.put("app", "b");
    assertThat(b.build()).containsExactlyInAnyOrderEntriesOf(Map.of("app", "b", "tier", "t"));
  }

  @Test
  void put_aRepeatedKey_afterOverflowingTheArray_keepsTheLastValue() {
    SmallMapBuilder b = new SmallMapBuilder();
    for (int i = 0; i < SmallMapBuilder.INLINE + 3; i++) {
      b.put("k" + i, "first");
    }
    b.put("k0", "last");
    b.put("k12", "last");
    Map<String, String> built = b.build();
    assertThat(built).hasSize(SmallMapBuilder.INLINE + 3).containsEntry("k0", "last").containsEntry("k12", "last")
        .containsEntry("k5", "first");
  }

  @Test
  void put_repeatedKeys_doNotCountTowardsTheArray() {
    SmallMapBuilder b = new SmallMapBuilder();
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < SmallMapBuilder.INLINE; i++) {
        b.put("k" + i, "v" + round);
      }
    }
    assertThat(b.build()).hasSize(SmallMapBuilder.INLINE).containsEntry("k9", "v2");
  }
}
