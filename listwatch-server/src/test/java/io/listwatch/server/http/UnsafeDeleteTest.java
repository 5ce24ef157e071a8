package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.assertFailureStatus;
import static io.listwatch.server.http.KubeHttp.configMap;
import static io.listwatch.server.http.KubeHttp.names;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.apiserver.features.FeatureGates;
import io.listwatch.server.ApiServer;
import io.listwatch.storage.rocksdb.RocksDbStorage;
import io.listwatch.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kube's unsafe delete of a corrupt object (feature gate {@code AllowUnsafeMalformedObjectDeletion},
 * delete option {@code ignoreStoreReadErrorWithClusterBreakingPotential}), end to end over TLS
 * with RBAC: a stored object no reader takes can be removed through the API by a user allowed
 * both {@code delete} and {@code unsafe-delete-ignore-read-errors}, and by nothing else; a
 * readable object is never removed this way.
 */
class UnsafeDeleteTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String OPTION = "ignoreStoreReadErrorWithClusterBreakingPotential";
  private static final FeatureGates ON = FeatureGates.parse("AllowUnsafeMalformedObjectDeletion=true");

  private static String cms(String ns) {
    return "/api/v1/namespaces/" + ns + "/configmaps";
  }

  /**
   * A store holding the namespace {@code ns} with a readable ConfigMap "good" and, written into
   * RocksDB behind the server's back, a ConfigMap "bad" whose 60,000-byte data key no reader takes.
   */
  private static void poisonedStore(Path dataDir, String ns) throws Exception {
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).build().start(); KubeHttp http = new KubeHttp(server)) {
      http.post("/api/v1/namespaces", KubeHttp.object("{\"metadata\":{\"name\":\"" + ns + "\"}}")).expect(201);
      http.create(cms(ns), configMap("good"));
    }
    String poisoned = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"bad\",\"namespace\":\""
        + ns + "\",\"finalizers\":[\"example.com/never\"]},\"data\":{\"" + "k".repeat(60_000) + "\":\"v\"}}";
    try (RocksDbStorage storage = RocksDbStorage.builder(dataDir).open()) {
      storage.create("/registry/core/configmaps/" + ns + "/bad", poisoned.getBytes(StandardCharsets.UTF_8)).join();
    }
  }

  /** A Role in {@code ns} letting croc do {@code verbs} on ConfigMaps, bound to croc. */
  private static void grant(KubeHttp admin, String ns, List<String> verbs, boolean create) throws Exception {
    String role = "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\",\"metadata\":{\"name\":\"croc\"},"
        + "\"rules\":[{\"apiGroups\":[\"\"],\"resources\":[\"configmaps\"],\"verbs\":" + JSON.writeValueAsString(verbs)
        + "}]}";
    String roles = "/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/roles";
    if (create) {
      admin.post(roles, role).expect(201);
      admin.post("/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/rolebindings", """
          {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"croc"},
           "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"croc"},
           "subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"croc"}]}""").expect(201);
    } else {
      admin.mergePatch(roles + "/croc", "{\"rules\":" + JSON.readTree(role).path("rules") + "}").expect(200);
    }
  }

  private static JsonNode json(String line) {
    try {
      return JSON.readTree(line);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aCorruptObject_isRemovedWithTheOption_onlyByAUserAllowedTheVerb_andAReadableOneNever(@TempDir Path dataDir)
      throws Exception {
    String ns = "unsafe";
    poisonedStore(dataDir, ns);
    Path audit = dataDir.resolve("audit.log");
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).tls().featureGates(ON).auditLog(audit).build().start();
        KubeHttp admin = new KubeHttp(server.url(), server.clientSslContext("admin", "system:masters"));
        KubeHttp croc = new KubeHttp(server.url(), server.clientSslContext("croc"))) {
      grant(admin, ns, List.of("get", "list", "delete", "deletecollection"), true);
      String bad = cms(ns) + "/bad";
      Await.until("croc may read ConfigMaps", Duration.ofSeconds(10), () -> croc.get(cms(ns) + "/good").code() == 200);

      // without the option a corrupt object cannot be deleted, as in kube, whose words name it
      for (KubeHttp.Response r : List.of(croc.delete(bad), croc.get(bad))) {
        assertThat(assertFailureStatus(r, 500, "InternalError").path("message").asText()).startsWith(
            "Internal error occurred: StorageError: corrupt object, Code: 7, Key: /registry/core/configmaps/" + ns
            + "/bad, ResourceVersion: ");
      }

      // with it, but without the verb: 403 naming the verb
      JsonNode forbidden = assertFailureStatus(croc.delete(bad + "?" + OPTION + "=true"), 403, "Forbidden");
      assertThat(forbidden.path("message").asText())
          .isEqualTo("configmaps \"bad\" is forbidden: not permitted to do \"unsafe-delete-ignore-read-errors\", reason: ");

      grant(admin, ns, List.of("get", "list", "delete", "deletecollection", "unsafe-delete-ignore-read-errors"), false);
      Await.until("croc may do unsafe deletes", Duration.ofSeconds(10),
          () -> croc.delete(cms(ns) + "/none?" + OPTION + "=true").code() != 403);

      // the option takes no other option (kube's ValidateDeleteOptions), in the body or the query
      JsonNode withGrace = assertFailureStatus(croc.delete(bad + "?gracePeriodSeconds=0",
          "{\"" + OPTION + "\":true,\"preconditions\":{}}"), 422, "Invalid");
      assertThat(withGrace.path("message").asText()).isEqualTo("DeleteOptions.meta.k8s.io \"\" is invalid: ["
          + OPTION + ": Invalid value: true: cannot be set together with .gracePeriodSeconds, "
          + OPTION + ": Invalid value: true: cannot be set together with .preconditions]");
      // nor a collection
      JsonNode collection = assertFailureStatus(croc.delete(cms(ns) + "?" + OPTION + "=true"), 422, "Invalid");
      assertThat(collection.path("message").asText()).endsWith(
          OPTION + ": Invalid value: true: is not allowed with DELETECOLLECTION, try again after removing the option");
      // a readable object, or none, is not deleted this way
      for (String name : List.of("good", "none")) {
        JsonNode readable = assertFailureStatus(croc.delete(cms(ns) + "/" + name + "?" + OPTION + "=true"), 422,
            "Invalid");
        assertThat(readable.path("message").asText()).isEqualTo("configmaps \"" + name + "\" is invalid: " + OPTION
            + ": Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option");
      }
      assertThat(names(admin.list(cms(ns)))).contains("good").doesNotContain("bad", "none");

      // the corrupt one goes, its finalizer notwithstanding; the answer is kube's Status of code 200
      JsonNode deleted = croc.delete(bad + "?" + OPTION + "=true").expect(200);
      assertThat(deleted.path("status").asText()).isEqualTo("Success");
      assertThat(deleted.path("code").asInt()).isEqualTo(200);
      assertThat(deleted.path("details").path("name").asText()).isEqualTo("bad");
      assertThat(deleted.path("details").path("kind").asText()).isEqualTo("ConfigMap");

      assertFailureStatus(admin.get(bad), 404, "NotFound");
      admin.create(cms(ns), configMap("bad"));
      assertThat(names(admin.list(cms(ns)))).contains("bad", "good");
    }
    // the audit events of the deletes that asked for it (and passed validation) say so, and only those
    List<JsonNode> annotated = Files.readAllLines(audit).stream().map(UnsafeDeleteTest::json)
        .filter(e -> e.path("annotations").has("apiserver.k8s.io/unsafe-delete-ignore-read-error")).toList();
    assertThat(annotated).as("403, readable, missing and deleted, at least").hasSizeGreaterThanOrEqualTo(5)
        .allSatisfy(e -> assertThat(e.path("requestURI").asText()).contains(OPTION + "=true"));
    // and the store no longer holds it: a restart finds nothing unreadable
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).build().start(); KubeHttp http = new KubeHttp(server)) {
      assertThat(names(http.list(cms(ns)))).contains("bad", "good");
      assertThat(http.get(cms(ns) + "/bad").code()).isEqualTo(200);
    }
  }

  /** With the gate off, as kube's default, the option is dropped: the delete is an ordinary one. */
  @Test
  void withTheGateOff_theOptionIsIgnored(@TempDir Path dataDir) throws Exception {
    String ns = "gated";
    poisonedStore(dataDir, ns);
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).build().start(); KubeHttp http = new KubeHttp(server)) {
      assertFailureStatus(http.delete(cms(ns) + "/bad?" + OPTION + "=true"), 500, "InternalError");
      // not validated either: with another option it is an ordinary delete
      http.delete(cms(ns) + "/good?gracePeriodSeconds=0&" + OPTION + "=true").expect(200);
      // a value that is no boolean is refused all the same, as kube's query decoding does
      assertFailureStatus(http.delete(cms(ns) + "/bad?" + OPTION + "=yes"), 400, "BadRequest");
      assertThat(http.get(cms(ns) + "/bad").code()).isEqualTo(500);
    }
  }
}
