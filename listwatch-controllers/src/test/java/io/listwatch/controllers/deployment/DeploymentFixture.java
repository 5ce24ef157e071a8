package io.listwatch.controllers.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.SharedInformerFactory;
import io.listwatch.client.testing.Action;
import io.listwatch.client.testing.FakeClient;
import io.listwatch.controllers.ControllerContext;
import io.listwatch.controllers.events.EventRecorder;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * kube's deployment controller test fixture: objects seeded in a FakeClient and its informers'
 * caches, one {@code syncDeployment}, and the recorded write actions (reads, lists and
 * watches left out) and events to compare with the expected ones.
 */
final class DeploymentFixture implements AutoCloseable {

  static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
  static final ObjectMapper MAPPER = new ObjectMapper();

  final FakeClient client = FakeClient.create();
  final FakeClock clock = new FakeClock(NOW);
  final List<String> events = new CopyOnWriteArrayList<>();
  private SharedInformerFactory factory;
  private DeploymentController controller;

  DeploymentFixture objects(ResourceType type, ObjectNode... objects) {
    for (ObjectNode o : objects) {
      client.server().add(type, o);
    }
    return this;
  }

  /** Starts the informers over the seeded objects and runs one sync of {@code namespace/name}. */
  void sync(String key) throws InterruptedException {
    start();
    client.clearActions();
    controller.syncDeployment(key);
  }

  /** Starts the controller and its informers over the seeded objects, once. */
  DeploymentFixture start() throws InterruptedException {
    if (controller == null) {
      factory = SharedInformerFactory.builder(client).build();
      EventRecorder recorder = (involved, type, reason, message) ->
          events.add(type + " " + reason + " " + message);
      controller = new DeploymentController(new ControllerContext(client, factory, recorder, clock));
      factory.start();
      assertThat(factory.waitForCacheSync(Duration.ofSeconds(30))).isTrue();
    }
    return this;
  }

  /**
   * Replaces {@code default/<name>} in the started informers' cache only: an object the server
   * now refuses (kube's validation too) but may hold from before that validation, which kube's
   * controller still copes with.
   */
  void replaceCached(ResourceType type, ObjectNode object) {
    factory.informerFor(type, DynamicObject.CODEC).getIndexer().update(DynamicObject.of(object));
  }

  /** The writes of the sync, as {@code verb resource[/status] namespace/name}. */
  List<String> writes() {
    return writeActions().stream().map(Action::toString).toList();
  }

  List<Action> writeActions() {
    return client.actions().stream()
        .filter(a -> !a.verb().equals(Action.LIST) && !a.verb().equals(Action.WATCH) && !a.verb().equals(Action.GET))
        .toList();
  }

  /** The object sent by the {@code index}-th write. */
  ObjectNode sent(int index) {
    return writeActions().get(index).object(DynamicObject.class).toTree();
  }

  /** Waits (at most 30 s) until the informers' cache holds {@code default/name} matching {@code condition}. */
  void awaitCached(ResourceType type, String name, java.util.function.Predicate<ObjectNode> condition) {
    var indexer = factory.informerFor(type, DynamicObject.CODEC).getIndexer();
    Await.until(type + " default/" + name + " reaches the condition in the cache", Duration.ofSeconds(30),
        () -> indexer.getByKey("default/" + name),
        cached -> cached.isPresent() && condition.test(cached.get().toTree()));
  }

