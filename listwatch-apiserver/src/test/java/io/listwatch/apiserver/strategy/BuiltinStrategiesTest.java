package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class BuiltinStrategiesTest {

  @Test
  void kindsWithRules_getAStrategyNamedForTheKind_everyOtherResourceGetsNone() {
    Map<String, String> found = new TreeMap<>();
    for (ResourceDefinition def : ResourceRegistry.builtins().all()) {
      RestStrategy strategy = BuiltinStrategies.forResource(def);
      if (strategy != BuiltinStrategies.NONE) {
        found.put(def.group() + "/" + def.plural(), strategy.getClass().getSimpleName());
        assertThat(strategy.getClass().getSimpleName()).as(def.plural()).isEqualTo(def.kind() + "Strategy");
      }
    }

    assertThat(found).containsOnlyKeys("/namespaces", "/pods", "/services", "/endpoints",
        "discovery.k8s.io/endpointslices", "/secrets", "/persistentvolumes",
        "/persistentvolumeclaims", "apps/deployments", "apps/replicasets", "apps/statefulsets", "apps/daemonsets",
        "batch/jobs", "batch/cronjobs", "scheduling.k8s.io/priorityclasses",
        "apiextensions.k8s.io/customresourcedefinitions", "apiregistration.k8s.io/apiservices",
        "apps/controllerrevisions", "policy/poddisruptionbudgets", "networking.k8s.io/ingresses",
        "networking.k8s.io/networkpolicies", "coordination.k8s.io/leases", "storage.k8s.io/storageclasses",
        "storage.k8s.io/csidrivers", "storage.k8s.io/csinodes",
        "storage.k8s.io/csistoragecapacities", "storage.k8s.io/volumeattachments",
        "certificates.k8s.io/certificatesigningrequests",
        "admissionregistration.k8s.io/validatingadmissionpolicies",
        "admissionregistration.k8s.io/validatingadmissionpolicybindings",
        "rbac.authorization.k8s.io/roles", "rbac.authorization.k8s.io/clusterroles",
        "rbac.authorization.k8s.io/rolebindings", "rbac.authorization.k8s.io/clusterrolebindings",
        "/configmaps", "/nodes", "/serviceaccounts", "/limitranges", "/resourcequotas", "/events", "events.k8s.io/events",
        "networking.k8s.io/ingressclasses", "node.k8s.io/runtimeclasses", "/podtemplates", "/replicationcontrollers",
        "flowcontrol.apiserver.k8s.io/flowschemas", "flowcontrol.apiserver.k8s.io/prioritylevelconfigurations",
        "admissionregistration.k8s.io/mutatingwebhookconfigurations",
        "admissionregistration.k8s.io/validatingwebhookconfigurations",
        "autoscaling/horizontalpodautoscalers");
  }

  @Test
  void aKindWhoseVersionsDiffer_getsItsStrategyPerVersion() {
    ResourceRegistry builtins = ResourceRegistry.builtins();
    assertThat(BuiltinStrategies.forResource(builtins.find("autoscaling", "v2", "horizontalpodautoscalers").orElseThrow()))
        .isSameAs(HorizontalPodAutoscalerStrategy.V2);
    assertThat(BuiltinStrategies.forResource(builtins.find("autoscaling", "v1", "horizontalpodautoscalers").orElseThrow()))
        .isSameAs(HorizontalPodAutoscalerStrategy.V1);
  }
}
