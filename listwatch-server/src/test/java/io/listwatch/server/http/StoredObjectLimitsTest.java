package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.assertFailureStatus;
import static io.listwatch.server.http.KubeHttp.configMap;
import static io.listwatch.server.http.KubeHttp.names;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.JsonLimits;
import io.listwatch.server.ApiServer;
import io.listwatch.apiserver.protobuf.KubeProtobuf;
import io.listwatch.storage.rocksdb.RocksDbStorage;
import io.listwatch.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whatever the server acknowledges it can read back, after a restart too: every limit a reader
 * applies ({@link JsonLimits}) is checked on write, through every path that writes; and a
 * server that finds an unreadable object in its store reports it and serves everything else.
 */
class StoredObjectLimitsTest {

  /**
   * A free-form map key K is stored twice: as {@code data.K} and as {@code f:K} in the writer's
   * managedFields, two bytes longer. So the longest key that stays readable is the name limit
   * less two. (kube refuses ConfigMap and Secret keys over 253 characters, so the keys here go
   * in a custom resource that keeps unknown fields, and, for the two write paths custom
   * resources do not take, in a node's {@code status.capacity}, whose names kube leaves free.)
   */
  private static final int LONGEST_KEY = JsonLimits.MAX_NAME_LENGTH - 2;

  private static final String KEYEDS_CRD = """
      {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
       "metadata":{"name":"keyeds.example.com"},
       "spec":{"group":"example.com","scope":"Namespaced",
         "names":{"plural":"keyeds","singular":"keyed","kind":"Keyed"},
         "versions":[{"name":"v1","served":true,"storage":true,
           "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}
      """;

  private static String key(int length) {
    return "k".repeat(length);
  }

  private static String cms(String ns) {
    return "/api/v1/namespaces/" + ns + "/configmaps";
  }

  private static String keyeds(String ns) {
    return "/apis/example.com/v1/namespaces/" + ns + "/keyeds";
  }

  /** A Keyed custom resource holding {@code data}. */
  private static ObjectNode keyed(String name, Map<String, String> data) {
    ObjectNode obj = configMap(name, Map.of(), data);
    return obj.put("apiVersion", "example.com/v1").put("kind", "Keyed");
  }

  private static ObjectNode keyed(String name) {
    return keyed(name, Map.of("k", "v"));
  }

  /** A node whose {@code status.capacity} has {@code resource}. */
  private static ObjectNode node(String name, String resource) {
    ObjectNode node = KubeHttp.object("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name + "\"}}");
    node.putObject("status").putObject("capacity").put(resource, "1");
    return node;
  }

  private static void assertRefusedAsUnreadable(KubeHttp.Response r) {
    JsonNode status = assertFailureStatus(r, 422, "Invalid");
    assertThat(status.at("/details/causes/0/reason").asText()).isEqualTo("FieldValueTooLong");
    assertThat(status.at("/details/causes/0/message").asText())
        .isEqualTo("Too long: a field name may not be more than 50000 bytes");
  }

