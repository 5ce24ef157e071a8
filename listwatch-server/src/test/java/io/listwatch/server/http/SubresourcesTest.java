package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.assertFailureStatus;
import static io.listwatch.server.http.KubeHttp.deployment;
import static io.listwatch.server.http.KubeHttp.object;
import static io.listwatch.server.http.KubeHttp.pod;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The subresources kube's strategies define, over HTTP: {@code status} (what each side may
 * change), {@code scale} (autoscaling/v1 Scale), a pod's {@code binding} and {@code eviction}
 * (with PodDisruptionBudgets), and {@code dryRun=All} on them.
 */
@ExtendWith(ApiServerExtension.class)
class SubresourcesTest {

  private static KubeHttp http;

  @BeforeAll
  static void connect(ApiServer server) {
    http = new KubeHttp(server);
  }

  @AfterAll
  static void disconnect() {
    http.close();
  }

  private static String deployments(String ns) {
    return "/apis/apps/v1/namespaces/" + ns + "/deployments";
  }

  private static String pods(String ns) {
    return "/api/v1/namespaces/" + ns + "/pods";
  }

  // ---- status ----------------------------------------------------------------------------

  @Test
  void status_keepsTheSpec_takesAnnotations_andResetsAWorkloadsLabels() {
    String ns = http.createNamespace("status");
    http.create(deployments(ns), deployment("web", 2));
    ObjectNode patch = object("""
        {"metadata":{"labels":{"x":"y"},"annotations":{"note":"kept"}},
         "spec":{"replicas":9},"status":{"replicas":2}}""");

    JsonNode updated = http.mergePatch(deployments(ns) + "/web/status", patch).expect(200);

    assertThat(updated.at("/spec/replicas").asInt()).as("spec ignored on /status").isEqualTo(2);
    assertThat(updated.at("/status/replicas").asInt()).isEqualTo(2);
    assertThat(updated.at("/metadata/annotations/note").asText()).isEqualTo("kept");
    assertThat(updated.at("/metadata/labels").has("x")).as("apps status strategy resets labels").isFalse();
    JsonNode main = http.mergePatch(deployments(ns) + "/web", object("{\"status\":{\"replicas\":7}}")).expect(200);
    assertThat(main.at("/status/replicas").asInt()).as("status ignored on the main resource").isEqualTo(2);
  }

  @Test
  void create_dropsTheStatus_ofTypesWhoseStrategyClearsIt() {
    String ns = http.createNamespace("clear");
    ObjectNode job = object("""
        {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},
         "spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}},
         "status":{"succeeded":3}}""");

    JsonNode created = http.create("/apis/batch/v1/namespaces/" + ns + "/jobs", job);

    assertThat(created.has("status")).isFalse();
    assertThat(created.at("/metadata/generation").asInt()).isEqualTo(1);
  }

  // ---- scale -----------------------------------------------------------------------------

  @Test
  void scale_getsAnAutoscalingScale_andPatchSetsOnlyReplicas() {
    String ns = http.createNamespace("scale");
    http.create(deployments(ns), deployment("web", 2));
    http.mergePatch(deployments(ns) + "/web/status", object("{\"status\":{\"replicas\":2}}")).expect(200);

    JsonNode scale = http.get(deployments(ns) + "/web/scale").expect(200);
    assertThat(scale.path("kind").asText()).isEqualTo("Scale");
    assertThat(scale.path("apiVersion").asText()).isEqualTo("autoscaling/v1");
    assertThat(scale.at("/metadata/name").asText()).isEqualTo("web");
    assertThat(scale.at("/spec/replicas").asInt()).isEqualTo(2);
    assertThat(scale.at("/status/replicas").asInt()).isEqualTo(2);
    assertThat(scale.at("/status/selector").asText()).isEqualTo("app=web");

    JsonNode scaled = http.mergePatch(deployments(ns) + "/web/scale", object("{\"spec\":{\"replicas\":5}}"))
        .expect(200);
    assertThat(scaled.at("/spec/replicas").asInt()).isEqualTo(5);
    JsonNode d = http.get(deployments(ns) + "/web").expect(200);
    assertThat(d.at("/spec/replicas").asInt()).isEqualTo(5);
    assertThat(d.at("/metadata/generation").asInt()).as("a spec change").isEqualTo(2);
  }

