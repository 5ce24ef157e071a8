package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.assertFailureStatus;
import static io.listwatch.server.http.KubeHttp.configMap;
import static io.listwatch.server.http.KubeHttp.names;
import static io.listwatch.server.http.KubeHttp.object;
import static io.listwatch.server.http.KubeHttp.pod;
import static io.listwatch.server.http.KubeHttp.q;
import static io.listwatch.server.http.KubeHttp.rv;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Create, update, patch and delete over HTTP (docs/compatibility.md, "Writes"): the metadata the
 * server owns, optimistic concurrency, merge patches, delete preconditions and answers, and
 * the Status of every refused write - after which a list shows that nothing was stored.
 */
@ExtendWith(ApiServerExtension.class)
class WriteSemanticsTest {

  private static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

  private static KubeHttp http;

  @BeforeAll
  static void connect(ApiServer server) {
    http = new KubeHttp(server);
  }

  @AfterAll
  static void disconnect() {
    http.close();
  }

  private static String cms(String ns) {
    return "/api/v1/namespaces/" + ns + "/configmaps";
  }

  private static String deployments(String ns) {
    return "/apis/apps/v1/namespaces/" + ns + "/deployments";
  }

  private static ObjectNode meta(ObjectNode obj) {
    return (ObjectNode) obj.get("metadata");
  }

  // ---- create --------------------------------------------------------------------------

