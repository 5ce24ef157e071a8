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

    assertThat(found).containsOnlyKeys("/namespaces", "/pods", "/services", "/endpoints", "/secrets", "/persistentvolumes",
        "/persistentvolumeclaims", "apps/deployments", "apps/replicasets", "apps/statefulsets", "apps/daemonsets",
        "batch/jobs", "batch/cronjobs", "scheduling.k8s.io/priorityclasses",
        "apiextensions.k8s.io/customresourcedefinitions",
        "/configmaps", "/nodes", "/serviceaccounts", "/limitranges", "/resourcequotas", "/events", "events.k8s.io/events");
  }
}
