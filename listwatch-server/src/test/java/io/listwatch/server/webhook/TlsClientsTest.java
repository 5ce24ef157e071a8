package io.listwatch.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.apiserver.webhook.TlsClients;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTPS clients the server calls out with: an APIService's caBundle and name are checked,
 * and {@code insecureSkipTLSVerify} checks nothing.
 */
class TlsClientsTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final TestWebhookServer server = new TestWebhookServer(List.of("api.metrics.svc", "127.0.0.1"))
      .handle("/apis", r -> "{\"ok\":true}");
  private final TlsClients clients = new TlsClients();

  @AfterEach
  void stop() {
    server.close();
  }

  private int get(byte[] caBundle, String name, boolean insecure) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + "/apis"))
        .timeout(TIMEOUT).GET().build();
    return clients.client(caBundle, name, insecure, TIMEOUT).send(request, HttpResponse.BodyHandlers.ofString())
        .statusCode();
  }

  @Test
  void caBundleAndName_areChecked() throws Exception {
    byte[] ca = Base64.getDecoder().decode(server.caBundle());
    assertThat(get(ca, "api.metrics.svc", false)).isEqualTo(200);
    assertThatThrownBy(() -> get(ca, "other.metrics.svc", false)).isInstanceOf(SSLHandshakeException.class);
    byte[] otherCa;
    try (TestWebhookServer other = new TestWebhookServer(List.of("x"))) {
      otherCa = Base64.getDecoder().decode(other.caBundle());
    }
    assertThatThrownBy(() -> get(otherCa, "api.metrics.svc", false)).isInstanceOf(SSLHandshakeException.class);
  }

  @Test
  void insecureSkipTlsVerify_trustsAnyCertificateAndName() throws Exception {
    assertThat(get(new byte[0], "", true)).isEqualTo(200);
    assertThat(get("".getBytes(StandardCharsets.US_ASCII), "whatever.svc", true)).isEqualTo(200);
  }
}
