package io.listwatch.controllers.replicaset;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.FieldSelector;
import io.listwatch.api.ListOptions;
import io.listwatch.api.clock.Clock;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.OwnerReference;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.SharedInformerFactory;
import io.listwatch.controllers.ControllerContext;
import io.listwatch.controllers.ControllerRefManager;
import io.listwatch.controllers.events.ClientEventRecorder;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The controller and the event recorder against the in-process API server. */
class ReplicaSetControllerEndToEndTest {

  private static final Duration BOUND = Duration.ofSeconds(30);
  private static final String NS = "e2e";

  private static ApiServer server;
  private static KubeClient client;
  private static SharedInformerFactory factory;
  private static ClientEventRecorder recorder;
  private static ReplicaSetController controller;
  private static ResourceClient<DynamicObject> replicaSets;
  private static ResourceClient<DynamicObject> pods;

  @BeforeAll
  static void setUp() {
    server = ApiServer.builder().build().start();
    client = KubeClient.create(Config.forUrl(server.url()));
    client.dynamic(ResourceType.NAMESPACES).create(DynamicObject.parse(
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + NS + "\"}}"));
    factory = SharedInformerFactory.builder(client).build();
    recorder = new ClientEventRecorder(client, ReplicaSetController.COMPONENT, Clock.system());
    controller = new ReplicaSetController(new ControllerContext(client, factory, recorder, Clock.system()));
    factory.start();
    controller.run(2);
    replicaSets = client.dynamic(ResourceType.REPLICASETS);
    pods = client.dynamic(ResourceType.PODS);
  }