  /** Every path that writes takes a key at the edge and refuses one a byte longer, changing nothing. */
  @Test
  void everyWritePath_storesAKeyAtTheEdge_andRefusesOneByteMore(@TempDir Path dataDir) {
    String ns;
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).build().start(); KubeHttp http = new KubeHttp(server)) {
      ns = http.createNamespace("limits");
      http.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", KubeHttp.object(KEYEDS_CRD)).expect(201);
      String path = keyeds(ns);
      Await.until("the Keyed resource served", KubeHttp.WAIT, () -> http.get(path).code() == 200);
      String at = key(LONGEST_KEY);
      String over = key(LONGEST_KEY + 1);

      // create
      http.create(path, keyed("create", Map.of(at, "v")));
      assertRefusedAsUnreadable(http.post(path, keyed("create-over", Map.of(over, "v"))));

      // update
      JsonNode base = http.create(path, keyed("update"));
      ObjectNode updated = ((ObjectNode) base).deepCopy();
      updated.putObject("data").put(over, "v");
      assertRefusedAsUnreadable(http.put(path + "/update", updated));
      updated.putObject("data").put(at, "v");
      http.put(path + "/update", updated).expect(200);

      // merge patch, JSON patch
      http.create(path, keyed("patched"));
      assertRefusedAsUnreadable(http.mergePatch(path + "/patched", Map.of("data", Map.of(over, "v"))));
      assertRefusedAsUnreadable(http.send("PATCH", path + "/patched", "application/json-patch+json",
          ("[{\"op\":\"add\",\"path\":\"/data\",\"value\":{}},{\"op\":\"add\",\"path\":\"/data/" + over
              + "\",\"value\":\"v\"}]").getBytes(StandardCharsets.UTF_8)));
      http.send("PATCH", path + "/patched", "application/json-patch+json",
          ("[{\"op\":\"add\",\"path\":\"/data\",\"value\":{\"" + at + "\":\"v\"}}]").getBytes(StandardCharsets.UTF_8))
          .expect(200);

      // server-side apply (its field set names the key as f:K too)
      // an explicit YAML key: a plain one may not be longer than 1,024 characters
      String applied = "apiVersion: example.com/v1\nkind: Keyed\nmetadata:\n  name: applied\ndata:\n  ? %s\n  : v\n";
      assertRefusedAsUnreadable(http.send("PATCH", path + "/applied?fieldManager=test",
          "application/apply-patch+yaml", applied.formatted(over).getBytes(StandardCharsets.UTF_8)));
      http.send("PATCH", path + "/applied?fieldManager=test", "application/apply-patch+yaml",
          applied.formatted(at).getBytes(StandardCharsets.UTF_8)).expect(201);

      // protobuf and strategic merge patch (built-in kinds only): a node's status.capacity
      assertRefusedAsUnreadable(http.send("POST", "/api/v1/nodes", KubeProtobuf.MEDIA_TYPE,
          KubeProtobuf.encode(node("proto", over))));
      assertThat(http.send("POST", "/api/v1/nodes", KubeProtobuf.MEDIA_TYPE, KubeProtobuf.encode(node("proto", at))).code())
          .isEqualTo(201);
      http.create("/api/v1/nodes", node("smp", "pods"));
      assertRefusedAsUnreadable(http.send("PATCH", "/api/v1/nodes/smp/status", "application/strategic-merge-patch+json",
          ("{\"status\":{\"capacity\":{\"" + over + "\":\"1\"}}}").getBytes(StandardCharsets.UTF_8)));
      http.send("PATCH", "/api/v1/nodes/smp/status", "application/strategic-merge-patch+json",
          ("{\"status\":{\"capacity\":{\"" + at + "\":\"1\"}}}").getBytes(StandardCharsets.UTF_8)).expect(200);

      // a dry run is refused the same way, and nothing refused was stored
      assertRefusedAsUnreadable(http.post(path + "?dryRun=All", keyed("dry", Map.of(over, "v"))));
      assertThat(names(http.list(path))).containsExactly("applied", "create", "patched", "update");
      assertThat(names(http.list("/api/v1/nodes"))).containsExactly("proto", "smp");
      assertThat(http.get(path + "/patched").expect(200).path("data").has(at)).isTrue();
    }
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).build().start(); KubeHttp http = new KubeHttp(server)) {
      String path = keyeds(ns);
      Await.until("the Keyed resource served", KubeHttp.WAIT, () -> http.get(path).code() == 200);
      JsonNode list = http.list(path);
      assertThat(names(list)).containsExactly("applied", "create", "patched", "update");
      for (JsonNode item : list.path("items")) {
        assertThat(item.path("data").has(key(LONGEST_KEY))).as(item.at("/metadata/name").asText()).isTrue();
      }
      for (JsonNode item : http.list("/api/v1/nodes").path("items")) {
        assertThat(item.at("/status/capacity").has(key(LONGEST_KEY))).as(item.at("/metadata/name").asText()).isTrue();
      }
    }
  }

  /**
   * A 60,000-character container name would reach managedFields as part of a key: refused, not
   * stored unreadable; kube's own validation of the name (a DNS-1123 label) refuses it first.
   */
  @Test
  void aPodWhoseContainerNameMakesAManagedFieldsKeyTooLong_isRefused(@TempDir Path dataDir) {
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).build().start(); KubeHttp http = new KubeHttp(server)) {
      ObjectNode pod = KubeHttp.pod("long", Map.of(), null);
      ((ObjectNode) pod.at("/spec/containers/0")).put("name", "c".repeat(60_000));
      KubeHttp.Response r = http.post("/api/v1/namespaces/default/pods", pod);
      JsonNode status = assertFailureStatus(r, 422, "Invalid");
      assertThat(status.at("/details/causes/0/field").asText()).isEqualTo("spec.containers[0].name");
      assertThat(status.at("/details/causes/0/message").asText()).endsWith("must be no more than 63 characters");
      assertThat(http.list("/api/v1/namespaces/default/pods").path("items")).isEmpty();
    }
  }

  /** An object nesting deeper than a reader takes cannot be built by a patch either; one at the edge is served. */
  @Test
  void aJsonPatchNestingTooDeep_isRefused_andOneAtTheEdgeIsServed(@TempDir Path dataDir) {
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).build().start(); KubeHttp http = new KubeHttp(server)) {
      http.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", KubeHttp.object("""
          {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
           "metadata":{"name":"deeps.example.com"},
           "spec":{"group":"example.com","scope":"Namespaced",
             "names":{"plural":"deeps","singular":"deep","kind":"Deep"},
             "versions":[{"name":"v1","served":true,"storage":true,
               "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}
          """)).expect(201);
      String path = "/apis/example.com/v1/namespaces/default/deeps";
      Await.until("the Deep resource served", KubeHttp.WAIT, () -> http.get(path).code() == 200);
      http.create(path, KubeHttp.object("{\"apiVersion\":\"example.com/v1\",\"kind\":\"Deep\","
          + "\"metadata\":{\"name\":\"d\"},\"spec\":{\"b\":{\"c\":{}}}}"));
      // /spec/b/c/d is four levels down: a value nesting 994 levels makes 998, the most an object may have
      // (a list holds it two levels down, and a reader takes 1,000); one of 995 makes 999
      String over = "[{\"op\":\"add\",\"path\":\"/spec/b/c/d\",\"value\":" + "[".repeat(995) + "]".repeat(995) + "}]";
      KubeHttp.Response r = http.send("PATCH", path + "/d", "application/json-patch+json",
          over.getBytes(StandardCharsets.UTF_8));
      assertFailureStatus(r, 422, "Invalid");
      String atLimit = "[{\"op\":\"add\",\"path\":\"/spec/b/c/d\",\"value\":" + "[".repeat(994) + "]".repeat(994) + "}]";
      http.send("PATCH", path + "/d", "application/json-patch+json", atLimit.getBytes(StandardCharsets.UTF_8)).expect(200);
      JsonNode listed = http.list(path).path("items").get(0);
      assertThat(JsonLimits.depth(listed, 2000)).isEqualTo(JsonLimits.MAX_OBJECT_DEPTH);
    }
  }

  /**
   * An object stored before these checks (or by another program) that no reader takes: the
   * server starts, reports it, leaves it out of lists and watches, answers 500 for it alone, and
   * serves everything else, writes included.
   */
  @Test
  void aServerFindingAnUnreadableStoredObject_startsAndServesEverythingElse(@TempDir Path dataDir) throws Exception {
    String ns;
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).build().start(); KubeHttp http = new KubeHttp(server)) {
      ns = http.createNamespace("poisoned");
      http.create(cms(ns), configMap("good"));
    }
    String poisoned = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"bad\",\"namespace\":\""
        + ns + "\"},\"data\":{\"" + key(60_000) + "\":\"v\"}}";
    try (RocksDbStorage storage = RocksDbStorage.builder(dataDir).open()) {
      storage.create("/registry/core/configmaps/" + ns + "/bad", poisoned.getBytes(StandardCharsets.UTF_8)).join();
    }
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).build().start(); KubeHttp http = new KubeHttp(server)) {
      assertThat(http.get("/readyz").code()).isEqualTo(200);
      assertThat(names(http.list(cms(ns)))).containsExactly("good");
      assertThat(names(http.list(cms(ns) + "?resourceVersion=0"))).containsExactly("good");
      assertThat(names(http.list("/api/v1/configmaps"))).contains("good").doesNotContain("bad");
      JsonNode status = assertFailureStatus(http.get(cms(ns) + "/bad"), 500, "InternalError");
      assertThat(status.path("message").asText()).contains("/registry/core/configmaps/" + ns + "/bad");
      // kube's metric counts it, by resource
      assertThat(http.get("/metrics").body().lines()).contains(
          "apiserver_storage_decode_errors_total{resource=\"configmaps\"} 1.0");
      http.create(cms(ns), configMap("after"));
      assertThat(names(http.list(cms(ns)))).containsExactly("after", "good");
    }
  }
}
