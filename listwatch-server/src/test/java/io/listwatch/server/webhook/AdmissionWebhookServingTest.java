package io.listwatch.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Admission webhooks called by a running server over HTTPS at a {@code url}: a mutating webhook's
 * patch reaches the stored object; a validating webhook that does not answer within its
 * {@code timeoutSeconds} fails the write with kube's 500. (The Service-referenced ones, as
 * kubectl meets them, are in {@code KubectlAdmissionWebhookTest}.)
 */
@ExtendWith(ApiServerExtension.class)
class AdmissionWebhookServingTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration CONFIGURED = Duration.ofSeconds(20);

  private final HttpClient http = HttpClient.newHttpClient();
  private final CountDownLatch released = new CountDownLatch(1);
  private TestWebhookServer hooks;
  private String base;

  @BeforeEach
  void start(ApiServer server) {
    base = server.url();
    hooks = new TestWebhookServer(List.of("127.0.0.1"))
        .handle("/mutate", r -> answer(r.body(), "\"allowed\":true,\"patchType\":\"JSONPatch\",\"patch\":\""
            + Base64.getEncoder().encodeToString("[{\"op\":\"add\",\"path\":\"/metadata/labels/hooked\",\"value\":\"yes\"}]"
                .getBytes(StandardCharsets.UTF_8)) + "\""))
        .handle("/slow", r -> {
          try {
            released.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return answer(r.body(), "\"allowed\":true");
        });
  }

  @AfterEach
  void stop() {
    released.countDown();
    hooks.close();
  }

  private static String answer(String posted, String fields) {
    try {
      String uid = JSON.readTree(posted).path("request").path("uid").asText();
      return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"response\":{\"uid\":\"" + uid + "\","
          + fields + "}}";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A webhook on creates of ConfigMaps labelled {@code test: <name>}. */
  private String webhook(String name, String path, String extra) {
    return "{\"name\":\"" + name + "\",\"clientConfig\":{\"url\":\"https://127.0.0.1:" + hooks.port() + path
        + "\",\"caBundle\":\"" + hooks.caBundle() + "\"},\"rules\":[{\"operations\":[\"CREATE\"],\"apiGroups\":[\"\"],"
        + "\"apiVersions\":[\"v1\"],\"resources\":[\"configmaps\"]}],\"sideEffects\":\"None\","
        + "\"admissionReviewVersions\":[\"v1\"],\"objectSelector\":{\"matchLabels\":{\"test\":\"" + name + "\"}}"
        + extra + "}";
  }

  /** Creates ConfigMaps {@code <prefix>-N} until one passes {@code done} (the server's cache has the configuration). */
  private HttpResponse<String> createUntil(String prefix, String test,
      java.util.function.Predicate<HttpResponse<String>> done)
      throws Exception {
    Instant deadline = Instant.now().plus(CONFIGURED);
    int n = 0;
    HttpResponse<String> r;
    do {
      r = post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"" + prefix + "-" + n++
          + "\",\"labels\":{\"test\":\"" + test + "\"}}}");
    } while (!done.test(r) && Instant.now().isBefore(deadline));
    return r;
  }

  @Test
  void aMutatingWebhooksPatch_isStored() throws Exception {
    assertThat(post("/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations",
        "{\"metadata\":{\"name\":\"label\"},\"webhooks\":[" + webhook("label.example.com", "/mutate", "") + "]}")
        .statusCode()).isEqualTo(201);
    HttpResponse<String> created = createUntil("labelled", "label.example.com", r -> r.body().contains("hooked"));
    assertThat(created.statusCode()).isEqualTo(201);
    JsonNode stored = JSON.readTree(created.body());
    assertThat(stored.path("metadata").path("labels").toString()).isEqualTo("{\"test\":\"label.example.com\",\"hooked\":\"yes\"}");
  }

  @Test
  void aValidatingWebhookThatTimesOut_failsTheWriteWithKubes500() throws Exception {
    assertThat(post("/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
        "{\"metadata\":{\"name\":\"slow\"},\"webhooks\":[" + webhook("slow.example.com", "/slow",
            ",\"timeoutSeconds\":1") + "]}").statusCode()).isEqualTo(201);
    HttpResponse<String> refused = createUntil("slow", "slow.example.com", r -> r.statusCode() != 201);
    released.countDown();
    assertThat(refused.statusCode()).isEqualTo(500);
    JsonNode status = JSON.readTree(refused.body());
    assertThat(status.path("reason").asText()).isEqualTo("InternalError");
    assertThat(status.path("message").asText()).isEqualTo("Internal error occurred: failed calling webhook "
        + "\"slow.example.com\": failed to call webhook: Post \"https://127.0.0.1:" + hooks.port()
        + "/slow?timeout=1s\": context deadline exceeded");
  }
}