  @AfterAll
  static void tearDown() {
    for (AutoCloseable c : new AutoCloseable[] {controller, recorder, factory, client, server}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private static DynamicObject createReplicaSet(String name, int replicas) {
    return replicaSets.create(DynamicObject.parse("""
        {"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"%s","namespace":"%s"},
         "spec":{"replicas":%d,"selector":{"matchLabels":{"app":"%s"}},
          "template":{"metadata":{"labels":{"app":"%s"}},
           "spec":{"containers":[{"name":"web","image":"nginx"}]}}}}
        """.formatted(name, NS, replicas, name, name)));
  }

  /** The active pods controlled by {@code rs}, from the server. */
  private static List<DynamicObject> podsOf(DynamicObject rs) {
    return pods.list(NS, ListOptions.builder().build()).items().stream()
        .filter(p -> ControllerRefManager.controllerOf(p).map(OwnerReference::uid).filter(rs.uid()::equals).isPresent())
        .filter(p -> !ControllerRefManager.isBeingDeleted(p))
        .toList();
  }

  private static <T> T awaitValue(String what, Supplier<T> read, Predicate<T> done) {
    return Await.until(what, BOUND, read::get, done);
  }

  private static int statusField(String rs, String field) {
    return replicaSets.get(NS, rs).flatMap(o -> o.get("status", field)).map(JsonNode::asInt).orElse(0);
  }

  private static void scale(String rs, int replicas) {
    replicaSets.mergePatch(NS, rs, "{\"spec\":{\"replicas\":" + replicas + "}}");
  }

  @Test
  void replicaSet_getsItsPods_scalesUpAndDown_andReplacesADeletedPod() throws Exception {
    DynamicObject web = createReplicaSet("web", 3);

    List<DynamicObject> three = awaitValue("3 pods", () -> podsOf(web), l -> l.size() == 3);
    for (DynamicObject pod : three) {
      OwnerReference ref = ControllerRefManager.controllerOf(pod).orElseThrow();
      assertThat(ref).isEqualTo(new OwnerReference("apps/v1", "ReplicaSet", "web", web.uid(), true, true));
      assertThat(pod.name()).startsWith("web-");
      assertThat(pod.labels()).containsEntry("app", "web");
    }
    awaitValue("status.replicas 3", () -> statusField("web", "replicas"), n -> n == 3);

    scale("web", 5);
    awaitValue("5 pods", () -> podsOf(web), l -> l.size() == 5);
    awaitValue("status.replicas 5", () -> statusField("web", "replicas"), n -> n == 5);

    scale("web", 1);
    List<DynamicObject> one = awaitValue("1 pod", () -> podsOf(web), l -> l.size() == 1);
    awaitValue("status.replicas 1", () -> statusField("web", "replicas"), n -> n == 1);

    String victim = one.getFirst().name();
    pods.delete(NS, victim);
    List<DynamicObject> replaced = awaitValue("a replacement", () -> podsOf(web),
        l -> l.size() == 1 && !l.getFirst().name().equals(victim));
    assertThat(replaced.getFirst().name()).startsWith("web-");
    assertThat(statusField("web", "observedGeneration")).isEqualTo(3); // two scales after the create
  }

  @Test
  void orphanIsAdopted_andAPodRelabeledAwayIsReleasedAndReplaced() throws Exception {
    DynamicObject orphan = pods.create(DynamicObject.parse("""
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"stray","namespace":"%s","labels":{"app":"adopter"}},
         "spec":{"containers":[{"name":"web","image":"nginx"}]}}
        """.formatted(NS)));
    // as in kube, a ReplicaSet synced before its informer saw the orphan would create a pod instead
    awaitValue("the orphan in the controller's cache", () -> factory.informerFor(ResourceType.PODS,
        DynamicObject.CODEC).getStore().getByKey(NS + "/stray").isPresent(), seen -> seen);
    DynamicObject adopter = createReplicaSet("adopter", 1);

    List<DynamicObject> owned = awaitValue("the orphan adopted", () -> podsOf(adopter),
        l -> l.size() == 1 && l.getFirst().name().equals("stray"));
    assertThat(owned.getFirst().uid()).isEqualTo(orphan.uid());
    awaitValue("status.replicas 1", () -> statusField("adopter", "replicas"), n -> n == 1);
    assertThat(podsOf(adopter)).extracting(DynamicObject::name).containsExactly("stray"); // nothing created

    pods.mergePatch(NS, "stray", "{\"metadata\":{\"labels\":{\"app\":\"debugging\"}}}");

    awaitValue("a replacement", () -> podsOf(adopter), l -> l.size() == 1 && !l.getFirst().name().equals("stray"));
    DynamicObject released = awaitValue("the ownerReference removed", () -> pods.get(NS, "stray").orElseThrow(),
        p -> ControllerRefManager.controllerOf(p).isEmpty());
    assertThat(released.get("metadata", "ownerReferences").map(JsonNode::size).orElse(0)).isZero();
  }

  @Test
  void podsMarkedReady_throughStatus_makeReadyReplicasFollow() throws Exception {
    DynamicObject api = createReplicaSet("api", 2);
    List<DynamicObject> two = awaitValue("2 pods", () -> podsOf(api), l -> l.size() == 2);
    awaitValue("status.replicas 2", () -> statusField("api", "replicas"), n -> n == 2);
    assertThat(statusField("api", "readyReplicas")).isZero();

    markReady(two.get(0));
    awaitValue("readyReplicas 1", () -> statusField("api", "readyReplicas"), n -> n == 1);
    assertThat(statusField("api", "availableReplicas")).isEqualTo(1);

    markReady(two.get(1));
    awaitValue("readyReplicas 2", () -> statusField("api", "readyReplicas"), n -> n == 2);
    awaitValue("availableReplicas 2", () -> statusField("api", "availableReplicas"), n -> n == 2);
  }

  private static void markReady(DynamicObject pod) {
    ObjectNode tree = pods.get(NS, pod.name()).orElseThrow().toTree();
    ObjectNode status = tree.putObject("status");
    status.put("phase", "Running");
    status.putArray("conditions").addObject().put("type", "Ready").put("status", "True")
        .put("lastTransitionTime", Instant.now().minusSeconds(1).toString().replaceAll("\\.\\d+Z$", "Z"));
    pods.updateStatus(DynamicObject.of(tree));
  }

  @Test
  void eventsOfTheReplicaSet_tellTheStory_asKubectlDescribeReadsThem() throws Exception {
    DynamicObject cache = createReplicaSet("cache", 2);
    awaitValue("2 pods", () -> podsOf(cache), l -> l.size() == 2);
    scale("cache", 0);
    awaitValue("no pods", () -> podsOf(cache), List::isEmpty);

    // kubectl describe lists the events of an object with this field selector
    ListOptions byObject = ListOptions.builder().fieldSelector(FieldSelector.parse("involvedObject.name=cache,"
        + "involvedObject.namespace=" + NS + ",involvedObject.kind=ReplicaSet,involvedObject.uid=" + cache.uid()))
        .build();
    List<DynamicObject> events = awaitValue("4 events", () -> client.dynamic(ResourceType.EVENTS)
        .list(NS, byObject).items(), l -> l.size() == 4);

    Set<String> reasons = events.stream().map(e -> e.get("reason").orElseThrow().asText()).collect(Collectors.toSet());
    assertThat(reasons).containsExactlyInAnyOrder("SuccessfulCreate", "SuccessfulDelete");
    for (DynamicObject e : events) {
      assertThat(e.name()).startsWith("cache.");
      assertThat(e.get("source", "component").orElseThrow().asText()).isEqualTo("replicaset-controller");
      assertThat(e.get("involvedObject", "kind").orElseThrow().asText()).isEqualTo("ReplicaSet");
      assertThat(e.get("message").orElseThrow().asText()).matches("(Created|Deleted) pod: cache-.+");
      assertThat(e.get("count").orElseThrow().asInt()).isEqualTo(1);
    }
  }

  @Test
  void repeatedEvent_isOneEventWithACount_onTheServer() throws Exception {
    DynamicObject db = createReplicaSet("db", 0);
    for (int i = 0; i < 3; i++) {
      recorder.event(db, "Warning", "FailedCreate", "Error creating: pods \"db-x\" is forbidden: exceeded quota");
    }
    ListOptions byObject = ListOptions.builder().fieldSelector(FieldSelector.parse(
        "involvedObject.name=db,involvedObject.namespace=" + NS + ",reason=FailedCreate")).build();

    DynamicObject event = awaitValue("an event with count 3", () -> client.dynamic(ResourceType.EVENTS)
        .list(NS, byObject).items(), l -> l.size() == 1 && l.getFirst().get("count").orElseThrow().asInt() == 3)
        .getFirst();

    assertThat(event.get("type").orElseThrow().asText()).isEqualTo("Warning");
    assertThat(Instant.parse(event.get("lastTimestamp").orElseThrow().asText()))
        .isAfterOrEqualTo(Instant.parse(event.get("firstTimestamp").orElseThrow().asText()));
  }
}
