package io.listwatch.apiserver.admission.podsecurity;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.apiserver.InMemoryCore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The warnings of a raised enforce level about the pods already there (kube's {@code EvaluatePodsInNamespace}). */
class ExistingPodsTest {

  private static final LevelVersion BASELINE = new LevelVersion(Level.BASELINE, Version.LATEST);

  private static JsonNode pod(String name, String spec, String controllerUid) {
    String owner = controllerUid == null ? "" : ",\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\","
        + "\"name\":\"rs\",\"uid\":\"" + controllerUid + "\",\"controller\":true}]";
    return InMemoryCore.json("{\"metadata\":{\"name\":\"" + name + "\"" + owner + "},\"spec\":" + spec + "}");
  }

  @Test
  void podsFailingAlike_shareALine_namedAfterTheFirst_linesSorted() {
    String hostNet = "{\"hostNetwork\":true,\"containers\":[{\"name\":\"c\"}]}";
    List<JsonNode> pods = List.of(pod("z", hostNet, null), pod("y", hostNet, null), pod("m", hostNet, null),
        pod("b", "{\"containers\":[{\"name\":\"c\",\"securityContext\":{\"privileged\":true}}]}", null), pod("ok", "{\"containers\":[]}", null));
    assertThat(ExistingPods.warnings(Evaluator.DEFAULT, "ns", BASELINE, pods)).containsExactly(
        "existing pods in namespace \"ns\" violate the new PodSecurity enforce level \"baseline:latest\"",
        "b: privileged",
        "m (and 2 other pods): host namespaces");
  }

  @Test
  void noViolation_noWarning() {
    assertThat(ExistingPods.warnings(Evaluator.DEFAULT, "ns", BASELINE,
        List.of(pod("a", "{\"containers\":[{\"name\":\"c\"}]}", null)))).isEmpty();
  }

  @Test
  void beyondTheLimit_podsAreNotChecked_oneOfEachControllerFirst() {
    List<JsonNode> pods = new ArrayList<>();
    for (int i = 0; i < ExistingPods.MAX_PODS; i++) {
      pods.add(pod("rs-" + i, "{\"containers\":[{\"name\":\"c\"}]}", "uid-1")); // alike: checked last
    }
    pods.add(pod("lone", "{\"hostIPC\":true,\"containers\":[{\"name\":\"c\"}]}", null));
    assertThat(ExistingPods.warnings(Evaluator.DEFAULT, "ns", BASELINE, pods)).containsExactly(
        "new PodSecurity enforce level only checked against the first 3000 of 3001 existing pods",
        "existing pods in namespace \"ns\" violate the new PodSecurity enforce level \"baseline:latest\"",
        "lone: host namespaces");
  }
}
