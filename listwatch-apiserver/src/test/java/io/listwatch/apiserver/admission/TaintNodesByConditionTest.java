package io.listwatch.apiserver.admission;

import static io.listwatch.apiserver.admission.Admissions.admitted;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TaintNodesByConditionTest {

  private static String taints(String nodeSpec) {
    return admitted(new TaintNodesByCondition(), Admissions.create("", "v1", "nodes", "", "{\"metadata\":{\"name\":\"n\"},\"spec\":"
        + nodeSpec + "}")).at("/spec/taints").toString();
  }

  @Test
  void aNewNode_isTaintedNotReadyNoSchedule_once() {
    String notReady = "{\"key\":\"node.kubernetes.io/not-ready\",\"effect\":\"NoSchedule\"}";
    assertThat(taints("{}")).isEqualTo("[" + notReady + "]");
    assertThat(taints("{\"taints\":[{\"key\":\"a\",\"value\":\"b\",\"effect\":\"NoExecute\"}]}"))
        .isEqualTo("[{\"key\":\"a\",\"value\":\"b\",\"effect\":\"NoExecute\"}," + notReady + "]");
    assertThat(taints("{\"taints\":[" + notReady + "]}")).isEqualTo("[" + notReady + "]");
    assertThat(taints("{\"taints\":[{\"key\":\"node.kubernetes.io/not-ready\",\"effect\":\"NoExecute\"}]}"))
        .isEqualTo("[{\"key\":\"node.kubernetes.io/not-ready\",\"effect\":\"NoExecute\"}," + notReady + "]");
  }

  @Test
  void anUpdate_isLeftAlone() {
    var node = admitted(new TaintNodesByCondition(), Admissions.update("", "v1", "nodes", "", "{\"spec\":{}}", "{\"spec\":{}}"));
    assertThat(node.at("/spec/taints").isMissingNode()).isTrue();
  }
}
