package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.assertFailureStatus;
import static io.listwatch.server.http.KubeHttp.object;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The versions of a custom resource over HTTP: every served version is its own resource over
 * the same objects (stored in the storage version; conversion None rewrites apiVersion), the
 * served version's schema defaults apply on read, {@code served: false} is not served, a
 * deprecated version warns, and discovery prefers the highest-priority version.
 */
@ExtendWith(ApiServerExtension.class)
class CustomResourceVersionsTest {

  private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  private static KubeHttp http;

  @BeforeAll
  static void connect(ApiServer server) {
    http = new KubeHttp(server);
  }

  @AfterAll
  static void disconnect() {
    http.close();
  }

  /** A definition in {@code group} with v1 (storage), v2 (default colour blue), v1beta1 (deprecated) and v0 (not served). */
  static ObjectNode definition(String group) {
    return object("""
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
         "metadata":{"name":"boxes.%s"},
         "spec":{"group":"%s","scope":"Namespaced",
          "names":{"plural":"boxes","singular":"box","kind":"Box"},
          "versions":[
           {"name":"v1beta1","served":true,"storage":false,"deprecated":true,
            "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
           {"name":"v1","served":true,"storage":true,
            "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
           {"name":"v2","served":true,"storage":false,
            "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
              "x-kubernetes-preserve-unknown-fields":true,
              "properties":{"colour":{"type":"string","default":"blue"}}}}}}},
           {"name":"v0","served":false,"storage":false,
            "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}
        """.formatted(group, group));
  }

  private static String boxes(String group, String version, String ns) {
    return "/apis/" + group + "/" + version + "/namespaces/" + ns + "/boxes";
  }

  @Test
  void anObjectCreatedThroughOneVersion_readsThroughTheOther_withItsApiVersion() {
    String group = "versions.example.com";
    http.create(CRDS, definition(group));
    http.awaitEstablished("boxes." + group);
    String ns = http.createNamespace("boxes");

    JsonNode created = http.create(boxes(group, "v2", ns), object("""
        {"apiVersion":"%s/v2","kind":"Box","metadata":{"name":"b2"},"spec":{"size":2}}""".formatted(group)));
    http.create(boxes(group, "v1", ns), object("""
        {"apiVersion":"%s/v1","kind":"Box","metadata":{"name":"b1"},"spec":{"size":1}}""".formatted(group)));

    assertThat(created.path("apiVersion").asText()).as("a write answers in the version asked").isEqualTo(group + "/v2");
    JsonNode b2ThroughV1 = http.get(boxes(group, "v1", ns) + "/b2").expect(200);
    assertThat(b2ThroughV1.path("apiVersion").asText()).isEqualTo(group + "/v1");
    assertThat(b2ThroughV1.path("spec").path("size").asInt()).isEqualTo(2);
    JsonNode b1ThroughV2 = http.get(boxes(group, "v2", ns) + "/b1").expect(200);
    assertThat(b1ThroughV2.path("apiVersion").asText()).isEqualTo(group + "/v2");
    assertThat(b1ThroughV2.path("spec").path("colour").asText()).as("v2's default, applied on read").isEqualTo("blue");
    assertThat(http.get(boxes(group, "v1", ns) + "/b1").expect(200).path("spec").has("colour"))
        .as("v1 has no such default").isFalse();
    JsonNode listV2 = http.list(boxes(group, "v2", ns));
    assertThat(listV2.path("apiVersion").asText()).isEqualTo(group + "/v2");
    List<String> apiVersions = new ArrayList<>();
    listV2.path("items").forEach(i -> apiVersions.add(i.path("apiVersion").asText()));
    assertThat(apiVersions).containsExactly(group + "/v2", group + "/v2");
  }