  @Test
  void create_setsUidCreationTimestampAndResourceVersion_overridingWhatTheClientSent() {
    String ns = http.createNamespace("create");
    ObjectNode cm = configMap("owned");
    meta(cm).put("uid", "11111111-1111-1111-1111-111111111111").put("resourceVersion", "424242")
        .put("creationTimestamp", "2000-01-01T00:00:00Z");

    KubeHttp.Response r = http.post(cms(ns), cm);
    JsonNode created = r.expect(201);
    assertThat(r.contentType()).startsWith("application/json");
    assertThat(created.path("kind").asText()).isEqualTo("ConfigMap");
    assertThat(created.path("apiVersion").asText()).isEqualTo("v1");
    JsonNode m = created.get("metadata");
    assertThat(m.path("uid").asText()).matches(UUID).isNotEqualTo("11111111-1111-1111-1111-111111111111");
    assertThat(m.path("creationTimestamp").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    assertThat(Instant.parse(m.path("creationTimestamp").asText()))
        .isBetween(Instant.now().minus(Duration.ofMinutes(5)), Instant.now().plus(Duration.ofMinutes(5)));
    assertThat(m.path("resourceVersion").asText()).matches("[0-9]+").isNotEqualTo("424242");
    assertThat(m.path("namespace").asText()).as("namespace defaulted from the URL").isEqualTo(ns);
    assertThat(m.has("selfLink")).isFalse();

    JsonNode got = http.get(cms(ns) + "/owned").expect(200);
    assertThat(got.at("/metadata/uid").asText()).isEqualTo(m.path("uid").asText());
    assertThat(rv(got)).isEqualTo(rv(created));
  }

  @Test
  void pod_startsPending_withItsQosClass_whateverStatusTheClientSent() {
    String ns = http.createNamespace("pending");
    ObjectNode p = pod("p", Map.of(), null);
    p.putObject("status").put("phase", "Running").put("podIP", "10.0.0.9");
    JsonNode created = http.create("/api/v1/namespaces/" + ns + "/pods", p);
    assertThat(created.path("status").path("phase").asText()).isEqualTo("Pending");
    assertThat(created.path("status").path("qosClass").asText()).isEqualTo("BestEffort");
    assertThat(created.path("status").has("podIP")).isFalse();
  }

  @Test
  void deployment_startsAtGenerationOne_andOnlySpecChangesBumpIt() {
    String ns = http.createNamespace("generation");
    JsonNode created = http.create(deployments(ns), KubeHttp.deployment("web", 1));
    assertThat(created.at("/metadata/generation").asLong()).isEqualTo(1);

    ObjectNode scaled = created.deepCopy();
    ((ObjectNode) scaled.get("spec")).put("replicas", 3);
    JsonNode updated = http.put(deployments(ns) + "/web", scaled).expect(200);
    assertThat(updated.at("/metadata/generation").asLong()).as("spec changed by PUT").isEqualTo(2);

    JsonNode labelled = http.mergePatch(deployments(ns) + "/web",
        object("{\"metadata\":{\"labels\":{\"team\":\"a\"},\"annotations\":{\"note\":\"x\"}}}")).expect(200);
    assertThat(labelled.at("/metadata/generation").asLong()).as("metadata-only change").isEqualTo(2);
    assertThat(rv(labelled)).isGreaterThan(rv(updated));

    JsonNode patched = http.mergePatch(deployments(ns) + "/web", object("{\"spec\":{\"replicas\":5}}")).expect(200);
    assertThat(patched.at("/metadata/generation").asLong()).as("spec changed by PATCH").isEqualTo(3);

    JsonNode status = http.mergePatch(deployments(ns) + "/web/status",
        object("{\"status\":{\"observedGeneration\":3,\"replicas\":5}}")).expect(200);
    assertThat(status.at("/metadata/generation").asLong()).as("status-only change").isEqualTo(3);
    assertThat(status.at("/status/observedGeneration").asLong()).isEqualTo(3);
  }

  @Test
  void create_withGenerateName_appendsFiveRandomCharacters() {
    String ns = http.createNamespace("generate");
    ObjectNode cm = configMap("x");
    meta(cm).remove("name");
    meta(cm).put("generateName", "web-");
    String first = KubeHttp.name(http.create(cms(ns), cm));
    String second = KubeHttp.name(http.create(cms(ns), cm));
    assertThat(first).matches("web-[bcdfghjklmnpqrstvwxz2456789]{5}");
    assertThat(second).matches("web-[bcdfghjklmnpqrstvwxz2456789]{5}").isNotEqualTo(first);
    assertThat(names(http.list(cms(ns)))).containsExactlyInAnyOrder(first, second);
  }

  @Test
  void create_ofAnExistingName_isRejectedWith409AlreadyExists_andKeepsTheOriginal() {
    String ns = http.createNamespace("exists");
    http.create(cms(ns), configMap("dup", Map.of(), Map.of("v", "1")));
    JsonNode s = assertFailureStatus(http.post(cms(ns), configMap("dup", Map.of(), Map.of("v", "2"))), 409,
        "AlreadyExists");
    assertThat(s.path("message").asText()).isEqualTo("configmaps \"dup\" already exists");
    assertThat(s.at("/details/name").asText()).isEqualTo("dup");
    assertThat(s.at("/details/kind").asText()).isEqualTo("configmaps");
    assertThat(http.get(cms(ns) + "/dup").expect(200).at("/data/v").asText()).isEqualTo("1");

    http.create(deployments(ns), KubeHttp.deployment("web", 1));
    JsonNode d = assertFailureStatus(http.post(deployments(ns), KubeHttp.deployment("web", 2)), 409,
        "AlreadyExists");
    assertThat(d.path("message").asText()).isEqualTo("deployments.apps \"web\" already exists");
    assertThat(d.at("/details/group").asText()).isEqualTo("apps");
    assertThat(d.at("/details/kind").asText()).isEqualTo("deployments");
  }

  @Test
  void create_inAMissingNamespace_isRejectedWith404ForTheNamespace_andStoresNothing() {
    JsonNode s = assertFailureStatus(http.post(cms("no-such-namespace"), configMap("a")), 404, "NotFound");
    assertThat(s.path("message").asText()).isEqualTo("namespaces \"no-such-namespace\" not found");
    assertThat(s.at("/details/name").asText()).isEqualTo("no-such-namespace");
    assertThat(s.at("/details/kind").asText()).isEqualTo("namespaces");
    assertThat(names(http.list("/api/v1/configmaps?fieldSelector=" + q("metadata.namespace=no-such-namespace"))))
        .isEmpty();
  }

  @Test
  void defaultNamespaces_existFromTheStart() {
    for (String ns : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
      JsonNode got = http.get("/api/v1/namespaces/" + ns).expect(200);
      assertThat(got.path("kind").asText()).isEqualTo("Namespace");
      assertThat(got.at("/metadata/uid").asText()).matches(UUID);
    }
    assertThat(names(http.list("/api/v1/namespaces"))).contains("default", "kube-public", "kube-system");
    http.create(cms("default"), configMap("in-default-" + System.nanoTime()));
  }

  /** kubectl get ns shows status.phase; kube sets Active on create, whatever the client sent. */
  @Test
  void namespaces_areActive_fromTheStartAndWhenCreated() {
    assertThat(http.get("/api/v1/namespaces/default").expect(200).at("/status/phase").asText())
        .isEqualTo("Active");
    String ns = http.createNamespace("phase");
    assertThat(http.get("/api/v1/namespaces/" + ns).expect(200).at("/status/phase").asText()).isEqualTo("Active");
    assertThat(names(http.list("/api/v1/namespaces?fieldSelector=" + q("status.phase=Active"))))
        .contains("default", ns);
  }

  /** kube's NamespaceLifecycle admission refuses to delete the namespaces it always has. */
  @Test
  void delete_ofTheDefaultNamespaces_isRejectedWith403Forbidden() {
    try (ApiServer own = ApiServer.builder().build().start(); KubeHttp h = new KubeHttp(own)) {
      for (String ns : List.of("default", "kube-system", "kube-public")) {
        assertFailureStatus(h.delete("/api/v1/namespaces/" + ns), 403, "Forbidden");
        assertThat(h.get("/api/v1/namespaces/" + ns).code()).as(ns + " still there").isEqualTo(200);
      }
    }
  }

  /** kubectl --dry-run=server sends dryRun=All: the answer is as if written, the store unchanged. */
  @Test
  void writes_withDryRunAll_answerAsIfDoneButChangeNothing() {
    String ns = http.createNamespace("dryrun");
    JsonNode dryCreated = http.post(cms(ns) + "?dryRun=All", configMap("ghost")).expect(201);
    assertThat(KubeHttp.name(dryCreated)).isEqualTo("ghost");
    assertFailureStatus(http.get(cms(ns) + "/ghost"), 404, "NotFound");

    JsonNode real = http.create(cms(ns), configMap("real", Map.of(), Map.of("v", "1")));
    JsonNode dryUpdated = http.put(cms(ns) + "/real?dryRun=All", configMap("real", Map.of(), Map.of("v", "2")))
        .expect(200);
    assertThat(dryUpdated.at("/data/v").asText()).isEqualTo("2");
    http.mergePatch(cms(ns) + "/real?dryRun=All", object("{\"data\":{\"v\":\"3\"}}")).expect(200);
    http.delete(cms(ns) + "/real?dryRun=All").expect(200);
    http.delete(cms(ns) + "/real", object("{\"dryRun\":[\"All\"]}")).expect(200);

    JsonNode now = http.get(cms(ns) + "/real").expect(200);
    assertThat(now.at("/data/v").asText()).isEqualTo("1");
    assertThat(rv(now)).isEqualTo(rv(real));
    assertThat(names(http.list(cms(ns)))).containsExactly("real");
  }

  @Test
  void create_withInvalidMetadata_isRejectedWith422InvalidListingEachCause_andStoresNothing() {
    String ns = http.createNamespace("invalid");
    record Case(String field, ObjectNode body) {
    }
    ObjectNode noName = configMap("x");
    meta(noName).remove("name");
    List<Case> cases = List.of(
        new Case("metadata.name", configMap("Bad_Name")),
        new Case("metadata.name", configMap("x".repeat(254))),
        new Case("metadata.name", noName),
        new Case("metadata.labels", configMap("bad-label-key", Map.of("bad key", "v"), Map.of())),
        new Case("metadata.labels", configMap("long-label-value", Map.of("k", "v".repeat(64)), Map.of())),
        new Case("metadata.labels", configMap("bad-label-value", Map.of("k", "-starts-with-dash"), Map.of())));
    for (Case c : cases) {
      JsonNode s = assertFailureStatus(http.post(cms(ns), c.body()), 422, "Invalid");
      assertThat(s.at("/details/kind").asText()).as("Invalid names the Kind").isEqualTo("ConfigMap");
      assertThat(s.path("message").asText()).startsWith("ConfigMap \"");
      JsonNode causes = s.at("/details/causes");
      assertThat(causes.isArray() && !causes.isEmpty()).as("causes of %s", s).isTrue();
      assertThat(causes.get(0).path("field").asText()).as("field of %s", s).startsWith(c.field());
      assertThat(causes.get(0).path("reason").asText()).startsWith("FieldValue");
      assertThat(causes.get(0).path("message").asText()).isNotBlank();
    }

    JsonNode both = assertFailureStatus(http.post(cms(ns), configMap("Bad_Name", Map.of("bad key", "v"), Map.of())),
        422, "Invalid");
    assertThat(both.at("/details/causes").size()).as("every violated rule is a cause").isGreaterThanOrEqualTo(2);

    ObjectNode badDeployment = KubeHttp.deployment("Bad_Deployment", 1);
    JsonNode d = assertFailureStatus(http.post(deployments(ns), badDeployment), 422, "Invalid");
    assertThat(d.path("message").asText()).startsWith("Deployment.apps \"Bad_Deployment\" is invalid");
    assertThat(d.at("/details/group").asText()).isEqualTo("apps");
    assertThat(d.at("/details/kind").asText()).isEqualTo("Deployment");

    assertThat(names(http.list(cms(ns)))).as("nothing stored").isEmpty();
    assertThat(names(http.list(deployments(ns)))).isEmpty();
  }

  @Test
  void create_withMalformedJsonOrWrongTypeMeta_isRejectedWith400BadRequest_andStoresNothing() {
    String ns = http.createNamespace("malformed");
    List<String> bodies = new ArrayList<>();
    bodies.add("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"");
    bodies.add("not json at all");
    bodies.add("[]");
    bodies.add(configMap("b").put("apiVersion", "apps/v1").toString());
    bodies.add(configMap("c").put("kind", "Secret").toString());
    ObjectNode otherNamespace = configMap("d");
    meta(otherNamespace).put("namespace", "default");
    bodies.add(otherNamespace.toString());
    for (String body : bodies) {
      KubeHttp.Response r = http.send("POST", cms(ns), "application/json", body.getBytes(StandardCharsets.UTF_8));
      assertFailureStatus(r, 400, "BadRequest");
    }
    assertThat(names(http.list(cms(ns)))).as("nothing stored").isEmpty();
    assertThat(names(http.list(cms("default") + "?fieldSelector=" + q("metadata.name=d")))).isEmpty();
  }

  /**
   * A body over kube's 3 MiB limit, sent the way Go clients send it (no Expect: 100-continue):
   * the client is still writing when the server answers, and must still get to read the 413.
   */
  @Test
  void create_withBodyOver3MiB_isRejectedWith413_andStoresNothing() {
    String ns = http.createNamespace("toolarge");
    assertFailureStatus(http.send("POST", cms(ns), "application/json", overLimitBody()), 413,
        "RequestEntityTooLarge");
    http.create(cms(ns), configMap("fine", Map.of(), Map.of("blob", "y".repeat(512 * 1024))));
    assertThat(names(http.list(cms(ns)))).as("only the object under the limit").containsExactly("fine");
  }

  @Test
  void create_withBodyOver3MiB_andExpectContinue_isRejectedWith413BeforeTheBodyIsSent() {
    String ns = http.createNamespace("toolarge-expect");
    assertFailureStatus(http.send("POST", cms(ns), "application/json", overLimitBody(), true), 413,
        "RequestEntityTooLarge");
    assertThat(names(http.list(cms(ns)))).as("nothing stored").isEmpty();
  }

  private static byte[] overLimitBody() {
    return configMap("big", Map.of(), Map.of("blob", "x".repeat(3 * 1024 * 1024 + 100))).toString()
        .getBytes(StandardCharsets.UTF_8);
  }

  // ---- update and patch ----------------------------------------------------------------

  @Test
  void update_withStaleResourceVersion_isRejectedWith409Conflict_andKeepsTheNewerState() {
    String ns = http.createNamespace("conflict");
    JsonNode v1 = http.create(cms(ns), configMap("cm", Map.of(), Map.of("v", "1")));
    ObjectNode second = (ObjectNode) v1.deepCopy();
    ((ObjectNode) second.get("data")).put("v", "2");
    JsonNode v2 = http.put(cms(ns) + "/cm", second).expect(200);
    assertThat(rv(v2)).isGreaterThan(rv(v1));

    ObjectNode stale = (ObjectNode) v1.deepCopy();
    ((ObjectNode) stale.get("data")).put("v", "3");
    JsonNode s = assertFailureStatus(http.put(cms(ns) + "/cm", stale), 409, "Conflict");
    assertThat(s.path("message").asText()).isEqualTo("Operation cannot be fulfilled on configmaps \"cm\": the object "
        + "has been modified; please apply your changes to the latest version and try again");
    assertThat(s.at("/details/name").asText()).isEqualTo("cm");
    assertThat(s.at("/details/kind").asText()).isEqualTo("configmaps");

    // a resourceVersion inside a merge patch is a precondition too (kubectl label --resource-version)
    assertFailureStatus(http.mergePatch(cms(ns) + "/cm",
        object("{\"metadata\":{\"resourceVersion\":\"" + rv(v1) + "\"},\"data\":{\"v\":\"4\"}}")), 409, "Conflict");

    JsonNode now = http.get(cms(ns) + "/cm").expect(200);
    assertThat(now.at("/data/v").asText()).isEqualTo("2");
    assertThat(rv(now)).isEqualTo(rv(v2));
  }

  @Test
  void update_withoutResourceVersion_isAppliedUnconditionally() {
    String ns = http.createNamespace("unconditional");
    JsonNode created = http.create(cms(ns), configMap("cm", Map.of(), Map.of("v", "1")));
    JsonNode updated = http.put(cms(ns) + "/cm", configMap("cm", Map.of(), Map.of("v", "2"))).expect(200);
    assertThat(updated.at("/data/v").asText()).isEqualTo("2");
    assertThat(rv(updated)).isGreaterThan(rv(created));
    assertThat(updated.at("/metadata/uid").asText()).isEqualTo(created.at("/metadata/uid").asText());
    assertThat(updated.at("/metadata/creationTimestamp").asText())
        .isEqualTo(created.at("/metadata/creationTimestamp").asText());
  }

  @Test
  void deployment_mainResourceIgnoresStatus_andStatusSubresourceIgnoresEverythingElse() {
    String ns = http.createNamespace("status");
    http.create(deployments(ns), KubeHttp.deployment("web", 1));
    JsonNode main = http.mergePatch(deployments(ns) + "/web",
        object("{\"spec\":{\"replicas\":2},\"status\":{\"replicas\":9}}")).expect(200);
    assertThat(main.at("/spec/replicas").asInt()).isEqualTo(2);
    assertThat(main.at("/status/replicas").isMissingNode()).as("status ignored on the main resource").isTrue();

    JsonNode status = http.mergePatch(deployments(ns) + "/web/status",
        object("{\"spec\":{\"replicas\":7},\"status\":{\"replicas\":2}}")).expect(200);
    assertThat(status.at("/status/replicas").asInt()).isEqualTo(2);
    assertThat(status.at("/spec/replicas").asInt()).as("spec ignored on /status").isEqualTo(2);
    JsonNode got = http.get(deployments(ns) + "/web").expect(200);
    assertThat(got.at("/spec/replicas").asInt()).isEqualTo(2);
    assertThat(got.at("/status/replicas").asInt()).isEqualTo(2);
  }

  @Test
  void update_withANameThatDoesNotMatchTheUrl_isRejectedWith400() {
    String ns = http.createNamespace("rename");
    http.create(cms(ns), configMap("a"));
    assertFailureStatus(http.put(cms(ns) + "/a", configMap("b")), 400, "BadRequest");
    assertThat(names(http.list(cms(ns)))).containsExactly("a");
  }

  @Test
  void updateAndPatch_ofAMissingObject_areRejectedWith404() {
    String ns = http.createNamespace("missing");
    JsonNode s = assertFailureStatus(http.put(cms(ns) + "/ghost", configMap("ghost")), 404, "NotFound");
    assertThat(s.path("message").asText()).isEqualTo("configmaps \"ghost\" not found");
    assertFailureStatus(http.mergePatch(cms(ns) + "/ghost", object("{\"data\":{\"a\":\"b\"}}")), 404, "NotFound");
    assertFailureStatus(http.delete(cms(ns) + "/ghost"), 404, "NotFound");
    assertThat(names(http.list(cms(ns)))).isEmpty();
  }

  @Test
  void update_withInvalidMetadata_isRejectedWith422_andKeepsTheStoredObject() {
    String ns = http.createNamespace("invalid-update");
    JsonNode created = http.create(cms(ns), configMap("cm", Map.of("ok", "yes"), Map.of()));
    ObjectNode bad = (ObjectNode) created.deepCopy();
    meta(bad).putObject("labels").put("bad key", "v");
    assertFailureStatus(http.put(cms(ns) + "/cm", bad), 422, "Invalid");
    assertFailureStatus(http.mergePatch(cms(ns) + "/cm", object("{\"metadata\":{\"labels\":{\"k\":\"-bad-\"}}}")),
        422, "Invalid");
    JsonNode now = http.get(cms(ns) + "/cm").expect(200);
    assertThat(rv(now)).isEqualTo(rv(created));
    assertThat(now.at("/metadata/labels").toString()).isEqualTo("{\"ok\":\"yes\"}");
  }

  @Test
  void mergePatch_setsValues_andNullRemovesThem() {
    String ns = http.createNamespace("merge");
    http.create(cms(ns), configMap("cm", Map.of("a", "1", "b", "2"), Map.of("keep", "k", "gone", "g")));
    JsonNode patched = http.send("PATCH", cms(ns) + "/cm", "application/merge-patch+json; charset=utf-8",
        ("{\"metadata\":{\"labels\":{\"a\":null,\"c\":\"3\"}},\"data\":{\"gone\":null,\"new\":\"n\"}}")
            .getBytes(StandardCharsets.UTF_8)).expect(200);
    assertThat(patched.at("/metadata/labels").toString()).isEqualTo("{\"b\":\"2\",\"c\":\"3\"}");
    assertThat(patched.at("/data").toString()).isEqualTo("{\"keep\":\"k\",\"new\":\"n\"}");
    JsonNode got = http.get(cms(ns) + "/cm").expect(200);
    assertThat(got.at("/metadata/labels").toString()).isEqualTo("{\"b\":\"2\",\"c\":\"3\"}");
    assertThat(rv(got)).isEqualTo(rv(patched));
  }

  @Test
  void patch_withAContentTypeThatIsNotAPatchType_isRejectedWith415_andChangesNothing() {
    String ns = http.createNamespace("mediatype");
    JsonNode created = http.create(cms(ns), configMap("cm", Map.of(), Map.of("v", "1")));
    byte[] body = "{\"data\":{\"v\":\"2\"}}".getBytes(StandardCharsets.UTF_8);
    for (String type : new String[] {"application/json", "text/plain", null}) {
      assertFailureStatus(http.send("PATCH", cms(ns) + "/cm", type, body), 415, "UnsupportedMediaType");
    }
    assertThat(rv(http.get(cms(ns) + "/cm").expect(200))).isEqualTo(rv(created));
  }

  @Test
  void createAndUpdate_acceptAYamlBody_asKube() {
    String ns = http.createNamespace("yaml");
    byte[] yaml = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels: {app: web}\n"
        + "data:\n  v: \"1\"\n").getBytes(StandardCharsets.UTF_8);
    JsonNode created = http.send("POST", cms(ns), "application/yaml", yaml).expect(201);
    assertThat(created.at("/data/v").asText()).isEqualTo("1");
    assertThat(created.at("/metadata/labels/app").asText()).isEqualTo("web");
    byte[] update = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  resourceVersion: \""
        + rv(created) + "\"\ndata:\n  v: \"2\"\n").getBytes(StandardCharsets.UTF_8);
    assertThat(http.send("PUT", cms(ns) + "/cm", "application/yaml", update).expect(200).at("/data/v").asText())
        .isEqualTo("2");

    // not YAML, or not an object: 400, nothing written
    assertFailureStatus(http.send("POST", cms(ns), "application/yaml", "metadata: [unclosed\n"
        .getBytes(StandardCharsets.UTF_8)), 400, "BadRequest");
    assertFailureStatus(http.send("POST", cms(ns), "application/yaml", "- a\n- b\n"
        .getBytes(StandardCharsets.UTF_8)), 400, "BadRequest");
    // a type kube does not read: 415 naming the types it does
    JsonNode refused = http.send("POST", cms(ns), "text/plain", yaml).expect(415);
    assertThat(refused.path("message").asText()).isEqualTo("the body of the request was in an unknown format - "
        + "accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf");
    assertThat(http.get(cms(ns)).expect(200).path("items")).hasSize(1);
  }

