package io.listwatch.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.admission.Listers;
import io.listwatch.apiserver.webhook.ServiceResolver;
import io.listwatch.apiserver.webhook.WebhookCallException;
import io.listwatch.apiserver.webhook.WebhookClient;
import io.listwatch.apiserver.webhook.WebhookClientConfig;
import io.listwatch.server.tls.CertificateAuthority;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The shared webhook caller against a real HTTPS server: trust, names, Services, timeouts. */
class WebhookClientTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TEN_SECONDS = Duration.ofSeconds(10);

  private final TestWebhookServer hook = new TestWebhookServer(List.of("hook.webhooks.svc", "127.0.0.1"))
      .handle("/echo", r -> "{\"query\":\"" + r.query() + "\",\"got\":" + r.body() + "}");
  private final Map<String, ObjectNode> objects = new HashMap<>();
  private final WebhookClient client = new WebhookClient(new ServiceResolver(new Listers() {
    @Override
    public Optional<ObjectNode> get(String group, String plural, String namespace, String name) {
      return Optional.ofNullable(objects.get(plural + "/" + namespace + "/" + name)).map(ObjectNode::deepCopy);
    }

    @Override
    public List<ObjectNode> list(String group, String plural, String namespace) {
      return List.of();
    }
  }));

  @AfterEach
  void stop() {
    hook.close();
  }

  private WebhookClientConfig config(String clientConfig) throws Exception {
    return WebhookClientConfig.parse(JSON.readTree(clientConfig));
  }

  private String post(WebhookClientConfig config) {
    WebhookClient.Response r = client.post(config, "{\"a\":1}".getBytes(StandardCharsets.UTF_8), TEN_SECONDS).join();
    assertThat(r.status()).isEqualTo(200);
    return new String(r.body(), StandardCharsets.UTF_8);
  }

  private void serviceWithEndpoints(int endpointPort) throws Exception {
    objects.put("services/webhooks/hook", (ObjectNode) JSON.readTree(
        "{\"spec\":{\"type\":\"ClusterIP\",\"ports\":[{\"name\":\"https\",\"port\":443,\"targetPort\":9443}]}}"));
    objects.put("endpoints/webhooks/hook", (ObjectNode) JSON.readTree("{\"subsets\":[{\"addresses\":[{\"ip\":\"127.0.0.1\"}],"
        + "\"ports\":[{\"name\":\"https\",\"port\":" + endpointPort + "}]}]}"));
  }

  @Test
  void aUrl_isCalled_withKubesTimeoutParameter_trustingTheCaBundle() throws Exception {
    String answer = post(config("{\"url\":\"https://127.0.0.1:" + hook.port() + "/echo\",\"caBundle\":\""
        + hook.caBundle() + "\"}"));
    assertThat(answer).isEqualTo("{\"query\":\"timeout=10s\",\"got\":{\"a\":1}}");
  }

  @Test
  void aService_isCalledAtAnAddressOfItsEndpoints_byTheServicesName() throws Exception {
    serviceWithEndpoints(hook.port());
    WebhookClientConfig config = config("{\"service\":{\"namespace\":\"webhooks\",\"name\":\"hook\",\"path\":\"/echo\"},"
        + "\"caBundle\":\"" + hook.caBundle() + "\"}");
    assertThat(config.location()).isEqualTo("https://hook.webhooks.svc:443/echo");
    assertThat(post(config)).contains("\"got\":{\"a\":1}");
  }

  @Test
  void anotherCa_orAnotherName_isNotTrusted() throws Exception {
    CertificateAuthority other = CertificateAuthority.create("other");
    String otherCa = java.util.Base64.getEncoder().encodeToString(new io.listwatch.server.tls.CertifiedKey(
        List.of(other.certificate()), other.certifiedKey().privateKey()).certificatePem()
        .getBytes(StandardCharsets.US_ASCII));
    assertThatThrownBy(() -> client.post(config("{\"url\":\"https://127.0.0.1:" + hook.port() + "/echo\",\"caBundle\":\""
        + otherCa + "\"}"), new byte[0], TEN_SECONDS).join())
        .isInstanceOf(CompletionException.class).hasCauseInstanceOf(WebhookCallException.class)
        .hasMessageContaining("Post \"https://127.0.0.1:" + hook.port() + "/echo?timeout=10s\": tls: failed to verify certificate");

    // the certificate names 127.0.0.1 and hook.webhooks.svc, not localhost
    assertThatThrownBy(() -> client.post(config("{\"url\":\"https://localhost:" + hook.port() + "/echo\",\"caBundle\":\""
        + hook.caBundle() + "\"}"), new byte[0], TEN_SECONDS).join())
        .hasCauseInstanceOf(WebhookCallException.class).hasMessageContaining("tls: failed to verify certificate");
  }

  @Test
  void aServiceWithoutThePort_orWithoutEndpoints_failsAsKubeSays() throws Exception {
    serviceWithEndpoints(hook.port());
    assertThatThrownBy(() -> client.post(config("{\"service\":{\"namespace\":\"webhooks\",\"name\":\"hook\",\"port\":8443}}"),
        new byte[0], TEN_SECONDS).join())
        .hasCauseInstanceOf(WebhookCallException.class)
        .hasMessageContaining("no service port 8443 found for service \"hook\"");

    objects.put("endpoints/webhooks/hook", (ObjectNode) JSON.readTree("{\"subsets\":[]}"));
    assertThatThrownBy(() -> client.post(config("{\"service\":{\"namespace\":\"webhooks\",\"name\":\"hook\"}}"),
        new byte[0], TEN_SECONDS).join())
        .hasMessageContaining("no endpoints available for service \"hook\"");

    assertThatThrownBy(() -> client.post(config("{\"service\":{\"namespace\":\"webhooks\",\"name\":\"missing\"}}"),
        new byte[0], TEN_SECONDS).join())
        .hasMessageContaining("service \"missing\" not found");
  }

  @Test
  void aWebhookThatDoesNotAnswerInTime_isAbandoned() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    hook.handle("/slow", r -> {
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return "{}";
    });
    try {
      assertThatThrownBy(() -> client.post(config("{\"url\":\"https://127.0.0.1:" + hook.port() + "/slow\",\"caBundle\":\""
          + hook.caBundle() + "\"}"), new byte[0], Duration.ofMillis(300)).join())
          .hasCauseInstanceOf(WebhookCallException.class).hasMessageContaining("context deadline exceeded")
          .satisfies(e -> assertThat(((WebhookCallException) e.getCause()).timeout()).isTrue());
    } finally {
      release.countDown();
    }
  }
}
