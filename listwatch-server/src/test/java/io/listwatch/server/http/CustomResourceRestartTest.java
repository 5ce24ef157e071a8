package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.object;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Custom resources across a restart on the same data directory: every served version is
 * served again over the stored objects, and a definition whose deletion was waiting on an
 * object's finalizer finishes going once the finalizer is removed.
 */
class CustomResourceRestartTest {

  private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  private static final Duration BOUND = Duration.ofSeconds(15);

  private static ApiServer start(Path dataDir) {
    return ApiServer.builder().dataDir(dataDir).build().start();
  }

  private static String boxes(String group, String version, String ns) {
    return "/apis/" + group + "/" + version + "/namespaces/" + ns + "/boxes";
  }

  private static void awaitServed(KubeHttp http, String path) {
    Await.until(path + " served", BOUND, () -> http.get(path).code() == 200);
  }

  @Test
  void afterARestart_eachVersionServesTheStoredObjects(@TempDir Path dataDir) {
    String group = "restart.example.com";
    String ns;
    try (ApiServer server = start(dataDir); KubeHttp http = new KubeHttp(server)) {
      http.create(CRDS, CustomResourceVersionsTest.definition(group));
      ns = http.createNamespace("boxes");
      awaitServed(http, boxes(group, "v2", ns));
      http.create(boxes(group, "v2", ns), object("""
          {"apiVersion":"%s/v2","kind":"Box","metadata":{"name":"kept"},"spec":{"size":7}}""".formatted(group)));
    }
    try (ApiServer server = start(dataDir); KubeHttp http = new KubeHttp(server)) {
      awaitServed(http, boxes(group, "v1", ns));
      awaitServed(http, boxes(group, "v2", ns));

      JsonNode v1 = http.get(boxes(group, "v1", ns) + "/kept").expect(200);
      JsonNode v2 = http.get(boxes(group, "v2", ns) + "/kept").expect(200);

      assertThat(v1.path("apiVersion").asText()).isEqualTo(group + "/v1");
      assertThat(v1.path("spec").path("size").asInt()).isEqualTo(7);
      assertThat(v2.path("apiVersion").asText()).isEqualTo(group + "/v2");
      assertThat(v2.path("spec").path("colour").asText()).isEqualTo("blue");
    }
  }

  @Test
  void aDefinitionBeingDeletedAtARestart_goesOnceItsLastObjectDoes(@TempDir Path dataDir) {
    String group = "held.example.com";
    String crd = "boxes." + group;
    String ns;
    try (ApiServer server = start(dataDir); KubeHttp http = new KubeHttp(server)) {
      http.create(CRDS, CustomResourceVersionsTest.definition(group));
      ns = http.createNamespace("boxes");
      awaitServed(http, boxes(group, "v1", ns));
      ObjectNode held = object("""
          {"apiVersion":"%s/v1","kind":"Box","metadata":{"name":"held","finalizers":["example.com/hold"]}}"""
          .formatted(group));
      http.create(boxes(group, "v1", ns), held);
      http.delete(CRDS + "/" + crd).expect(200);
      Await.until("the held box marked", BOUND, () -> http.get(boxes(group, "v1", ns) + "/held").json()
          .path("metadata").has("deletionTimestamp"));
    }
    try (ApiServer server = start(dataDir); KubeHttp http = new KubeHttp(server)) {
      awaitServed(http, boxes(group, "v1", ns) + "/held");
      assertThat(http.get(CRDS + "/" + crd).code()).as("still waiting for the held box").isEqualTo(200);

      http.mergePatch(boxes(group, "v1", ns) + "/held", object("{\"metadata\":{\"finalizers\":null}}")).expect(200);

      Await.until(crd + " gone", BOUND, () -> http.get(CRDS + "/" + crd).code() == 404);
      Await.until("boxes no longer served", BOUND, () -> http.get(boxes(group, "v1", ns)).code() == 404);
    }
  }
}