  // ---- delete --------------------------------------------------------------------------

  @Test
  void delete_withABodyFieldOfTheWrongType_isRejectedWith400_andKeepsTheObject() {
    String ns = http.createNamespace("delete-types");
    JsonNode created = http.create(cms(ns), configMap("cm"));
    JsonNode refused = http.delete(cms(ns) + "/cm", object("{\"gracePeriodSeconds\":\"x\"}")).expect(400);
    assertThat(refused.path("message").asText())
        .isEqualTo("json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64");
    assertFailureStatus(http.delete(cms(ns) + "/cm", object("{\"preconditions\":[]}")), 400, "BadRequest");
    assertFailureStatus(http.delete(cms(ns) + "/cm", object("{\"orphanDependents\":\"yes\"}")), 400, "BadRequest");
    assertThat(rv(http.get(cms(ns) + "/cm").expect(200))).isEqualTo(rv(created));
  }

  @Test
  void delete_withPreconditionsThatDoNotMatch_isRejectedWith409Conflict_andKeepsTheObject() {
    String ns = http.createNamespace("preconditions");
    JsonNode created = http.create(cms(ns), configMap("cm"));
    String uid = created.at("/metadata/uid").asText();
    String rv = created.at("/metadata/resourceVersion").asText();

    assertFailureStatus(http.delete(cms(ns) + "/cm",
        object("{\"preconditions\":{\"uid\":\"00000000-0000-0000-0000-000000000000\"}}")), 409, "Conflict");
    assertFailureStatus(http.delete(cms(ns) + "/cm",
        object("{\"preconditions\":{\"uid\":\"" + uid + "\",\"resourceVersion\":\"1\"}}")), 409, "Conflict");
    assertThat(rv(http.get(cms(ns) + "/cm").expect(200))).isEqualTo(rv(created));

    JsonNode ok = http.delete(cms(ns) + "/cm", object("{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\","
        + "\"preconditions\":{\"uid\":\"" + uid + "\",\"resourceVersion\":\"" + rv + "\"},"
        + "\"propagationPolicy\":\"Background\"}")).expect(200);
    assertThat(ok.path("status").asText()).isEqualTo("Success");
    assertFailureStatus(http.get(cms(ns) + "/cm"), 404, "NotFound");
  }