  @Test
  void aWriteThroughAnotherVersion_isStoredInTheStorageVersion_andWatchersOfEachVersionSeeTheirOwn() {
    String group = "watch.example.com";
    http.create(CRDS, definition(group));
    http.awaitEstablished("boxes." + group);
    String ns = http.createNamespace("boxes");
    try (WatchStream v1 = http.watch(boxes(group, "v1", ns)); WatchStream v2 = http.watch(boxes(group, "v2", ns))) {
      http.create(boxes(group, "v2", ns), object("""
          {"apiVersion":"%s/v2","kind":"Box","metadata":{"name":"w"},"spec":{}}""".formatted(group)));

      JsonNode seenByV1 = v1.next();
      JsonNode seenByV2 = v2.next();
      assertThat(seenByV1.path("object").path("apiVersion").asText()).isEqualTo(group + "/v1");
      assertThat(seenByV2.path("object").path("apiVersion").asText()).isEqualTo(group + "/v2");
      assertThat(seenByV2.path("object").path("spec").path("colour").asText()).isEqualTo("blue");

      http.mergePatch(boxes(group, "v1", ns) + "/w", object("{\"spec\":{\"size\":5}}")).expect(200);
      assertThat(v2.next().path("object").path("spec").path("size").asInt()).isEqualTo(5);
      assertThat(v1.next().path("object").path("apiVersion").asText()).isEqualTo(group + "/v1");
    }
  }

  @Test
  void aVersionNotServed_is404_andADeprecatedOneWarns() {
    String group = "served.example.com";
    http.create(CRDS, definition(group));
    http.awaitEstablished("boxes." + group);
    String ns = http.createNamespace("boxes");

    assertFailureStatus(http.get(boxes(group, "v0", ns)), 404, "NotFound");
    KubeHttp.Response deprecated = http.get(boxes(group, "v1beta1", ns));
    assertThat(deprecated.code()).isEqualTo(200);
    assertThat(deprecated.headers().allValues("warning"))
        .containsExactly("299 - \"" + group + "/v1beta1 Box is deprecated; use " + group + "/v2 Box\"");
    assertThat(http.get(boxes(group, "v1", ns)).headers().allValues("warning")).isEmpty();
    KubeHttp.Response missing = http.get(boxes(group, "v1beta1", ns) + "/missing");
    assertThat(missing.code()).isEqualTo(404);
    assertThat(missing.headers().allValues("warning")).as("failures warn too").hasSize(1);
    try (WatchStream w = http.watch(boxes(group, "v1beta1", ns))) {
      assertThat(w.headers().allValues("warning")).hasSize(1);
    }
  }

  @Test
  void discovery_listsTheServedVersions_preferringTheHighestPriority() {
    String group = "discovery.example.com";
    http.create(CRDS, definition(group));
    http.awaitEstablished("boxes." + group);

    Await.until("the group in discovery", Duration.ofSeconds(15), () -> {
      for (JsonNode g : http.get("/apis").expect(200).path("groups")) {
        if (g.path("name").asText().equals(group)) {
          List<String> versions = new ArrayList<>();
          g.path("versions").forEach(v -> versions.add(v.path("version").asText()));
          assertThat(versions).containsExactly("v2", "v1", "v1beta1");
          assertThat(g.path("preferredVersion").path("version").asText()).isEqualTo("v2");
          return true;
        }
      }
      return false;
    });
    http.get("/apis/" + group + "/v0").expect(404);
  }

  @Test
  void changingTheStorageVersion_accumulatesStoredVersions() {
    String group = "stored.example.com";
    String name = "boxes." + group;
    http.create(CRDS, definition(group));
    http.awaitEstablished(name);
    ObjectNode crd = (ObjectNode) http.get(CRDS + "/" + name).expect(200);
    for (JsonNode v : crd.path("spec").path("versions")) {
      ((ObjectNode) v).put("storage", v.path("name").asText().equals("v2"));
    }
    http.put(CRDS + "/" + name, crd).expect(200);

    Await.until("storedVersions has both", Duration.ofSeconds(15), () -> {
      List<String> stored = new ArrayList<>();
      http.get(CRDS + "/" + name).expect(200).path("status").path("storedVersions")
          .forEach(v -> stored.add(v.asText()));
      return stored.equals(List.of("v1", "v2"));
    });
  }
}
