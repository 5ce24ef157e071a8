package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.JsonLimits;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** kube's defaulting of workloads and PriorityClasses, kind by kind (what kubectl describe and rollout status read). */
class WorkloadDefaultsTest {

  private static final ResourceRegistry REGISTRY = ResourceRegistry.builtins();

  private static ResourceDefinition def(String group, String plural) {
    return REGISTRY.find(group, "v1", plural).orElseThrow();
  }

  private static ObjectNode json(String s) {
    try {
      return (ObjectNode) JsonLimits.mapper().readTree(s);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static ObjectNode defaulted(ResourceDefinition def, String json) {
    ObjectNode obj = json(json);
    BuiltinStrategies.forResource(def).defaults(obj);
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
  void deployment_getsARollingUpdateStrategy_revisionHistoryAndProgressDeadline() {
    ObjectNode d = defaulted(def("apps", "deployments"), "{\"spec\":{}}");

    assertThat(d.get("spec")).isEqualTo(json("""
        {"replicas":1,
         "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},
         "revisionHistoryLimit":10,"progressDeadlineSeconds":600}"""));
  }

  @Test
  void deployment_keepsWhatItWasGiven_andARecreateStrategyGetsNoRollingUpdate() {
    ObjectNode partial = defaulted(def("apps", "deployments"), """
        {"spec":{"strategy":{"rollingUpdate":{"maxSurge":0}},"revisionHistoryLimit":0}}""");
    ObjectNode recreate = defaulted(def("apps", "deployments"), "{\"spec\":{\"strategy\":{\"type\":\"Recreate\"}}}");

    assertThat(partial.at("/spec/strategy")).isEqualTo(json("""
        {"rollingUpdate":{"maxSurge":0,"maxUnavailable":"25%"},"type":"RollingUpdate"}"""));
    assertThat(partial.at("/spec/revisionHistoryLimit").intValue()).isZero();
    assertThat(recreate.at("/spec/strategy")).isEqualTo(json("{\"type\":\"Recreate\"}"));
  }

  @Test
  void statefulSet_getsOrderedReadyRollingUpdateWithPartitionZero_andRetainedClaims() {
    ObjectNode s = defaulted(def("apps", "statefulsets"), "{\"spec\":{\"serviceName\":\"db\"}}");
    ObjectNode onDelete = defaulted(def("apps", "statefulsets"), "{\"spec\":{\"updateStrategy\":{\"type\":\"OnDelete\"}}}");
    ObjectNode rollingWithout = defaulted(def("apps", "statefulsets"),
        "{\"spec\":{\"updateStrategy\":{\"type\":\"RollingUpdate\"}}}");

    assertThat(s.get("spec")).isEqualTo(json("""
        {"serviceName":"db","podManagementPolicy":"OrderedReady",
         "updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":0}},
         "persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Retain","whenScaled":"Retain"},
         "replicas":1,"revisionHistoryLimit":10}"""));
    assertThat(onDelete.at("/spec/updateStrategy")).isEqualTo(json("{\"type\":\"OnDelete\"}"));
    assertThat(rollingWithout.at("/spec/updateStrategy")).as("as kube: only a defaulted type gets its parameters")
        .isEqualTo(json("{\"type\":\"RollingUpdate\"}"));
  }

  @Test
  void daemonSet_getsARollingUpdateOfOneAtATime_andRevisionHistory() {
    ObjectNode ds = defaulted(def("apps", "daemonsets"), "{\"spec\":{\"selector\":{}}}");
    ObjectNode onDelete = defaulted(def("apps", "daemonsets"), "{\"spec\":{\"updateStrategy\":{\"type\":\"OnDelete\"}}}");

    assertThat(ds.get("spec")).isEqualTo(json("""
        {"selector":{},
         "updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1,"maxSurge":0}},
         "revisionHistoryLimit":10}"""));
    assertThat(onDelete.at("/spec/updateStrategy")).isEqualTo(json("{\"type\":\"OnDelete\"}"));
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
  void otherKinds_andASpecThatIsNotAnObject_areLeftAsSent() {
    String configMap = "{\"data\":{\"a\":\"b\"}}";
    String badDeployment = "{\"spec\":\"oops\"}";

    assertThat(defaulted(def("", "configmaps"), configMap)).isEqualTo(json(configMap));
    assertThat(defaulted(def("apps", "deployments"), badDeployment)).isEqualTo(json(badDeployment));
  }
}