  DeploymentController controller() {
    return controller;
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

  // ---- fixture objects -----------------------------------------------------------------

  static final String D_UID = "0a0a0a0a-0000-4000-8000-000000000001";

  /** A deployment {@code web} of {@code replicas} running {@code image}, RollingUpdate with the given bounds. */
  static ObjectNode deployment(int replicas, String image, Object maxSurge, Object maxUnavailable) {
    ObjectNode d = parse("""
        {"apiVersion":"apps/v1","kind":"Deployment",
         "metadata":{"name":"web","namespace":"default","uid":"%s","generation":1,
                     "creationTimestamp":"2026-11-24T10:00:00Z"},
         "spec":{"replicas":%d,"selector":{"matchLabels":{"app":"web"}},
                 "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":%s,"maxUnavailable":%s}},
                 "revisionHistoryLimit":10,"progressDeadlineSeconds":600,
                 "template":%s}}
        """.formatted(D_UID, replicas, json(maxSurge), json(maxUnavailable), template(image)));
    return d;
  }

  /**
   * The deployment as a previous sync left it at {@code revision}: the revision annotation and
   * a Progressing condition updated now.
   */
  static ObjectNode synced(ObjectNode d, int revision) {
    ((ObjectNode) d.path("metadata")).putObject("annotations").put("deployment.kubernetes.io/revision",
        Integer.toString(revision));
    ObjectNode status = d.path("status") instanceof ObjectNode s ? s : d.putObject("status");
    if (!status.has("conditions")) {
      String now = Trees.time(NOW);
      status.putArray("conditions").addObject().put("type", "Progressing").put("status", "True")
          .put("reason", "ReplicaSetUpdated").put("message", "ReplicaSet is progressing.")
          .put("lastUpdateTime", now).put("lastTransitionTime", now);
    }
    return d;
  }

  static ObjectNode recreateDeployment(int replicas, String image) {
    ObjectNode d = deployment(replicas, image, 0, 0);
    ((ObjectNode) d.path("spec")).putObject("strategy").put("type", "Recreate");
    return d;
  }

  /**
   * The pod template for {@code image} as the server stores it, with kube's defaults filled in:
   * the controller hashes the stored template, so a fixture's names follow from this form.
   */
  static String template(String image) {
    return """
        {"metadata":{"labels":{"app":"web"}},
         "spec":{"containers":[{"name":"web","image":"%s","terminationMessagePath":"/dev/termination-log",
           "terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent","resources":{}}],
          "restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst",
          "securityContext":{},"schedulerName":"default-scheduler"}}""".formatted(image);
  }

  /**
   * A ReplicaSet of the deployment for {@code image}, named as the controller names it, with
   * {@code replicas} wanted and {@code available} pods (all of them ready and counted in
   * status.replicas), at {@code revision}, created {@code minutesAgo}.
   */
  static ObjectNode replicaSet(String image, int replicas, int available, int revision, int minutesAgo) {
    ObjectNode template = parse(template(image));
    String hash = PodTemplateHash.compute(template, null);
    ((ObjectNode) template.path("metadata").path("labels")).put(PodTemplateHash.LABEL, hash);
    ObjectNode rs = parse("""
        {"apiVersion":"apps/v1","kind":"ReplicaSet",
         "metadata":{"name":"web-%s","namespace":"default","generation":1,
                     "uid":"0b0b0b0b-0000-4000-8000-%012d",
                     "creationTimestamp":"%s",
                     "labels":{"app":"web","pod-template-hash":"%s"},
                     "annotations":{"deployment.kubernetes.io/revision":"%d"},
                     "ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"web","uid":"%s",
                                         "controller":true,"blockOwnerDeletion":true}]},
         "spec":{"replicas":%d,"selector":{"matchLabels":{"app":"web","pod-template-hash":"%s"}}},
         "status":{"replicas":%d,"readyReplicas":%d,"availableReplicas":%d,"observedGeneration":1}}
        """.formatted(hash, revision, Trees.time(NOW.minusSeconds(60L * minutesAgo)), hash, revision, D_UID,
        replicas, hash, available, available, available));
    ((ObjectNode) rs.path("spec")).set("template", template);
    return rs;
  }

  static String rsName(String image) {
    return "web-" + PodTemplateHash.compute(parse(template(image)), null);
  }

  static ObjectNode parse(String json) {
    try {
      return (ObjectNode) MAPPER.readTree(json);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static String json(Object v) {
    return v instanceof String s ? "\"" + s + "\"" : String.valueOf(v);
  }
}
