package io.listwatch.controllers.scheduler;

import static io.listwatch.controllers.scheduler.Fixtures.labelled;
import static io.listwatch.controllers.scheduler.Fixtures.labels;
import static io.listwatch.controllers.scheduler.Fixtures.node;
import static io.listwatch.controllers.scheduler.Fixtures.ownedBy;
import static io.listwatch.controllers.scheduler.Fixtures.pod;
import static io.listwatch.controllers.scheduler.Fixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.clock.Clock;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.SharedInformerFactory;
import io.listwatch.client.testing.Action;
import io.listwatch.client.testing.FakeClient;
import io.listwatch.controllers.ControllerContext;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The scheduler against FakeClient: fixture nodes and pods in, binding and status actions out. */
@Timeout(60)
class SchedulerTest {

  /** How long the scheduler's threads may take for what a test waits for. */
  private static final Duration BOUND = Duration.ofSeconds(30);

  private final FakeClient client = FakeClient.create();
  private final RecordedEvents events = new RecordedEvents();
  private SharedInformerFactory factory;
  private Scheduler scheduler;

  private void seed(ResourceType type, ObjectNode... objects) {
    for (ObjectNode o : objects) {
      ObjectNode stored = client.server().add(type, o);
      if (type == ResourceType.NODES) { // Ready, as the node controller leaves it
        client.server().update(type, Fixtures.withoutNotReadyTaint(stored));
      }
    }
  }

  private void start() {
    factory = SharedInformerFactory.builder(client).build();
    scheduler = new Scheduler(new ControllerContext(client, factory, events, Clock.system()), new Random(7));
    factory.start();
    scheduler.run(1);
  }

  @AfterEach
  void stop() {
    if (scheduler != null) {
      scheduler.close();
      factory.close();
    }
    client.close();
  }

  /** {@code pod -> node} for every binding posted, in order. */
  private List<String> bindings() {
    return client.actions().stream().filter(a -> a.is(Action.CREATE, ResourceType.PODS))
        .filter(a -> a.subresource().equals("binding"))
        .map(a -> a.name() + " -> " + ((DynamicObject) a.object()).get("target", "name").orElseThrow().asText())
        .toList();
  }

  private List<Action> statusUpdates() {
    return client.actions().stream().filter(a -> a.is(Action.UPDATE, ResourceType.PODS) && a.isStatus()).toList();
  }

  @Test
  void pendingPodsOfOneOwner_areBoundOnePerNode_withScheduledEvents() throws Exception {
    seed(ResourceType.NODES, node("n1"), node("n2"), node("n3"));
    seed(ResourceType.PODS, ownedBy(pod("web-1"), "rs-1"), ownedBy(pod("web-2"), "rs-1"),
        ownedBy(pod("web-3"), "rs-1"));
    start();

    Await.until("three bindings", BOUND, () -> bindings().size() == 3);
    assertThat(bindings()).extracting(b -> b.substring(b.indexOf("-> ") + 3)).containsExactlyInAnyOrder("n1", "n2", "n3");
    assertThat(bindings()).extracting(b -> b.substring(0, b.indexOf(" ->")))
        .containsExactlyInAnyOrder("web-1", "web-2", "web-3");
    Await.until("three events", BOUND, () -> events.lines.size() == 3);
    for (String b : bindings()) {
      String[] parts = b.split(" -> ");
      assertThat(events.lines).contains("Normal Scheduled default/" + parts[0] + ": Successfully assigned default/"
          + parts[0] + " to " + parts[1]);
    }
    assertThat(statusUpdates()).isEmpty();
  }

  @Test
  void podWithNodeSelector_isBoundToTheMatchingNode() throws Exception {
    seed(ResourceType.NODES, node("n1"), labels(node("n2"), Map.of("disk", "ssd")), node("n3"));
    seed(ResourceType.PODS, spec(pod("db"), "nodeSelector", "{\"disk\":\"ssd\"}"));
    start();

    Await.until("a binding", BOUND, () -> bindings().size() == 1);
    assertThat(bindings()).containsExactly("db -> n2");
  }

  @Test
  void boundPods_useUpTheirNode_soTheNextPodGoesElsewhere() throws Exception {
    seed(ResourceType.NODES, node("n1", "2", "4Gi", 110), node("n2", "2", "4Gi", 110));
    ObjectNode running = pod("running", "1500m", null);
    spec(running, "nodeName", "\"n1\"");
    seed(ResourceType.PODS, running, pod("new", "1", null));
    start();

    Await.until("a binding", BOUND, () -> bindings().size() == 1);
    assertThat(bindings()).containsExactly("new -> n2");
  }

  @Test
  void podOfAnotherScheduler_isLeftAlone() throws Exception {
    seed(ResourceType.NODES, node("n1"));
    seed(ResourceType.PODS, spec(pod("other"), "schedulerName", "\"my-scheduler\""));
    seed(ResourceType.PODS, spec(pod("mine"), "schedulerName", "\"default-scheduler\""));
    start();

    // Pods are tried in arrival order: had "other" been taken, it would be bound first.
    Await.until("a binding", BOUND, () -> bindings().size() == 1);
    assertThat(bindings()).containsExactly("mine -> n1");
  }