  /** Pods are one of the types whose DELETE returns the object; typed clients decode a Pod. */
  @Test
  void delete_ofAPod_returnsTheDeletedPod() {
    String ns = http.createNamespace("delete-pod");
    // not bound to a node, so kube deletes it at once instead of gracefully
    JsonNode created = http.create("/api/v1/namespaces/" + ns + "/pods", pod("p", Map.of(), null));
    KubeHttp.Response r = http.delete("/api/v1/namespaces/" + ns + "/pods/p", object("{\"propagationPolicy\":\"Background\"}"));
    JsonNode deleted = r.expect(200);
    assertThat(deleted.path("kind").asText()).isEqualTo("Pod");
    assertThat(deleted.path("apiVersion").asText()).isEqualTo("v1");
    assertThat(KubeHttp.name(deleted)).isEqualTo("p");
    assertThat(deleted.at("/metadata/uid").asText()).isEqualTo(created.at("/metadata/uid").asText());
    assertFailureStatus(http.get("/api/v1/namespaces/" + ns + "/pods/p"), 404, "NotFound");
  }

  /** Most types answer a DELETE with a success Status naming the plural resource. */
  @Test
  void delete_ofAConfigMapOrDeployment_returnsASuccessStatusWithDetails() {
    String ns = http.createNamespace("delete-status");
    JsonNode cm = http.create(cms(ns), configMap("cm"));
    JsonNode s = http.delete(cms(ns) + "/cm").expect(200);
    assertThat(s.path("kind").asText()).isEqualTo("Status");
    assertThat(s.path("apiVersion").asText()).isEqualTo("v1");
    assertThat(s.path("metadata").isObject()).isTrue();
    assertThat(s.path("status").asText()).isEqualTo("Success");
    assertThat(s.at("/details/name").asText()).isEqualTo("cm");
    assertThat(s.at("/details/kind").asText()).isEqualTo("configmaps");
    assertThat(s.at("/details/uid").asText()).isEqualTo(cm.at("/metadata/uid").asText());
    assertThat(s.path("details").has("group")).as("no group for the core group").isFalse();

    http.create(deployments(ns), KubeHttp.deployment("web", 1));
    JsonNode d = http.delete(deployments(ns) + "/web", object("{\"propagationPolicy\":\"Background\"}")).expect(200);
    assertThat(d.path("status").asText()).isEqualTo("Success");
    assertThat(d.at("/details/group").asText()).isEqualTo("apps");
    assertThat(d.at("/details/kind").asText()).isEqualTo("deployments");
    assertThat(names(http.list(deployments(ns)))).isEmpty();
  }
}
