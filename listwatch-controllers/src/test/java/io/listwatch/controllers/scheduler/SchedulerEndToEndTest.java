package io.listwatch.controllers.scheduler;

import static io.listwatch.controllers.scheduler.Fixtures.labelled;
import static io.listwatch.controllers.scheduler.Fixtures.labels;
import static io.listwatch.controllers.scheduler.Fixtures.node;
import static io.listwatch.controllers.scheduler.Fixtures.ownedBy;
import static io.listwatch.controllers.scheduler.Fixtures.pod;
import static io.listwatch.controllers.scheduler.Fixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.ListOptions;
import io.listwatch.api.clock.Clock;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.SharedInformerFactory;
import io.listwatch.controllers.ControllerContext;
import io.listwatch.server.ApiServer;
import io.listwatch.client.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** The scheduler against the in-process API server: nodes created, pods bound through pods/binding. */
@ExtendWith(ApiServerExtension.class)
@Timeout(90)
class SchedulerEndToEndTest {

  /** How long the scheduler's threads may take for what a test waits for. */
  private static final Duration BOUND = Duration.ofSeconds(30);

  private KubeClient client;
  private ResourceClient<DynamicObject> pods;
  private ResourceClient<DynamicObject> nodes;
  private SharedInformerFactory factory;
  private Scheduler scheduler;
  private final RecordedEvents events = new RecordedEvents();
  private String namespace;

  @BeforeEach
  void start(ApiServer server, org.junit.jupiter.api.TestInfo test) {
    client = KubeClient.create(Config.forUrl(server.url()));
    pods = client.dynamic(ResourceType.PODS);
    nodes = client.dynamic(ResourceType.NODES);
    namespace = "s" + Integer.toHexString(test.getDisplayName().hashCode());
    client.dynamic(ResourceType.NAMESPACES).create(DynamicObject.parse(
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + namespace + "\"}}"));
    for (DynamicObject n : nodes.list("", ListOptions.builder().build()).items()) {
      nodes.delete("", n.name());
    }
  }