  @Test
  void podThatFitsNowhere_getsPodScheduledFalse_andIsBoundOnceAFittingNodeIsAdded() throws Exception {
    seed(ResourceType.NODES, node("n1", "2", "4Gi", 110), labels(node("n2", "2", "4Gi", 110), Map.of("a", "b")),
        node("n3", "2", "4Gi", 110));
    seed(ResourceType.PODS, spec(pod("big", "3", null), "nodeSelector", "{\"size\":\"big\"}"));
    start();

    Await.until("a status update", BOUND, () -> statusUpdates().size() == 1);
    DynamicObject status = (DynamicObject) statusUpdates().get(0).object();
    String condition = status.get("status", "conditions").orElseThrow().get(0).toString();
    assertThat(condition).contains("\"type\":\"PodScheduled\"", "\"status\":\"False\"", "\"reason\":\"Unschedulable\"",
        "\"message\":\"0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.\"");
    Await.until("a warning", BOUND, () -> !events.lines.isEmpty());
    assertThat(events.lines).containsExactly("Warning FailedScheduling default/big: 0/3 nodes are available: "
        + "3 node(s) didn't match Pod's node affinity/selector.");
    assertThat(bindings()).isEmpty();

    // A labelled node that is too small does not help; a big one does.
    for (ObjectNode node : List.of(labels(node("small", "1", "4Gi", 110), Map.of("size", "big")),
        labels(node("large", "8", "16Gi", 110), Map.of("size", "big")))) {
      DynamicObject created = client.dynamic(ResourceType.NODES).create(DynamicObject.of(node));
      client.dynamic(ResourceType.NODES).update(DynamicObject.of(Fixtures.withoutNotReadyTaint(created.toTree())));
    }

    Await.until("a binding", BOUND, () -> bindings().size() == 1);
    assertThat(bindings()).containsExactly("big -> large");
    Await.until("the Scheduled event", BOUND, () -> events.lines.size() >= 2);
    assertThat(events.lines).last().isEqualTo("Normal Scheduled default/big: Successfully assigned default/big to large");
  }

  @Test
  void failedBinding_isRetriedAfterBackoff() throws Exception {
    seed(ResourceType.NODES, node("n1"));
    seed(ResourceType.PODS, pod("p"));
    java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
    client.prependReactor(Action.CREATE, ResourceType.PODS, action -> {
      if (action.subresource().equals("binding") && calls.getAndIncrement() == 0) {
        throw io.listwatch.api.StatusException.internal("etcd is sad");
      }
      return io.listwatch.client.testing.Reaction.passThrough();
    });
    start();

    // Actions are recorded before they are served: wait for the pod itself to be bound.
    Await.until("p bound", BOUND, () -> client.server().get(ResourceType.PODS, "default", "p").orElseThrow()
        .path("spec").path("nodeName").asText().equals("n1"));
    assertThat(bindings()).containsExactly("p -> n1", "p -> n1");
    assertThat(events.lines.get(0)).startsWith("Warning FailedScheduling default/p: Binding rejected: ");
  }

  private static ObjectNode zonedNode(String name, String zone) {
    return labels(node(name), Map.of(InterPodAffinityTest.HOST, name, InterPodAffinityTest.ZONE, zone));
  }

  private static ObjectNode replica(String name, String affinity) {
    return spec(ownedBy(labelled(name, "app", "web"), "rs-web"), "affinity", affinity);
  }

  private String podScheduledMessage(String pod) {
    return statusUpdates().stream().map(a -> (DynamicObject) a.object()).filter(o -> o.name().equals(pod))
        .map(o -> o.get("status", "conditions").orElseThrow().get(0).path("message").asText())
        .reduce((a, b) -> b).orElse("");
  }

  @Test
  void requiredAntiAffinity_spreadsThreeReplicasOnThreeNodes_andRefusesTheFourth() throws Exception {
    String antiAffinity = InterPodAffinityTest.required("podAntiAffinity",
        InterPodAffinityTest.term("web", InterPodAffinityTest.HOST));
    seed(ResourceType.NODES, zonedNode("n1", "a"), zonedNode("n2", "a"), zonedNode("n3", "b"));
    seed(ResourceType.PODS, replica("web-1", antiAffinity), replica("web-2", antiAffinity),
        replica("web-3", antiAffinity), replica("web-4", antiAffinity));
    start();

    Await.until("a status update for web-4", BOUND, () -> !podScheduledMessage("web-4").isEmpty());
    assertThat(podScheduledMessage("web-4"))
        .isEqualTo("0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.");
    // the three replicas were assumed onto their nodes before web-4 was tried; their bindings
    // run apart from the scheduling thread and may still be on their way
    Await.until("three bindings", BOUND, () -> bindings().size() == 3);
    assertThat(bindings()).extracting(b -> b.substring(b.indexOf("-> ") + 3)).containsExactlyInAnyOrder("n1", "n2", "n3");
    assertThat(bindings()).extracting(b -> b.substring(0, b.indexOf(" ->")))
        .containsExactlyInAnyOrder("web-1", "web-2", "web-3");
    // the event follows the status write
    String warning = "Warning FailedScheduling default/web-4: 0/3 nodes are available: "
        + "3 node(s) didn't match pod anti-affinity rules.";
    Await.until("the FailedScheduling event", BOUND, () -> events.lines.contains(warning));
  }

