package io.listwatch.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.io.IOException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What a DELETE does to one object: kube's grace period, propagation finalizers and namespace rules. */
class DeletionTest {

  private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
  private static final ResourceRegistry REGISTRY = ResourceRegistry.builtins();
  private static final ResourceDefinition PODS = REGISTRY.find("", "v1", "pods").orElseThrow();
  private static final ResourceDefinition CONFIGMAPS = REGISTRY.find("", "v1", "configmaps").orElseThrow();
  private static final ResourceDefinition NAMESPACES = REGISTRY.find("", "v1", "namespaces").orElseThrow();
  private static final ResourceDefinition JOBS = REGISTRY.find("batch", "v1", "jobs").orElseThrow();

  private static ObjectNode json(String s) {
    try {
      return (ObjectNode) ResourceStore.MAPPER.readTree(s);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static DeleteOptions grace(Long seconds) {
    return new DeleteOptions("", "", false, seconds, null);
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
}
