package io.listwatch.controllers.replicaset;

import static io.listwatch.controllers.replicaset.ReplicaSetFixture.NOW;
import static io.listwatch.controllers.replicaset.ReplicaSetFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceType;
import io.listwatch.client.testing.Action;
import io.listwatch.client.testing.Reaction;
import io.listwatch.controllers.ControllerExpectations;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReplicaSetControllerTest {

  private final ReplicaSetFixture f = new ReplicaSetFixture();

  @AfterEach
  void tearDown() {
    f.close();
  }

  private static final Map<String, String> WEB = Map.of("app", "web", "tier", "front");

  private ObjectNode status(Action update) {
    assertThat(update.toString()).isEqualTo("update replicasets.apps/status " + NS + "/web");
    return (ObjectNode) update.object(DynamicObject.class).toTree().path("status");
  }

  @Test
  void sync_createsMissingPods_fromTheTemplate_ownedByTheReplicaSet() throws Exception {
    f.replicaSet("web", 3, 0);
    f.start();

    f.sync("web");

    List<Action> writes = f.writeActions();
    assertThat(writes).extracting(Action::toString).containsExactly("create pods " + NS, "create pods " + NS,
        "create pods " + NS, "update replicasets.apps/status " + NS + "/web");
    for (Action create : writes.subList(0, 3)) {
      ObjectNode pod = create.object(DynamicObject.class).toTree();
      assertThat(pod.path("metadata").path("generateName").asText()).isEqualTo("web-");
      assertThat(pod.path("metadata").path("labels")).isEqualTo(ReplicaSetFixture.MAPPER.valueToTree(WEB));
      assertThat(pod.path("metadata").path("ownerReferences")).isEqualTo(ReplicaSetFixture.MAPPER.readTree(
          "[{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"name\":\"web\",\"uid\":\"uid-web\","
              + "\"controller\":true,\"blockOwnerDeletion\":true}]"));
      assertThat(pod.path("spec").path("containers").path(0).path("image").asText()).isEqualTo("nginx");
    }
    ObjectNode status = status(writes.get(3));
    assertThat(status.path("replicas").asInt()).isZero(); // counts what the cache held before the creates
    assertThat(status.path("observedGeneration").asLong()).isEqualTo(1);
    assertThat(f.events()).hasSize(3).allMatch(e -> e.startsWith("Normal SuccessfulCreate web: Created pod: web-"));
  }

  @Test
  void createFailures_stopTheSlowStart_lowerExpectations_andSetReplicaFailure() throws Exception {
    f.replicaSet("web", 10, 0);
    f.start();
    AtomicInteger creates = new AtomicInteger();
    f.client.prependReactor(Action.CREATE, ResourceType.PODS, a -> {
      if (creates.incrementAndGet() > 3) {
        throw StatusException.forbidden("", "pods", "", "exceeded quota: pods=3");
      }
      return Reaction.passThrough();
    });

    assertThatThrownBy(() -> f.sync("web")).isInstanceOf(StatusException.class);

    // batches of 1, 2 and 4; the third batch fails after one success, so no batch of 8 follows
    assertThat(f.client.actionsFor(Action.CREATE, ResourceType.PODS)).hasSize(7);
    assertThat(f.events()).filteredOn(e -> e.startsWith("Warning FailedCreate web: Error creating:")).hasSize(4);
    assertThat(f.controller.expectations().pending(NS + "/web").orElseThrow().adds())
        .as("only the 3 pods created are still expected").isLessThanOrEqualTo(3);
    JsonNode condition = status(f.client.actionsFor(Action.UPDATE, ResourceType.REPLICASETS).getLast())
        .path("conditions").path(0);
    assertThat(condition.path("type").asText()).isEqualTo("ReplicaFailure");
    assertThat(condition.path("status").asText()).isEqualTo("True");
    assertThat(condition.path("reason").asText()).isEqualTo("FailedCreate");
    assertThat(condition.path("message").asText()).contains("exceeded quota");
  }

  @Test
  void createRefusedInATerminatingNamespace_isNoFailureOfTheReplicaSet() throws Exception {
    f.replicaSet("web", 2, 0);
    f.start();
    StatusException forbidden = StatusException.forbidden("", "pods", "", "unable to create new content in namespace "
        + NS + " because it is being terminated");
    f.client.prependReactor(Action.CREATE, ResourceType.PODS, a -> {
      throw new StatusException(io.listwatch.api.Status.failure(403, forbidden.reason(), forbidden.getMessage(),
          forbidden.status().details().withCauses(List.of(new io.listwatch.api.Status.Cause("NamespaceTerminating",
              "namespace " + NS + " is being terminated", "metadata.namespace")))));
    });

    f.sync("web");

    assertThat(f.client.actionsFor(Action.CREATE, ResourceType.PODS)).hasSize(2);
    ObjectNode status = status(f.client.actionsFor(Action.UPDATE, ResourceType.REPLICASETS).getFirst());
    assertThat(status.has("conditions")).isFalse();
  }

  @Test
  void staleCache_neverDoubleCreates_untilTheExpectationsExpire() throws Exception {
    f.replicaSet("web", 2, 0);
    f.start();
    f.factory.close(); // the informers stop: the cache will never see the pods created below
    f.sync("web");
    assertThat(f.client.actionsFor(Action.CREATE, ResourceType.PODS)).hasSize(2);

    f.client.clearActions();
    f.sync("web");
    assertThat(f.client.actionsFor(Action.CREATE, ResourceType.PODS)).isEmpty();

    f.clock.advance(ControllerExpectations.EXPECTATIONS_TTL.plusSeconds(1));
    f.sync("web");
    assertThat(f.client.actionsFor(Action.CREATE, ResourceType.PODS))
        .as("expired expectations let the controller act on what it sees").hasSize(2);
  }

  @Test
  void createdPodsSeenByTheInformer_satisfyTheExpectations_andNothingMoreIsCreated() throws Exception {
    f.replicaSet("web", 2, 0);
    f.start();
    f.sync("web");
    Await.until("the pod informer observes both creations", Duration.ofSeconds(10),
        () -> f.controller.expectations().satisfiedExpectations(NS + "/web"));
    f.client.clearActions();

    f.sync("web");

    assertThat(f.client.actionsFor(Action.CREATE, ResourceType.PODS)).isEmpty();
    ObjectNode status = status(f.client.actionsFor(Action.UPDATE, ResourceType.REPLICASETS).getFirst());
    assertThat(status.path("replicas").asInt()).isEqualTo(2);
    assertThat(status.path("fullyLabeledReplicas").asInt()).isEqualTo(2);
  }

  @Test
  void scaleDown_deletesInKubesPreferenceOrder() throws Exception {
    f.replicaSet("web", 2, 0);
    f.pod("ready-old").labels(WEB).ownedBy("web").node("n1").readySince(NOW.minusSeconds(600)).seed();
    f.pod("ready-new").labels(WEB).ownedBy("web").node("n2").readySince(NOW.minusSeconds(60)).seed();
    f.pod("running-not-ready").labels(WEB).ownedBy("web").node("n3").phase("Running").seed();
    f.pod("pending-on-node").labels(WEB).ownedBy("web").node("n4").phase("Pending").seed();
    f.pod("unassigned").labels(WEB).ownedBy("web").phase("Pending").seed();
    f.start();

    f.sync("web");

    assertThat(f.client.actionsFor(Action.DELETE, ResourceType.PODS)).extracting(Action::name)
        .containsExactlyInAnyOrder("unassigned", "pending-on-node", "running-not-ready");
    assertThat(f.events()).filteredOn(e -> e.startsWith("Normal SuccessfulDelete web: Deleted pod: ")).hasSize(3);
    // a pod on a node is deleted gracefully (kube: its kubelet removes it at the end of the grace
    // period); the unassigned one is gone at once
    assertThat(f.client.server().list(ResourceType.PODS, NS))
        .filteredOn(p -> !p.path("metadata").has("deletionTimestamp"))
        .extracting(p -> p.path("metadata").path("name").asText())
        .containsExactlyInAnyOrder("ready-old", "ready-new");
    assertThat(f.client.server().get(ResourceType.PODS, NS, "unassigned")).isEmpty();
  }

  @Test
  void scaleDown_relievesTheNodeCrowdedWithPodsOfTheSameDeployment() throws Exception {
    ObjectNode old = f.replicaSet("web-old", 1, 0).toTree();
    ObjectNode web = f.replicaSet("web", 1, 0).toTree();
    for (ObjectNode rs : List.of(old, web)) {
      ((ObjectNode) rs.path("metadata")).putArray("ownerReferences").addObject().put("apiVersion", "apps/v1")
          .put("kind", "Deployment").put("name", "web").put("uid", "uid-deployment").put("controller", true);
      f.client.server().update(ResourceType.REPLICASETS, rs);
    }
    f.pod("old-on-n1").labels(Map.of("app", "web-old")).ownedBy("web-old").node("n1")
        .readySince(NOW.minusSeconds(600)).seed();
    f.pod("on-n1").labels(WEB).ownedBy("web").node("n1").readySince(NOW.minusSeconds(600)).seed();
    f.pod("on-n2").labels(WEB).ownedBy("web").node("n2").readySince(NOW.minusSeconds(600)).seed();
    f.start();

    f.sync("web");

    assertThat(f.client.actionsFor(Action.DELETE, ResourceType.PODS)).extracting(Action::name).containsExactly("on-n1");
  }

  @Test
  void scaleDown_withStaleCache_doesNotDeleteTheSamePodsTwice() throws Exception {
    f.replicaSet("web", 1, 0);
    f.pod("a").labels(WEB).ownedBy("web").node("n1").readySince(NOW.minusSeconds(600)).seed();
    f.pod("b").labels(WEB).ownedBy("web").phase("Pending").seed();
    f.start();
    f.factory.close();
    f.sync("web");
    assertThat(f.client.actionsFor(Action.DELETE, ResourceType.PODS)).extracting(Action::name).containsExactly("b");

    f.client.clearActions();
    f.sync("web");
    assertThat(f.client.actionsFor(Action.DELETE, ResourceType.PODS)).isEmpty();
  }

  @Test
  void orphanMatchingTheSelector_isAdopted_insteadOfCreatingAPod() throws Exception {
    f.replicaSet("web", 1, 0);
    f.pod("orphan").labels(WEB).seed();
    f.start();

    f.sync("web");

    assertThat(f.writes()).containsExactly("get replicasets.apps " + NS + "/web", "patch pods " + NS + "/orphan",
        "update replicasets.apps/status " + NS + "/web");
    JsonNode refs = f.client.server().get(ResourceType.PODS, NS, "orphan").orElseThrow()
        .path("metadata").path("ownerReferences");
    assertThat(refs).hasSize(1);
    assertThat(refs.path(0).path("uid").asText()).isEqualTo("uid-web");
    assertThat(refs.path(0).path("controller").asBoolean()).isTrue();
    assertThat(refs.path(0).path("blockOwnerDeletion").asBoolean()).isTrue();
  }

  @Test
  void orphan_isNotAdopted_whenTheReplicaSetWasRecreatedMeanwhile() throws Exception {
    f.replicaSet("web", 1, 0);
    f.pod("orphan").labels(WEB).seed();
    f.start();
    f.factory.close(); // the cache keeps the old ReplicaSet
    f.client.server().delete(ResourceType.REPLICASETS, NS, "web");
    f.client.dynamic(ResourceType.REPLICASETS).create(DynamicObject.parse("{\"apiVersion\":\"apps/v1\","
        + "\"kind\":\"ReplicaSet\",\"metadata\":{\"name\":\"web\",\"namespace\":\"" + NS + "\"},"
        + "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":"
        + "{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}"));

    assertThatThrownBy(() -> f.sync("web")).isInstanceOf(StatusException.class).hasMessageContaining("is gone");

    assertThat(f.client.actionsFor(Action.PATCH, ResourceType.PODS)).isEmpty();
    assertThat(f.client.actionsFor(Action.CREATE, ResourceType.PODS)).isEmpty();
  }

  @Test
  void ownedPodThatStopsMatching_isReleased_andReplaced() throws Exception {
    f.replicaSet("web", 1, 0);
    f.pod("debug-me").labels(Map.of("app", "debugging")).ownedBy("web").phase("Running").seed();
    f.start();

    f.sync("web");

    assertThat(f.writes()).containsExactly("patch pods " + NS + "/debug-me", "create pods " + NS,
        "update replicasets.apps/status " + NS + "/web");
    assertThat(f.client.server().get(ResourceType.PODS, NS, "debug-me").orElseThrow()
        .path("metadata").path("ownerReferences")).isEmpty();
  }

  @Test
  void podsOfAnotherController_areNeitherCountedNorTouched() throws Exception {
    f.replicaSet("web", 1, 0);
    f.pod("theirs").labels(WEB).ownedBy("other").phase("Running").seed();
    f.start();

    f.sync("web");

    assertThat(f.writes()).containsExactly("create pods " + NS, "update replicasets.apps/status " + NS + "/web");
  }

  @Test
  void status_countsFullyLabeledReadyAndAvailablePods_withMinReadySeconds() throws Exception {
    f.replicaSet("web", 5, 10);
    f.pod("available").labels(WEB).ownedBy("web").node("n1").readySince(NOW.minusSeconds(20)).seed();
    f.pod("ready-recently").labels(WEB).ownedBy("web").node("n1").readySince(NOW.minusSeconds(5)).seed();
    f.pod("starting").labels(WEB).ownedBy("web").node("n1").phase("Running").seed();
    f.pod("partly-labeled").labels(Map.of("app", "web")).ownedBy("web").phase("Pending").seed();
    f.pod("done").labels(WEB).ownedBy("web").phase("Succeeded").seed();
    f.start();

    f.sync("web");

    assertThat(f.client.actionsFor(Action.CREATE, ResourceType.PODS)).as("the Succeeded pod is not active").hasSize(1);
    ObjectNode status = status(f.client.actionsFor(Action.UPDATE, ResourceType.REPLICASETS).getFirst());
    assertThat(status.path("replicas").asInt()).isEqualTo(4);
    assertThat(status.path("fullyLabeledReplicas").asInt()).isEqualTo(3);
    assertThat(status.path("readyReplicas").asInt()).isEqualTo(2);
    assertThat(status.path("availableReplicas").asInt()).isEqualTo(1);
  }

  @Test
  void unchangedStatus_isNotWrittenAgain() throws Exception {
    f.replicaSet("web", 1, 0);
    f.pod("p").labels(WEB).ownedBy("web").node("n1").readySince(NOW.minusSeconds(20)).seed();
    f.start();
    f.sync("web");
    assertThat(f.writes()).containsExactly("update replicasets.apps/status " + NS + "/web");
    Await.until("the informer sees the status write", Duration.ofSeconds(10),
        () -> f.factory.informerFor(ResourceType.REPLICASETS, DynamicObject.CODEC).getStore().getByKey(NS + "/web")
            .flatMap(rs -> rs.get("status", "replicas")).map(JsonNode::asInt).orElse(0) == 1);
    f.client.clearActions();

    f.sync("web");

    assertThat(f.writes()).isEmpty();
  }

  @Test
  void replicaSetBeingDeleted_createsNothing() throws Exception {
    DynamicObject rs = f.replicaSet("web", 2, 0);
    ObjectNode tree = rs.toTree();
    ((ObjectNode) tree.path("metadata")).putArray("finalizers").add("example.com/hold");
    f.client.server().update(ResourceType.REPLICASETS, tree);
    f.client.server().delete(ResourceType.REPLICASETS, NS, "web"); // held by the finalizer: marked
    f.start();

    f.sync("web");

    assertThat(f.client.actionsFor(Action.CREATE, ResourceType.PODS)).isEmpty();
  }

  @Test
  void replicaSetGoneFromTheCache_forgetsItsExpectations() throws Exception {
    f.start();
    f.controller.expectations().expectCreations(NS + "/web", 2);

    f.sync("web");

    assertThat(f.controller.expectations().pending(NS + "/web")).isEmpty();
    assertThat(f.writes()).isEmpty();
  }
}
