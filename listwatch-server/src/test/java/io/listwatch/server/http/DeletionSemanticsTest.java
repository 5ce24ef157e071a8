package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.assertFailureStatus;
import static io.listwatch.server.http.KubeHttp.configMap;
import static io.listwatch.server.http.KubeHttp.deployment;
import static io.listwatch.server.http.KubeHttp.names;
import static io.listwatch.server.http.KubeHttp.object;
import static io.listwatch.server.http.KubeHttp.pod;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * kube's deletion lifecycle over HTTP, on a server with a fake clock: deletecollection,
 * propagation policies (the server's garbage collector), a pod's grace period, namespace
 * deletion (the server's namespace controller) and {@code dryRun=All} on DELETE.
 */
class DeletionSemanticsTest {

  private static final Duration BOUND = Duration.ofSeconds(20);
  private static final FakeClock CLOCK = new FakeClock(Instant.parse("2026-11-24T12:00:00Z"));
  private static ApiServer server;
  private static KubeHttp http;

  @BeforeAll
  static void start() {
    server = ApiServer.builder().clock(CLOCK).build().start();
    http = new KubeHttp(server);
  }

  @AfterAll
  static void stop() {
    http.close();
    server.close();
  }

  private static String cms(String ns) {
    return "/api/v1/namespaces/" + ns + "/configmaps";
  }

  private static String pods(String ns) {
    return "/api/v1/namespaces/" + ns + "/pods";
  }

  private static String deployments(String ns) {
    return "/apis/apps/v1/namespaces/" + ns + "/deployments";
  }

  private static String replicaSets(String ns) {
    return "/apis/apps/v1/namespaces/" + ns + "/replicasets";
  }

  private static boolean gone(String path) {
    return http.get(path).code() == 404;
  }

  /** A deployment "web" owning a replicaset "web-1" (blockOwnerDeletion) owning a pod "web-1-a". */
  private static void ownedChain(String ns) {
    JsonNode d = http.create(deployments(ns), deployment("web", 1));
    ObjectNode rs = object("""
        {"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"web-1","labels":{"app":"web"},
         "ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"web","uid":"%s",
                             "controller":true,"blockOwnerDeletion":true}]},
         "spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},
                 "template":{"metadata":{"labels":{"app":"web"}},
                             "spec":{"containers":[{"name":"c","image":"nginx"}]}}}}"""
        .formatted(d.at("/metadata/uid").asText()));
    JsonNode created = http.create(replicaSets(ns), rs);
    ObjectNode p = pod("web-1-a", Map.of("app", "web"), null);
    ((ObjectNode) p.get("metadata")).putArray("ownerReferences").addObject().put("apiVersion", "apps/v1")
        .put("kind", "ReplicaSet").put("name", "web-1").put("uid", created.at("/metadata/uid").asText())
        .put("controller", true).put("blockOwnerDeletion", true);
    http.create(pods(ns), p);
  }

  @Test
  void deleteCollection_deletesWhatTheSelectorMatches_andAnswersTheList() {
    String ns = http.createNamespace("dc");
    http.create(cms(ns), configMap("a", Map.of("tier", "x"), Map.of()));
    http.create(cms(ns), configMap("b", Map.of("tier", "x"), Map.of()));
    http.create(cms(ns), configMap("c", Map.of("tier", "y"), Map.of()));

    JsonNode deleted = http.delete(cms(ns) + "?labelSelector=tier%3Dx").expect(200);

    assertThat(deleted.path("kind").asText()).isEqualTo("ConfigMapList");
    assertThat(names(deleted)).containsExactlyInAnyOrder("a", "b");
    assertThat(names(http.list(cms(ns)))).containsExactly("c");
    assertFailureStatus(http.delete("/api/v1/namespaces?labelSelector=x"), 405, "MethodNotAllowed");
  }

  @Test
  void background_deletesTheOwnerAtOnce_thenTheGarbageCollectorItsDependents() {
    String ns = http.createNamespace("bg");
    ownedChain(ns);

    http.delete(deployments(ns) + "/web", object("{\"propagationPolicy\":\"Background\"}")).expect(200);

    assertThat(gone(deployments(ns) + "/web")).isTrue();
    Await.until("the replicaset and its pod are collected", BOUND,
        () -> gone(replicaSets(ns) + "/web-1") && gone(pods(ns) + "/web-1-a"));
  }

  @Test
  void foreground_keepsTheOwnerWithTheFinalizer_untilItsDependentsAreGone() {
    String ns = http.createNamespace("fg");
    ownedChain(ns);

    JsonNode marked = http.delete(deployments(ns) + "/web", object("{\"propagationPolicy\":\"Foreground\"}"))
        .expect(200);

    assertThat(marked.at("/metadata/deletionTimestamp").asText()).isNotEmpty();
    assertThat(marked.at("/metadata/finalizers").toString()).isEqualTo("[\"foregroundDeletion\"]");
    Await.until("the owner is gone", BOUND, () -> gone(deployments(ns) + "/web"));
    assertThat(gone(replicaSets(ns) + "/web-1")).as("dependents went first").isTrue();
    assertThat(gone(pods(ns) + "/web-1-a")).isTrue();
  }

  @Test
  void orphan_removesTheOwnerReferences_andLeavesTheDependents() {
    String ns = http.createNamespace("orphan");
    ownedChain(ns);

    http.delete(deployments(ns) + "/web", object("{\"propagationPolicy\":\"Orphan\"}")).expect(200);

    Await.until("the owner is gone", BOUND, () -> gone(deployments(ns) + "/web"));
    JsonNode rs = http.get(replicaSets(ns) + "/web-1").expect(200);
    assertThat(rs.at("/metadata/ownerReferences").isMissingNode()).as("%s", rs).isTrue();
    assertThat(http.get(pods(ns) + "/web-1-a").code()).isEqualTo(200);
  }

  /** A ConfigMap {@code name} whose ownerReferences name each of {@code owners} (apiVersion, kind, name, uid). */
  private static ObjectNode ownedConfigMap(String name, String[]... owners) {
    ObjectNode cm = configMap(name);
    var refs = ((ObjectNode) cm.get("metadata")).putArray("ownerReferences");
    for (String[] o : owners) {
      refs.addObject().put("apiVersion", o[0]).put("kind", o[1]).put("name", o[2]).put("uid", o[3]);
    }
    return cm;
  }

  private static String[] ownerRef(JsonNode owner) {
    return new String[] {owner.path("apiVersion").asText(), owner.path("kind").asText(),
        owner.at("/metadata/name").asText(), owner.at("/metadata/uid").asText()};
  }

  @Test
  void dependentCreatedAfterItsOwnerIsGone_isCollected_asIsOneNamingAUidThatNeverExisted() {
    String ns = http.createNamespace("late");
    JsonNode owner = http.create(deployments(ns), deployment("web", 1));
    http.delete(deployments(ns) + "/web").expect(200);
    assertThat(gone(deployments(ns) + "/web")).isTrue();
    JsonNode live = http.create(cms(ns), configMap("live"));
    http.create(cms(ns), ownedConfigMap("keeper", ownerRef(live)));

    // what a controller whose cache lagged does: a dependent of the owner just deleted
    http.create(cms(ns), ownedConfigMap("late", ownerRef(owner)));
    String[] wrongUid = ownerRef(live);
    wrongUid[3] = "00000000-0000-0000-0000-000000000001";
    http.create(cms(ns), ownedConfigMap("forged", wrongUid));

    Await.until("both dependents without an owner are collected", BOUND,
        () -> gone(cms(ns) + "/late") && gone(cms(ns) + "/forged"));
    assertThat(http.get(cms(ns) + "/keeper").code()).as("its owner exists").isEqualTo(200);
  }

  @Test
  void dependentCreatedWithOneGoneOwnerAndOneLive_losesOnlyTheReferenceToTheGoneOne() {
    String ns = http.createNamespace("halfgone");
    JsonNode goneOwner = http.create(cms(ns), configMap("gone-owner"));
    http.delete(cms(ns) + "/gone-owner").expect(200);
    JsonNode live = http.create(cms(ns), configMap("live"));

    http.create(cms(ns), ownedConfigMap("dep", ownerRef(goneOwner), ownerRef(live)));

    Await.until("the reference to the gone owner is removed", BOUND,
        () -> http.get(cms(ns) + "/dep").expect(200).at("/metadata/ownerReferences").size() == 1);
    assertThat(http.get(cms(ns) + "/dep").expect(200).at("/metadata/ownerReferences/0/uid").asText())
        .isEqualTo(live.at("/metadata/uid").asText());
  }

  @Test
  void dependentOfAKindNotServed_isLeftAsItIs() {
    String ns = http.createNamespace("unserved");
    http.create(cms(ns), ownedConfigMap("widget-dep",
        new String[] {"example.com/v1", "Widget", "w", "00000000-0000-0000-0000-000000000002"}));
    JsonNode goneOwner = http.create(cms(ns), configMap("gone-owner"));
    http.delete(cms(ns) + "/gone-owner").expect(200);

    // the collector works one key at a time, in order: once this later dependent is collected,
    // the first would have been too
    http.create(cms(ns), ownedConfigMap("later", ownerRef(goneOwner)));
    Await.until("the later dependent is collected", BOUND, () -> gone(cms(ns) + "/later"));
    assertThat(http.get(cms(ns) + "/widget-dep").code()).as("kind Widget cannot be looked up").isEqualTo(200);
  }

  @Test
  void unknownPropagationPolicy_isInvalid() {
    String ns = http.createNamespace("badpolicy");
    http.create(cms(ns), configMap("a"));

    assertFailureStatus(http.delete(cms(ns) + "/a", object("{\"propagationPolicy\":\"Sideways\"}")), 422, "Invalid");
    assertThat(http.get(cms(ns) + "/a").code()).isEqualTo(200);
  }

  @Test
  void podOnANode_staysForItsGracePeriod_andGoesWhenTheClockPassesIt() {
    String ns = http.createNamespace("grace");
    ObjectNode p = pod("p", Map.of(), "node-1");
    ((ObjectNode) p.get("spec")).put("terminationGracePeriodSeconds", 45);
    http.create(pods(ns), p);
    Instant now = CLOCK.now();

    JsonNode marked = http.delete(pods(ns) + "/p").expect(200);

    assertThat(marked.at("/metadata/deletionGracePeriodSeconds").asLong()).isEqualTo(45);
    assertThat(Instant.parse(marked.at("/metadata/deletionTimestamp").asText()))
        .isEqualTo(now.plusSeconds(45).truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    assertThat(http.get(pods(ns) + "/p").code()).isEqualTo(200);
    JsonNode again = http.delete(pods(ns) + "/p", object("{\"gracePeriodSeconds\":60}")).expect(200);
    assertThat(again.at("/metadata/deletionGracePeriodSeconds").asLong()).as("never lengthened").isEqualTo(45);

    CLOCK.advance(Duration.ofSeconds(45));

    Await.until("the pod is removed after its grace period", BOUND, () -> gone(pods(ns) + "/p"));
  }

  @Test
  void podOnANode_deletedAgainWithGraceZero_goesAtOnce() {
    String ns = http.createNamespace("grace0");
    http.create(pods(ns), pod("p", Map.of(), "node-1"));
    http.delete(pods(ns) + "/p").expect(200);

    http.delete(pods(ns) + "/p", object("{\"gracePeriodSeconds\":0}")).expect(200);

    assertThat(gone(pods(ns) + "/p")).isTrue();
  }

  @Test
  void dryRunDelete_answersAsIfDeleted_andKeepsTheObject() {
    String ns = http.createNamespace("drydel");
    http.create(cms(ns), configMap("a"));

    JsonNode r = http.delete(cms(ns) + "/a?dryRun=All").expect(200);

    assertThat(r.path("status").asText()).isEqualTo("Success");
    assertThat(http.get(cms(ns) + "/a").code()).isEqualTo(200);
  }

  @Test
  void namespaceDeletion_terminates_refusesNewContent_emptiesIt_thenRemovesIt() {
    String ns = http.createNamespace("nsdel");
    http.create(cms(ns), configMap("a"));
    http.create(pods(ns), pod("p", Map.of(), null));

    JsonNode marked = http.delete("/api/v1/namespaces/" + ns).expect(200);

    assertThat(marked.at("/status/phase").asText()).isEqualTo("Terminating");
    assertThat(marked.at("/metadata/deletionTimestamp").asText()).isNotEmpty();
    assertThat(marked.at("/spec/finalizers").toString()).isEqualTo("[\"kubernetes\"]");
    KubeHttp.Response refused = http.post(cms(ns), configMap("b"));
    if (refused.code() != 404) { // the controller may already have removed the namespace
      JsonNode status = assertFailureStatus(refused, 403, "Forbidden");
      assertThat(status.path("message").asText()).isEqualTo("configmaps \"b\" is forbidden: unable to create new "
          + "content in namespace " + ns + " because it is being terminated");
      assertThat(status.at("/details/causes/0/reason").asText()).isEqualTo("NamespaceTerminating");
    }
    Await.until("the namespace is gone", BOUND, () -> gone("/api/v1/namespaces/" + ns));
    assertThat(names(http.list(cms(ns)))).isEmpty();
    assertThat(names(http.list(pods(ns)))).isEmpty();
  }

  @Test
  void namespaceWithAPodInItsGracePeriod_reportsRemainingContent_untilTheGraceEnds() {
    String ns = http.createNamespace("nsgrace");
    http.create(pods(ns), pod("p", Map.of(), "node-1"));

    http.delete("/api/v1/namespaces/" + ns).expect(200);

    Await.until("the namespace reports the pod", BOUND, () -> http.get("/api/v1/namespaces/" + ns).json()
        .at("/status/conditions").toString().contains("Some resources are remaining: pods. has 1 resource instances"));
    JsonNode conditions = http.get("/api/v1/namespaces/" + ns).expect(200).at("/status/conditions");
    assertThat(conditions.findValuesAsText("type")).containsExactly("NamespaceDeletionDiscoveryFailure",
        "NamespaceDeletionGroupVersionParsingFailure", "NamespaceDeletionContentFailure", "NamespaceContentRemaining",
        "NamespaceFinalizersRemaining");
    CLOCK.advance(Duration.ofSeconds(30));
    Await.until("the namespace is gone", BOUND, () -> gone("/api/v1/namespaces/" + ns));
  }
}
