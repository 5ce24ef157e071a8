package io.listwatch.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.strategy.BuiltinStrategies;
import io.listwatch.apiserver.strategy.RestStrategy;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.io.IOException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What a DELETE does to one object: kube's grace period, propagation finalizers and the kinds' own rules. */
class DeletionTest {

  private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
  private static final ResourceRegistry REGISTRY = ResourceRegistry.builtins();
  private static final RestStrategy PODS = strategy("", "pods");
  private static final RestStrategy CONFIGMAPS = strategy("", "configmaps");
  private static final RestStrategy NAMESPACES = strategy("", "namespaces");
  private static final RestStrategy JOBS = strategy("batch", "jobs");

  /** The kind's strategy, which holds its part of a delete. */
  private static RestStrategy strategy(String group, String plural) {
    return BuiltinStrategies.forResource(REGISTRY.find(group, "v1", plural).orElseThrow());
  }

  private static ObjectNode json(String s) {
    try {
      return (ObjectNode) ResourceStore.MAPPER.readTree(s);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static DeleteOptions grace(Long seconds) {
    return new DeleteOptions("", "", false, seconds, null, false);
  }

  @Test
  void podOnANode_getsItsTerminationGracePeriod_orThirtySeconds() {
    ObjectNode pod = json("{\"metadata\":{\"name\":\"p\"},\"spec\":{\"nodeName\":\"n\",\"terminationGracePeriodSeconds\":45}}");

    Deletion.Plan plan = Deletion.plan(PODS, pod, DeleteOptions.DEFAULTS, NOW);

    assertThat(plan.graceSeconds()).isEqualTo(45);
    assertThat(plan.marked().at("/metadata/deletionTimestamp").asText()).isEqualTo("2026-11-24T12:00:45Z");
    assertThat(plan.marked().at("/metadata/deletionGracePeriodSeconds").asLong()).isEqualTo(45);
    assertThat(Deletion.plan(PODS, json("{\"spec\":{\"nodeName\":\"n\"}}"), DeleteOptions.DEFAULTS, NOW)
        .graceSeconds()).isEqualTo(30);
    assertThat(Deletion.plan(PODS, pod, grace(5L), NOW).graceSeconds()).as("the request's grace wins").isEqualTo(5);
  }

  @Test
  void podNotOnANode_orFinished_orWithGraceZero_goesAtOnce() {
    assertThat(Deletion.plan(PODS, json("{\"spec\":{}}"), DeleteOptions.DEFAULTS, NOW).marked()).isNull();
    assertThat(Deletion.plan(PODS, json("{\"spec\":{\"nodeName\":\"n\"},\"status\":{\"phase\":\"Succeeded\"}}"),
        DeleteOptions.DEFAULTS, NOW).marked()).isNull();
    assertThat(Deletion.plan(PODS, json("{\"spec\":{\"nodeName\":\"n\"}}"), grace(0L), NOW).marked()).isNull();
  }

  @Test
  void secondDelete_shortensTheGrace_butNeverLengthensIt() {
    ObjectNode marked = json("""
        {"metadata":{"deletionTimestamp":"2026-11-24T12:00:30Z","deletionGracePeriodSeconds":30},
         "spec":{"nodeName":"n"}}""");

    assertThat(Deletion.plan(PODS, marked, grace(60L), NOW).marked().at("/metadata/deletionGracePeriodSeconds")
        .asLong()).isEqualTo(30);
    assertThat(Deletion.plan(PODS, marked, grace(10L), NOW).marked().at("/metadata/deletionTimestamp").asText())
        .isEqualTo("2026-11-24T12:00:10Z");
    assertThat(Deletion.plan(PODS, marked, grace(0L), NOW).marked()).as("a node agent's confirmation").isNull();
  }

  @Test
  void propagation_addsTheGarbageCollectorsFinalizer_onlyForOrphanAndForeground() {
    ObjectNode cm = json("{\"metadata\":{\"name\":\"c\"}}");

    assertThat(Deletion.plan(CONFIGMAPS, cm, DeleteOptions.DEFAULTS, NOW).marked()).isNull();
    assertThat(Deletion.plan(CONFIGMAPS, cm, DeleteOptions.of("", DeleteOptions.Propagation.Foreground), NOW)
        .marked().at("/metadata/finalizers").toString()).isEqualTo("[\"foregroundDeletion\"]");
    assertThat(Deletion.plan(CONFIGMAPS, cm, DeleteOptions.of("", DeleteOptions.Propagation.Orphan), NOW)
        .marked().at("/metadata/finalizers").toString()).isEqualTo("[\"orphan\"]");
    assertThat(Deletion.plan(JOBS, json("{\"metadata\":{\"name\":\"j\"}}"), DeleteOptions.DEFAULTS, NOW)
        .marked().at("/metadata/finalizers").toString()).as("batch/v1 jobs orphan by default").isEqualTo("[\"orphan\"]");
  }

  @Test
  void namespace_isMarkedTerminating_andRemovableOnlyWithoutSpecFinalizers() {
    ObjectNode ns = json("{\"metadata\":{\"name\":\"x\"},\"spec\":{\"finalizers\":[\"kubernetes\"]},"
        + "\"status\":{\"phase\":\"Active\"}}");

    ObjectNode marked = Deletion.plan(NAMESPACES, ns, DeleteOptions.DEFAULTS, NOW).marked();

    assertThat(marked.at("/status/phase").asText()).isEqualTo("Terminating");
    assertThat(Deletion.readyToRemove(NAMESPACES, marked)).isFalse();
    ((ObjectNode) marked.get("spec")).putArray("finalizers");
    assertThat(Deletion.readyToRemove(NAMESPACES, marked)).isTrue();
  }

  @Test
  void customResourceDefinition_firstDelete_addsTheCleanupFinalizer_andTheTerminatingCondition() {
    RestStrategy crds = BuiltinStrategies.forResource(
        REGISTRY.find("apiextensions.k8s.io", "v1", "customresourcedefinitions").orElseThrow());
    ObjectNode marked = Deletion.plan(crds, json("{\"metadata\":{\"name\":\"a.b.c\"}}"), DeleteOptions.DEFAULTS, NOW)
        .marked();

    assertThat(marked.at("/metadata/finalizers").toString()).isEqualTo("[\"customresourcecleanup.apiextensions.k8s.io\"]");
    assertThat(marked.at("/status/conditions/0/type").asText()).isEqualTo("Terminating");
    assertThat(marked.at("/status/conditions/0/reason").asText()).isEqualTo("InstanceDeletionPending");
  }
}
