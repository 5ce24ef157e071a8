package io.listwatch.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.registry.ResourceDefinition;
import io.listwatch.server.registry.ResourceRegistry;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** kube's defaulting of a written object, kind by kind. */
class StrategiesTest {

  private static final ResourceRegistry REGISTRY = ResourceRegistry.builtins();

  private static ResourceDefinition def(String group, String plural) {
    return REGISTRY.find(group, "v1", plural).orElseThrow();
  }

  private static ObjectNode json(String s) {
    try {
      return (ObjectNode) ResourceStore.MAPPER.readTree(s);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static ObjectNode defaulted(ResourceDefinition def, String json) {
    ObjectNode obj = json(json);
    Strategies.applyDefaults(def, obj);
    return obj;
  }

  @Test
  void replicas_missingOrNull_defaultToOne_forDeploymentsReplicaSetsAndStatefulSets() {
    for (String plural : new String[] {"deployments", "replicasets", "statefulsets"}) {
      ResourceDefinition def = def("apps", plural);

      assertThat(defaulted(def, "{\"spec\":{\"selector\":{}}}").at("/spec/replicas").intValue()).as(plural).isEqualTo(1);
      assertThat(defaulted(def, "{\"spec\":{\"replicas\":null}}").at("/spec/replicas").intValue()).as(plural).isEqualTo(1);
      assertThat(defaulted(def, "{\"metadata\":{\"name\":\"x\"}}").at("/spec/replicas").intValue()).as(plural)
          .isEqualTo(1);
    }
  }

  @Test
  void replicas_given_areKept_evenZero() {
    ResourceDefinition deployments = def("apps", "deployments");

    assertThat(defaulted(deployments, "{\"spec\":{\"replicas\":0}}").at("/spec/replicas").intValue()).isZero();
    assertThat(defaulted(deployments, "{\"spec\":{\"replicas\":7}}").at("/spec/replicas").intValue()).isEqualTo(7);
  }

  @Test
  void priorityClass_withoutPreemptionPolicy_preemptsLowerPriority_andAGivenPolicyIsKept() {
    ResourceDefinition priorityClasses = def("scheduling.k8s.io", "priorityclasses");

    assertThat(defaulted(priorityClasses, "{\"value\":1000}").path("preemptionPolicy").asText())
        .isEqualTo("PreemptLowerPriority");
    assertThat(defaulted(priorityClasses, "{\"value\":1000,\"preemptionPolicy\":\"Never\"}")
        .path("preemptionPolicy").asText()).isEqualTo("Never");
  }

  @Test
  void kindsWithoutReplicas_areLeftAsSent() {
    String daemonSet = "{\"spec\":{\"selector\":{}}}";
    String job = "{\"spec\":{\"template\":{}}}";

    assertThat(defaulted(def("apps", "daemonsets"), daemonSet)).isEqualTo(json(daemonSet));
    assertThat(defaulted(def("batch", "jobs"), job)).isEqualTo(json(job));
  }
}