  /**
   * Starts the scheduler once the test's first nodes exist, so its first decisions see them
   * all (nodes and pods come on separate watches, in no fixed order between them).
   */
  private void startScheduler() {
    factory = SharedInformerFactory.builder(client).build();
    scheduler = new Scheduler(new ControllerContext(client, factory, events, Clock.system()));
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

  /**
   * Creates the node under a name unique to the test ({@code <namespace>-<name>}): pods of
   * earlier tests stay bound to their nodes' names, and must not count here.
   */
  private void createNode(ObjectNode node) {
    ObjectNode meta = (ObjectNode) node.get("metadata");
    meta.put("name", namespace + "-" + meta.get("name").asText());
    DynamicObject created = nodes.create(DynamicObject.of(node));
    nodes.update(DynamicObject.of(Fixtures.withoutNotReadyTaint(created.toTree()))); // Ready, as the node controller leaves it
  }

  private String n(String name) {
    return namespace + "-" + name;
  }

  private void createPod(ObjectNode pod) {
    ((ObjectNode) pod.get("metadata")).put("namespace", namespace);
    pods.create(DynamicObject.of(pod));
  }

  private Optional<String> nodeOf(String pod) {
    return pods.get(namespace, pod).flatMap(p -> p.get("spec", "nodeName")).map(JsonNode::asText)
        .filter(s -> !s.isEmpty());
  }

  @Test
  void threeNodes_podsAreBoundAndSpread() throws Exception {
    createNode(node("n1"));
    createNode(node("n2"));
    createNode(node("n3"));
    startScheduler();
    // an owner that exists (the server's garbage collector deletes pods whose owner does not);
    // no replicaset controller runs here, so its zero replicas change nothing
    DynamicObject rs = client.dynamic(ResourceType.REPLICASETS).create(DynamicObject.parse(("""
        {"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"rs","namespace":"%s"},
         "spec":{"replicas":0,"selector":{"matchLabels":{"app":"web"}},
                 "template":{"metadata":{"labels":{"app":"web"}},
                             "spec":{"containers":[{"name":"app","image":"nginx"}]}}}}""").formatted(namespace)));
    for (int i = 0; i < 6; i++) {
      createPod(ownedBy(pod("web-" + i, "100m", "64Mi"), rs.toTree().at("/metadata/uid").asText()));
    }

    Await.until("six pods bound", BOUND, () -> {
      for (int i = 0; i < 6; i++) {
        if (nodeOf("web-" + i).isEmpty()) {
          return false;
        }
      }
      return true;
    });
    Map<String, Integer> perNode = new HashMap<>();
    for (int i = 0; i < 6; i++) {
      perNode.merge(nodeOf("web-" + i).orElseThrow(), 1, Integer::sum);
    }
    assertThat(perNode).containsOnly(Map.entry(n("n1"), 2), Map.entry(n("n2"), 2), Map.entry(n("n3"), 2));
    DynamicObject bound = pods.get(namespace, "web-0").orElseThrow();
    assertThat(bound.get("status", "conditions").orElseThrow().toString())
        .contains("\"type\":\"PodScheduled\"", "\"status\":\"True\"");
    Await.until("six Scheduled events", BOUND,
        () -> events.lines.stream().filter(l -> l.startsWith("Normal Scheduled")).count() == 6);
  }

  @Test
  void podWithNodeSelector_landsOnTheMatchingNode() throws Exception {
    createNode(node("n1"));
    createNode(labels(node("n2"), Map.of("disk", "ssd")));
    createNode(node("n3"));
    startScheduler();
    createPod(spec(pod("db"), "nodeSelector", "{\"disk\":\"ssd\"}"));

    Await.until("db bound", BOUND, () -> nodeOf("db").isPresent());
    assertThat(nodeOf("db")).contains(n("n2"));
  }

  @Test
  void podThatFitsNowhere_getsPodScheduledFalse_thenIsBoundWhenAFittingNodeIsAdded() throws Exception {
    createNode(node("n1", "2", "4Gi", 110));
    createNode(node("n2", "2", "4Gi", 110));
    createNode(node("n3", "1", "4Gi", 110));
    startScheduler();
    createPod(pod("big", "3", "1Gi"));

    Await.until("PodScheduled=False", BOUND, () -> pods.get(namespace, "big")
        .flatMap(p -> p.get("status", "conditions")).map(JsonNode::toString).orElse("").contains("Unschedulable"));
    JsonNode condition = pods.get(namespace, "big").orElseThrow().get("status", "conditions").orElseThrow().get(0);
    assertThat(condition.path("type").asText()).isEqualTo("PodScheduled");
    assertThat(condition.path("status").asText()).isEqualTo("False");
    assertThat(condition.path("reason").asText()).isEqualTo("Unschedulable");
    assertThat(condition.path("message").asText()).isEqualTo("0/3 nodes are available: 3 Insufficient cpu.");
    // the event follows the status write
    Await.until("the FailedScheduling event", BOUND,
        () -> events.lines.stream().anyMatch(l -> l.startsWith("Warning")));
    assertThat(events.lines).contains("Warning FailedScheduling " + namespace + "/big: 0/3 nodes are available: "
        + "3 Insufficient cpu.");
    assertThat(nodeOf("big")).isEmpty();

    createNode(node("n4", "4", "8Gi", 110));

    Await.until("big bound", BOUND, () -> nodeOf("big").isPresent());
    assertThat(nodeOf("big")).contains(n("n4"));
    // the event follows the binding's answer, which the server may have sent after storing the binding
    Await.until("the Scheduled event", BOUND,
        () -> events.lines.stream().anyMatch(l -> l.startsWith("Normal Scheduled")));
    List<String> scheduled = events.lines.stream().filter(l -> l.startsWith("Normal Scheduled")).toList();
    assertThat(scheduled).containsExactly("Normal Scheduled " + namespace + "/big: Successfully assigned "
        + namespace + "/big to " + n("n4"));
  }

  @Test
  void requiredAntiAffinity_putsThreeReplicasOnThreeNodes_andLeavesTheFourthPending() throws Exception {
    for (String name : List.of("n1", "n2", "n3")) {
      createNode(labels(node(name), Map.of("kubernetes.io/hostname", n(name))));
    }
    startScheduler();
    String antiAffinity = InterPodAffinityTest.required("podAntiAffinity",
        InterPodAffinityTest.term("web", "kubernetes.io/hostname"));
    for (int i = 1; i <= 3; i++) {
      createPod(spec(labelled("web-" + i, "app", "web"), "affinity", antiAffinity));
    }
    Await.until("three pods bound", BOUND, () -> nodeOf("web-1").isPresent() && nodeOf("web-2").isPresent()
        && nodeOf("web-3").isPresent());
    assertThat(List.of(nodeOf("web-1").orElseThrow(), nodeOf("web-2").orElseThrow(), nodeOf("web-3").orElseThrow()))
        .containsExactlyInAnyOrder(n("n1"), n("n2"), n("n3"));

    createPod(spec(labelled("web-4", "app", "web"), "affinity", antiAffinity));

    Await.until("web-4 PodScheduled=False", BOUND, () -> pods.get(namespace, "web-4")
        .flatMap(p -> p.get("status", "conditions")).map(JsonNode::toString).orElse("").contains("Unschedulable"));
    JsonNode condition = pods.get(namespace, "web-4").orElseThrow().get("status", "conditions").orElseThrow().get(0);
    assertThat(condition.path("type").asText()).isEqualTo("PodScheduled");
    assertThat(condition.path("status").asText()).isEqualTo("False");
    assertThat(condition.path("message").asText())
        .isEqualTo("0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.");
    assertThat(nodeOf("web-4")).isEmpty();

    // One replica goes away (deleted now, as a node agent does once its containers stopped; a
    // pod still terminating on its node keeps counting, as in kube): its node is free for the fourth.
    String freed = nodeOf("web-2").orElseThrow();
    pods.delete(namespace, "web-2", new io.listwatch.client.DeleteOptions(0L, "", "", ""));
    Await.until("web-4 bound", BOUND, () -> nodeOf("web-4").isPresent());
    assertThat(nodeOf("web-4")).contains(freed);
  }
}