  @Test
  void scale_refusesNegativeReplicas_andAStaleResourceVersion() {
    String ns = http.createNamespace("scale-bad");
    http.create(deployments(ns), deployment("web", 1));
    JsonNode scale = http.get(deployments(ns) + "/web/scale").expect(200);

    ObjectNode negative = scale.deepCopy();
    ((ObjectNode) negative.get("spec")).put("replicas", -1);
    JsonNode invalid = assertFailureStatus(http.put(deployments(ns) + "/web/scale", negative), 422, "Invalid");
    assertThat(invalid.path("message").asText())
        .isEqualTo("Scale.autoscaling \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0");

    http.mergePatch(deployments(ns) + "/web", object("{\"metadata\":{\"labels\":{\"a\":\"b\"}}}")).expect(200);
    ObjectNode stale = scale.deepCopy();
    ((ObjectNode) stale.get("spec")).put("replicas", 3);
    assertFailureStatus(http.put(deployments(ns) + "/web/scale", stale), 409, "Conflict");
    assertThat(http.get(deployments(ns) + "/web").expect(200).at("/spec/replicas").asInt()).isEqualTo(1);
  }

  @Test
  void scale_withDryRun_answersTheNewScale_andStoresNothing() {
    String ns = http.createNamespace("scale-dry");
    http.create(deployments(ns), deployment("web", 1));

    JsonNode scaled = http.mergePatch(deployments(ns) + "/web/scale?dryRun=All",
        object("{\"spec\":{\"replicas\":4}}")).expect(200);

    assertThat(scaled.at("/spec/replicas").asInt()).isEqualTo(4);
    assertThat(http.get(deployments(ns) + "/web").expect(200).at("/spec/replicas").asInt()).isEqualTo(1);
  }

  // ---- binding ---------------------------------------------------------------------------

  @Test
  void binding_setsTheNodeOnce_andConflictsWhenAlreadyBound() {
    String ns = http.createNamespace("bind");
    http.create(pods(ns), pod("p", Map.of(), null));
    ObjectNode binding = object("""
        {"apiVersion":"v1","kind":"Binding","metadata":{"name":"p","annotations":{"by":"scheduler"}},
         "target":{"apiVersion":"v1","kind":"Node","name":"node-1"}}""");

    KubeHttp.Response bound = http.post(pods(ns) + "/p/binding", binding);
    assertThat(bound.code()).isEqualTo(201);
    assertThat(bound.json().path("status").asText()).isEqualTo("Success");
    JsonNode p = http.get(pods(ns) + "/p").expect(200);
    assertThat(p.at("/spec/nodeName").asText()).isEqualTo("node-1");
    assertThat(p.at("/metadata/annotations/by").asText()).isEqualTo("scheduler");
    assertThat(p.at("/status/conditions/0/type").asText()).isEqualTo("PodScheduled");
    assertThat(p.at("/status/conditions/0/status").asText()).isEqualTo("True");

    ((ObjectNode) binding.get("target")).put("name", "node-2");
    JsonNode conflict = assertFailureStatus(http.post(pods(ns) + "/p/binding", binding), 409, "Conflict");
    assertThat(conflict.path("message").asText())
        .isEqualTo("Operation cannot be fulfilled on pods \"p\": pod p is already assigned to node \"node-1\"");
    ((ObjectNode) binding.get("metadata")).put("name", "other");
    assertFailureStatus(http.post(pods(ns) + "/p/binding", binding), 400, "BadRequest");
  }

  // ---- eviction --------------------------------------------------------------------------

  private static ObjectNode eviction(String name) {
    return object("{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"" + name + "\"}}");
  }

  private static void running(String ns, String pod) {
    http.mergePatch(pods(ns) + "/" + pod + "/status", object("{\"status\":{\"phase\":\"Running\"}}")).expect(200);
  }

  @Test
  void eviction_withoutABudget_deletesThePod() {
    String ns = http.createNamespace("evict");
    http.create(pods(ns), pod("p", Map.of("app", "web"), null));
    running(ns, "p");

    KubeHttp.Response r = http.post(pods(ns) + "/p/eviction", eviction("p"));

    assertThat(r.code()).isEqualTo(201);
    assertFailureStatus(http.get(pods(ns) + "/p"), 404, "NotFound");
  }

