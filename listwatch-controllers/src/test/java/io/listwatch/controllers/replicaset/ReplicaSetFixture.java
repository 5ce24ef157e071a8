package io.listwatch.controllers.replicaset;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.SharedInformerFactory;
import io.listwatch.client.testing.Action;
import io.listwatch.client.testing.FakeClient;
import io.listwatch.controllers.ControllerContext;
import io.listwatch.controllers.events.EventRecorder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube's controller test fixture: objects seeded in a FakeClient, the controller over informers
 * of that client, one sync run by hand, and the recorded actions (without the informers' lists
 * and watches) and events to compare with the expected ones.
 */
final class ReplicaSetFixture implements AutoCloseable {

  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String NS = "shop";
  static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  final FakeClock clock = new FakeClock(NOW);
  final FakeClient client = FakeClient.create();
  final List<String> events = new ArrayList<>();
  private final EventRecorder recorder = (involved, type, reason, message) -> {
    synchronized (events) {
      events.add(type + " " + reason + " " + involved.name() + ": " + message);
    }
  };
  SharedInformerFactory factory;
  ReplicaSetController controller;

  /** Builds the controller and syncs its informers over what was seeded; clears the actions. */
  ReplicaSetFixture start() throws InterruptedException {
    factory = SharedInformerFactory.builder(client).build();
    controller = new ReplicaSetController(new ControllerContext(client, factory, recorder, clock));
    factory.start();
    if (!factory.waitForCacheSync(Duration.ofSeconds(10))) {
      throw new AssertionError("informers did not sync");
    }
    client.clearActions();
    return this;
  }

  /** Runs one sync of {@code name}. */
  void sync(String name) {
    controller.sync(NS + "/" + name);
  }

  /** The actions since start, without list and watch, as one-line strings. */
  List<String> writes() {
    return writeActions().stream().map(Action::toString).toList();
  }

  List<Action> writeActions() {
    return client.actions().stream()
        .filter(a -> !a.verb().equals(Action.LIST) && !a.verb().equals(Action.WATCH)).toList();
  }

  List<String> events() {
    synchronized (events) {
      return List.copyOf(events);
    }
  }

  /** Seeds a ReplicaSet selecting {@code app=<name>}, template labels app and tier. */
  DynamicObject replicaSet(String name, int replicas, long minReadySeconds) {
    ObjectNode rs = MAPPER.createObjectNode();
    rs.put("apiVersion", "apps/v1");
    rs.put("kind", "ReplicaSet");
    ObjectNode meta = rs.putObject("metadata");
    meta.put("name", name);
    meta.put("namespace", NS);
    meta.put("uid", uid(name));
    meta.put("generation", 1);
    ObjectNode spec = rs.putObject("spec");
    spec.put("replicas", replicas);
    spec.put("minReadySeconds", minReadySeconds);
    spec.putObject("selector").putObject("matchLabels").put("app", name);
    ObjectNode template = spec.putObject("template");
    template.putObject("metadata").putObject("labels").put("app", name).put("tier", "front");
    template.putObject("spec").putArray("containers").addObject().put("name", "c").put("image", "nginx");
    return DynamicObject.of(client.server().add(ResourceType.REPLICASETS, rs));
  }

  static String uid(String name) {
    return "uid-" + name;
  }

  /** A pod in {@link #NS}; build it, then {@link PodBuilder#seed()}. */
  PodBuilder pod(String name) {
    return new PodBuilder(name);
  }

  final class PodBuilder {
    private final ObjectNode pod = MAPPER.createObjectNode();

    PodBuilder(String name) {
      pod.put("apiVersion", "v1");
      pod.put("kind", "Pod");
      ObjectNode meta = pod.putObject("metadata");
      meta.put("name", name);
      meta.put("namespace", NS);
      meta.put("uid", "uid-pod-" + name);
      meta.put("creationTimestamp", NOW.minusSeconds(3600).toString());
      pod.putObject("spec").putArray("containers").addObject().put("name", "c").put("image", "nginx");
      pod.putObject("status").put("phase", "Pending");
    }

    PodBuilder labels(Map<String, String> labels) {
      ObjectNode l = ((ObjectNode) pod.path("metadata")).putObject("labels");
      labels.forEach(l::put);
      return this;
    }

    /** Controlled by the ReplicaSet named {@code rs} (uid {@code uid-<rs>}). */
    PodBuilder ownedBy(String rs) {
      ArrayNode refs = ((ObjectNode) pod.path("metadata")).putArray("ownerReferences");
      refs.addObject().put("apiVersion", "apps/v1").put("kind", "ReplicaSet").put("name", rs)
          .put("uid", uid(rs)).put("controller", true).put("blockOwnerDeletion", true);
      return this;
    }

    PodBuilder node(String node) {
      ((ObjectNode) pod.path("spec")).put("nodeName", node);
      return this;
    }

    PodBuilder phase(String phase) {
      ((ObjectNode) pod.path("status")).put("phase", phase);
      return this;
    }

    /** Running and Ready since {@code since}. */
    PodBuilder readySince(Instant since) {
      ObjectNode status = (ObjectNode) pod.path("status");
      status.put("phase", "Running");
      status.putArray("conditions").addObject().put("type", "Ready").put("status", "True")
          .put("lastTransitionTime", since.toString());
      return this;
    }

    PodBuilder created(Instant at) {
      ((ObjectNode) pod.path("metadata")).put("creationTimestamp", at.toString());
      return this;
    }

    PodBuilder restarts(int n) {
      ((ObjectNode) pod.path("status")).putArray("containerStatuses").addObject().put("name", "c")
          .put("restartCount", n);
      return this;
    }

    PodBuilder deletionCost(int cost) {
      ((ObjectNode) pod.path("metadata")).putObject("annotations").put(Pods.DELETION_COST, Integer.toString(cost));
      return this;
    }

    DynamicObject build() {
      return DynamicObject.of(pod);
    }

    DynamicObject seed() {
      return DynamicObject.of(client.server().add(ResourceType.PODS, pod));
    }
  }

  @Override
  public void close() {
    if (controller != null) {
      controller.close();
    }
    if (factory != null) {
      factory.close();
    }
    client.close();
  }
}
