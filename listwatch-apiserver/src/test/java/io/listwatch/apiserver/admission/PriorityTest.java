package io.listwatch.apiserver.admission;

import static io.listwatch.apiserver.admission.Admissions.admitted;
import static io.listwatch.apiserver.admission.Admissions.createPod;
import static io.listwatch.apiserver.admission.Admissions.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import org.junit.jupiter.api.Test;

class PriorityTest {

  private final ListersStub listers = new ListersStub()
      .add("scheduling.k8s.io", "priorityclasses", "", "{\"metadata\":{\"name\":\"system-cluster-critical\"},\"value\":2000000000,\"preemptionPolicy\":\"PreemptLowerPriority\"}")
      .add("scheduling.k8s.io", "priorityclasses", "", "{\"metadata\":{\"name\":\"high\"},\"value\":1000,\"preemptionPolicy\":\"PreemptLowerPriority\"}")
      .add("scheduling.k8s.io", "priorityclasses", "", "{\"metadata\":{\"name\":\"polite\"},\"value\":500,\"preemptionPolicy\":\"Never\"}");
  private final Priority plugin = new Priority(listers);

  private static ObjectNode spec(ObjectNode pod) {
    return (ObjectNode) pod.get("spec");
  }

  @Test
  void aPodNamingNoClass_withoutADefault_getsPriorityZeroAndPreemptLowerPriority() {
    ObjectNode spec = spec(admitted(plugin, createPod("ns", "{\"spec\":{}}")));
    assertThat(spec.path("priority").asLong(-1)).isZero();
    assertThat(spec.path("preemptionPolicy").asText()).isEqualTo("PreemptLowerPriority");
    assertThat(spec.has("priorityClassName")).isFalse();
  }

  @Test
  void aPodNamingAClass_getsItsValueAndPolicy_inAnyNamespace() {
    ObjectNode spec = spec(admitted(plugin, createPod("ns", "{\"spec\":{\"priorityClassName\":\"polite\"}}")));
    assertThat(spec.path("priority").asLong()).isEqualTo(500);
    assertThat(spec.path("preemptionPolicy").asText()).isEqualTo("Never");
    ObjectNode critical = spec(admitted(plugin, createPod("ns", "{\"spec\":{\"priorityClassName\":\"system-cluster-critical\"}}")));
    assertThat(critical.path("priority").asLong()).isEqualTo(2_000_000_000L);
    // the same value stated by the client is fine
    admitted(plugin, createPod("ns", "{\"spec\":{\"priorityClassName\":\"high\",\"priority\":1000}}"));
  }

  @Test
  void theGlobalDefault_appliesWhenNoneIsNamed_theLowestOfSeveral() {
    listers.add("scheduling.k8s.io", "priorityclasses", "", "{\"metadata\":{\"name\":\"d1\"},\"value\":100,\"globalDefault\":true,\"preemptionPolicy\":\"Never\"}")
        .add("scheduling.k8s.io", "priorityclasses", "", "{\"metadata\":{\"name\":\"d2\"},\"value\":50,\"globalDefault\":true,\"preemptionPolicy\":\"Never\"}");
    ObjectNode spec = spec(admitted(plugin, createPod("ns", "{\"spec\":{}}")));
    assertThat(spec.path("priorityClassName").asText()).isEqualTo("d2");
    assertThat(spec.path("priority").asLong()).isEqualTo(50);
    assertThat(spec.path("preemptionPolicy").asText()).isEqualTo("Never");
  }

  @Test
  void refusals_asKubes() {
    record Case(String spec, String message) {
    }
    for (Case c : new Case[] {
        new Case("\"priorityClassName\":\"nope\"", "no PriorityClass with name nope was found"),
        new Case("\"priorityClassName\":\"high\",\"priority\":7",
            "the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name"),
        new Case("\"priority\":7",
            "the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name"),
        new Case("\"priorityClassName\":\"polite\",\"preemptionPolicy\":\"PreemptLowerPriority\"",
            "the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name")}) {
      StatusException e = refusal(plugin, createPod("ns", "{\"metadata\":{\"name\":\"p\"},\"spec\":{" + c.spec() + "}}"));
      assertThat(e).as(c.spec()).isNotNull();
      assertThat(e.code()).isEqualTo(403);
      assertThat(e.status().message()).isEqualTo("pods \"p\" is forbidden: " + c.message());
    }
  }

  @Test
  void anUpdate_keepsThePriorityTheObjectLeavesOut() {
    ObjectNode spec = spec(admitted(plugin, Admissions.update("", "v1", "pods", "ns", "{\"spec\":{}}",
        "{\"spec\":{\"priority\":1000,\"preemptionPolicy\":\"Never\"}}")));
    assertThat(spec.path("priority").asLong()).isEqualTo(1000);
    assertThat(spec.path("preemptionPolicy").asText()).isEqualTo("Never");
  }

  @Test
  void onlyOneGlobalDefault() {
    String second = "{\"metadata\":{\"name\":\"second\"},\"value\":1,\"globalDefault\":true}";
    admitted(plugin, Admissions.create("scheduling.k8s.io", "v1", "priorityclasses", "", second));
    listers.add("scheduling.k8s.io", "priorityclasses", "", "{\"metadata\":{\"name\":\"first\"},\"value\":1,\"globalDefault\":true}");
    StatusException e = refusal(plugin, Admissions.create("scheduling.k8s.io", "v1", "priorityclasses", "", second));
    assertThat(e.code()).isEqualTo(403);
    assertThat(e.status().message()).isEqualTo(
        "priorityclasses.scheduling.k8s.io \"second\" is forbidden: PriorityClass first is already marked as default. Only one default can exist");
    // the default itself may be updated; another may not become one
    String first = "{\"metadata\":{\"name\":\"first\"},\"value\":1,\"globalDefault\":true,\"description\":\"d\"}";
    admitted(plugin, Admissions.update("scheduling.k8s.io", "v1", "priorityclasses", "", first, first));
    assertThat(refusal(plugin, Admissions.update("scheduling.k8s.io", "v1", "priorityclasses", "", second,
        "{\"metadata\":{\"name\":\"second\"},\"value\":1}"))).isNotNull();
  }
}