  @Test
  void eviction_isRefusedWith429_whileTheBudgetAllowsNoDisruption_thenDecrementsIt() {
    String ns = http.createNamespace("evict-pdb");
    http.create(pods(ns), pod("p", Map.of("app", "web"), null));
    running(ns, "p");
    String pdbs = "/apis/policy/v1/namespaces/" + ns + "/poddisruptionbudgets";
    http.create(pdbs, object("""
        {"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"web"},
         "spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"web"}}},
         "status":{"disruptionsAllowed":5}}"""));
    http.mergePatch(pdbs + "/web/status", object("""
        {"status":{"observedGeneration":1,"disruptionsAllowed":0,"desiredHealthy":1,"currentHealthy":1,
                   "expectedPods":1}}""")).expect(200);

    http.create(pods(ns), pod("new", Map.of("app", "web"), null));
    assertThat(http.post(pods(ns) + "/new/eviction", eviction("new")).code())
        .as("a pod not yet running is evicted whatever the budget").isEqualTo(201);

    JsonNode refused = assertFailureStatus(http.post(pods(ns) + "/p/eviction", eviction("p")), 429, "TooManyRequests");
    assertThat(refused.path("message").asText())
        .isEqualTo("Cannot evict pod as it would violate the pod's disruption budget.");
    assertThat(refused.at("/details/causes/0/reason").asText()).isEqualTo("DisruptionBudget");
    assertThat(refused.at("/details/causes/0/message").asText())
        .isEqualTo("The disruption budget web needs 1 healthy pods and has 1 currently");
    assertThat(http.get(pods(ns) + "/p").code()).as("the pod stays").isEqualTo(200);

    http.mergePatch(pdbs + "/web/status", object("{\"status\":{\"disruptionsAllowed\":1}}")).expect(200);
    assertThat(http.post(pods(ns) + "/p/eviction?dryRun=All", eviction("p")).code()).isEqualTo(201);
    assertThat(http.get(pods(ns) + "/p").code()).as("a dry run deletes nothing").isEqualTo(200);
    assertThat(http.post(pods(ns) + "/p/eviction", eviction("p")).code()).isEqualTo(201);
    JsonNode budget = http.get(pdbs + "/web").expect(200);
    assertThat(budget.at("/status/disruptionsAllowed").asInt()).isZero();
    assertThat(budget.at("/status/disruptedPods").has("p")).isTrue();
    assertFailureStatus(http.get(pods(ns) + "/p"), 404, "NotFound");
  }

  // ---- a namespace's finalize -------------------------------------------------------------

  @Test
  void finalize_aloneChangesANamespacesFinalizers_andReleasesATerminatingNamespace() {
    String ns = http.createNamespace("finalize");
    String path = "/api/v1/namespaces/" + ns;
    JsonNode plain = http.mergePatch(path, object("{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"finalizers\":[]}}"))
        .expect(200);
    assertThat(plain.at("/spec/finalizers").toString()).as("an ordinary patch keeps them").isEqualTo("[\"kubernetes\"]");
    assertThat(plain.at("/metadata/labels/a").asText()).isEqualTo("b");

    ObjectNode held = (ObjectNode) plain.deepCopy();
    ((ObjectNode) held.get("metadata")).putObject("labels").put("a", "changed");
    ((ObjectNode) held.get("spec")).putArray("finalizers").add("kubernetes").add("example.com/hold");
    JsonNode finalized = http.put(path + "/finalize", held).expect(200);
    assertThat(finalized.at("/spec/finalizers").toString()).isEqualTo("[\"kubernetes\",\"example.com/hold\"]");
    assertThat(finalized.at("/metadata/labels/a").asText()).as("only the finalizers change").isEqualTo("b");
    assertFailureStatus(http.put(path + "/finalize", held), 409, "Conflict");
    JsonNode again = http.put(path + "/finalize", finalized).expect(200);
    assertThat(again.at("/metadata/resourceVersion").asText()).as("the same finalizers write nothing")
        .isEqualTo(finalized.at("/metadata/resourceVersion").asText());
    assertThat(http.get(path + "/finalize").code()).isEqualTo(405);

    http.delete(path).expect(200);
    Await.until("the namespace controller removes its own finalizer", Duration.ofSeconds(10), () ->
        http.get(path).json().at("/spec/finalizers").toString().equals("[\"example.com/hold\"]"));
    assertThat(http.get(path).json().at("/status/phase").asText()).isEqualTo("Terminating");

    ObjectNode release = (ObjectNode) http.get(path).json().deepCopy();
    ((ObjectNode) release.get("spec")).putArray("finalizers");
    http.put(path + "/finalize", release).expect(200);
    Await.until("the namespace is gone once its finalizers are", Duration.ofSeconds(10),
        () -> http.get(path).code() == 404);
  }
}