  @Test
  void podWithoutTerms_isKeptOffTheNodeOfAPodWhoseAntiAffinitySelectsIt() throws Exception {
    ObjectNode loner = labelled("loner", "app", "db");
    spec(loner, "nodeName", "\"n1\"");
    spec(loner, "affinity", InterPodAffinityTest.required("podAntiAffinity",
        InterPodAffinityTest.term("web", InterPodAffinityTest.ZONE)));
    seed(ResourceType.NODES, zonedNode("n1", "a"), zonedNode("n2", "a"), zonedNode("n3", "b"));
    seed(ResourceType.PODS, loner, labelled("web", "app", "web"));
    start();

    Await.until("a binding", BOUND, () -> bindings().size() == 1);
    assertThat(bindings()).containsExactly("web -> n3");
  }

  @Test
  void podWithRequiredAffinity_waitsForItsPeer_andJoinsItsNodeOnceThePeerIsBound() throws Exception {
    seed(ResourceType.NODES, zonedNode("n1", "a"), zonedNode("n2", "a"), zonedNode("n3", "b"));
    seed(ResourceType.PODS, spec(labelled("cache", "app", "cache"), "affinity", InterPodAffinityTest.required(
        "podAffinity", InterPodAffinityTest.term("db", InterPodAffinityTest.HOST))));
    start();

    Await.until("a status update for cache", BOUND, () -> !podScheduledMessage("cache").isEmpty());
    assertThat(podScheduledMessage("cache"))
        .isEqualTo("0/3 nodes are available: 3 node(s) didn't match pod affinity rules.");

    client.dynamic(ResourceType.PODS).create(DynamicObject.of(spec(labelled("db", "app", "db"), "nodeName", "\"n2\"")));

    Await.until("a binding", BOUND, () -> bindings().size() == 1);
    assertThat(bindings()).containsExactly("cache -> n2");
  }

  @Test
  void topologySpread_doNotSchedule_balancesZones() throws Exception {
    String constraint = "[" + PodTopologySpreadTest.dns(1, InterPodAffinityTest.ZONE) + "]";
    seed(ResourceType.NODES, zonedNode("n1", "a"), zonedNode("n2", "a"), zonedNode("n3", "b"), node("nozone"));
    for (int i = 1; i <= 4; i++) {
      seed(ResourceType.PODS, spec(labelled("web-" + i, "app", "web"), "topologySpreadConstraints", constraint));
    }
    start();

    Await.until("four bindings", BOUND, () -> bindings().size() == 4);
    Map<String, Long> perZone = bindings().stream().map(b -> b.substring(b.indexOf("-> ") + 3))
        .collect(java.util.stream.Collectors.groupingBy(n -> n.equals("n3") ? "b" : n.equals("nozone") ? "-" : "a",
            java.util.stream.Collectors.counting()));
    assertThat(perZone).containsOnly(Map.entry("a", 2L), Map.entry("b", 2L));
  }

  @Test
  void affinityWithNamespaceSelector_isRetriedWhenANamespaceGetsTheLabel() throws Exception {
    seed(ResourceType.NAMESPACES, Fixtures.tree("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\","
        + "\"metadata\":{\"name\":\"data\"}}"));
    seed(ResourceType.NODES, zonedNode("n1", "a"), zonedNode("n2", "a"), zonedNode("n3", "b"));
    ObjectNode db = Fixtures.namespace(spec(labelled("db", "app", "db"), "nodeName", "\"n3\""), "data");
    seed(ResourceType.PODS, db, spec(labelled("cache", "app", "cache"), "affinity", InterPodAffinityTest.required(
        "podAffinity", InterPodAffinityTest.term("db", InterPodAffinityTest.HOST,
            "\"namespaceSelector\":{\"matchLabels\":{\"tier\":\"data\"}}"))));
    start();

    Await.until("a status update for cache", BOUND, () -> !podScheduledMessage("cache").isEmpty());
    assertThat(podScheduledMessage("cache"))
        .isEqualTo("0/3 nodes are available: 3 node(s) didn't match pod affinity rules.");

    var namespaces = client.dynamic(ResourceType.NAMESPACES);
    ObjectNode ns = namespaces.get("", "data").orElseThrow().toTree();
    labels(ns, Map.of("tier", "data"));
    namespaces.update(DynamicObject.of(ns));

    Await.until("a binding", BOUND, () -> bindings().size() == 1);
    assertThat(bindings()).containsExactly("cache -> n3");
  }
}
