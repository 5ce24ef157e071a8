package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.server.ApiServer;
import io.listwatch.server.tls.CertificateAuthority;
import io.listwatch.server.tls.CertifiedKey;
import io.listwatch.server.tls.TlsConfig;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.EndToEnd;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TLS listener as kube users check it: curl with the admin certificate streams watch
 * events over HTTP/1.1 and, negotiated by ALPN, HTTP/2; a WebSocket watch upgrades on the
 * TLS HTTP/1.1 path; a client without a certificate is
 * anonymous; an untrusted certificate, plain HTTP and a stalled handshake are disconnected.
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
@ApiServerExtension.Tls
class TlsTransportTest {

  private static final Duration WAIT = KubeHttp.WAIT;

  private static KubeHttp admin;

  @BeforeAll
  static void adminClient(ApiServer server) {
    admin = new KubeHttp(server.url(), server.clientSslContext("admin", "system:masters"));
  }

  @AfterAll
  static void closeClient() {
    admin.close();
  }

  private static Path tlsDir(ApiServer server) {
    return server.dataDir().resolve("tls");
  }

  @Test
  void curlHttp11_withAdminCertificate_streamsChunkedWatchEvents(ApiServer server) {
    String ns = admin.createNamespace("curl-h1");
    try (Curl curl = Curl.start(tlsDir(server), "-sk", "-v", "-N", "--http1.1", "--cert", "admin.crt",
        "--key", "admin.key", server.url() + "/api/v1/namespaces/" + ns + "/pods?watch=true")) {
      curl.awaitStderr(l -> l.startsWith("< HTTP/1.1 200"), "with the 200 status line", WAIT);
      curl.awaitStderr(l -> l.equalsIgnoreCase("< transfer-encoding: chunked"), "with chunked encoding", WAIT);
      admin.create("/api/v1/namespaces/" + ns + "/pods", KubeHttp.pod("p1", Map.of(), null));
      String event = curl.awaitStdout(l -> !l.isBlank(), "with an event", WAIT);
      assertThat(event).startsWith("{\"type\":\"ADDED\"").contains("\"name\":\"p1\"");
    }
  }

  @Test
  void curlHttp2_negotiatesH2ByAlpn_andStreamsWatchEvents(ApiServer server) {
    String ns = admin.createNamespace("curl-h2");
    try (Curl curl = Curl.start(tlsDir(server), "-sk", "-v", "-N", "--http2", "--cert", "admin.crt",
        "--key", "admin.key", server.url() + "/api/v1/namespaces/" + ns + "/pods?watch=true")) {
      curl.awaitStderr(l -> l.contains("ALPN") && l.contains("h2"), "saying the server accepted h2 by ALPN", WAIT);
      curl.awaitStderr(l -> l.startsWith("< HTTP/2 200"), "with an HTTP/2 200 status", WAIT);
      admin.create("/api/v1/namespaces/" + ns + "/pods", KubeHttp.pod("p2", Map.of(), null));
      String event = curl.awaitStdout(l -> !l.isBlank(), "with an event", WAIT);
      assertThat(event).startsWith("{\"type\":\"ADDED\"").contains("\"name\":\"p2\"");
    }
    assertThat(server.negotiatedProtocols()).containsKey("h2");
  }

  @Test
  void jdkWebSocketWatch_overTls_upgradesOnTheHttp11Path_andSendsEvents(ApiServer server) {
    String ns = admin.createNamespace("wss");
    String pods = "/api/v1/namespaces/" + ns + "/pods";
    long start = admin.listResourceVersion(pods);
    long http11Before = server.negotiatedProtocols().getOrDefault("http/1.1", 0L);
    try (WebSocketClient ws = WebSocketClient.openTls(server.clientSslContext("admin", "system:masters"),
        server.url(), pods + "?resourceVersion=" + start)) {
      assertThat(server.webSocketWatches()).anyMatch(p -> p.startsWith(pods + "?"));
      admin.create(pods, KubeHttp.pod("p3", Map.of(), null));
      var event = ws.nextEvent();
      assertThat(event.path("type").asText()).isEqualTo("ADDED");
      assertThat(event.at("/object/metadata/name").asText()).isEqualTo("p3");
    }
    assertThat(server.negotiatedProtocols().getOrDefault("http/1.1", 0L))
        .as("the WebSocket connection went through TLS's HTTP/1.1 pipeline").isGreaterThan(http11Before);
  }

  @Test
  void clientWithoutCertificate_isAnonymous(ApiServer server) throws Exception {
    SSLContext anonymous = server.trustingSslContext(); // presents no certificate
    HttpClient client = HttpClient.newBuilder().sslContext(anonymous).connectTimeout(WAIT).build();
    try (client) {
      HttpResponse<String> version = client.send(HttpRequest.newBuilder(URI.create(server.url() + "/version"))
          .timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(version.statusCode()).isEqualTo(200);
      // RBAC (the default) grants system:anonymous the public info paths only; the request
      // filters answer anything else without credentials with 401
      HttpResponse<String> pods = client.send(HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/pods"))
          .timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(pods.statusCode()).isEqualTo(401);
    }
  }

  @Test
  void clientCertificateFromAnotherCa_isRefusedInTheHandshake(ApiServer server, @TempDir Path dir) {
    // curl presents its certificate whatever CAs the server names (the JDK's client would
    // choose to send none, and be anonymous)
    CertifiedKey stranger = CertificateAuthority.create("another-ca").issueClient("admin", List.of("system:masters"));
    stranger.write(dir.resolve("stranger.crt"), dir.resolve("stranger.key"));
    try (Curl curl = Curl.start(dir, "-sk", "--cert", "stranger.crt", "--key", "stranger.key",
        "-o", "body.json", "-w", "%{http_code}", server.url() + "/api/v1/pods")) {
      // with TLS 1.3 the client learns of the refusal after its side of the handshake: curl
      // says 35 (handshake failed), 56 (receive failure) or 16 (HTTP/2 failure) by timing
      assertThat(curl.awaitExit(WAIT)).as("curl's exit code").isNotZero();
      assertThat(dir.resolve("body.json")).doesNotExist();
    }
    // the same request with a certificate of the server's CA is answered
    try (Curl curl = Curl.start(tlsDir(server), "-sk", "--cert", "admin.crt", "--key", "admin.key",
        "-o", "/dev/null", "-w", "%{http_code}\n", server.url() + "/api/v1/pods")) {
      assertThat(curl.awaitStdout(l -> !l.isBlank(), "with the status code", WAIT)).isEqualTo("200");
    }
  }

  @Test
  void plainHttpToTheTlsPort_getsGosBadRequestText_andIsDisconnected(ApiServer server) throws Exception {
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout((int) WAIT.toMillis());
      OutputStream out = s.getOutputStream();
      out.write("GET /api/v1/pods HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertThat(readToEnd(s.getInputStream())).isEqualTo(
          "HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n");
    }
  }

  @Test
  void garbageToTheTlsPort_isDisconnected(ApiServer server) throws Exception {
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout((int) WAIT.toMillis());
      s.getOutputStream().write(new byte[] {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08});
      s.getOutputStream().flush();
      assertThat(readToEnd(s.getInputStream())).isEmpty();
    }
  }

  @Test
  void clientOfferingOnlyAnUnknownAlpnProtocol_failsTheHandshake_onJdkTls() throws Exception {
    // as Go's servers do: a no_application_protocol alert
    try (ApiServer jdk = ApiServer.builder().tls(TlsConfig.DEFAULTS.withProvider(TlsConfig.Provider.JDK)).build().start();
        SSLSocket s = offeringOnly(jdk, "spdy/3")) {
      assertThatThrownBy(s::startHandshake).isInstanceOf(IOException.class)
          .hasMessageContaining("no_application_protocol");
    }
  }

  @Test
  void clientOfferingOnlyAnUnknownAlpnProtocol_getsNoProtocolAndHttp11_onOpenSsl() throws Exception {
    // Netty's OpenSSL binding cannot send the alert: it selects no protocol, and the client
    // then speaks HTTP/1.1 or nothing
    try (ApiServer openssl = ApiServer.builder().tls(TlsConfig.DEFAULTS.withProvider(TlsConfig.Provider.OPENSSL)).build().start();
        SSLSocket s = offeringOnly(openssl, "spdy/3")) {
      s.startHandshake();
      assertThat(s.getApplicationProtocol()).isEmpty();
      s.getOutputStream().write("GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      assertThat(readToEnd(s.getInputStream())).startsWith("HTTP/1.1 200");
    }
  }

  private static SSLSocket offeringOnly(ApiServer server, String protocol) throws IOException {
    SSLContext ctx = server.clientSslContext("admin", "system:masters");
    SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", server.port());
    s.setSoTimeout((int) WAIT.toMillis());
    SSLParameters params = s.getSSLParameters();
    params.setApplicationProtocols(new String[] {protocol});
    s.setSSLParameters(params);
    return s;
  }

  @Test
  void clientWithoutAlpn_speaksHttp11(ApiServer server) throws Exception {
    SSLContext ctx = server.clientSslContext("admin", "system:masters");
    try (SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", server.port())) {
      s.setSoTimeout((int) WAIT.toMillis());
      s.startHandshake();
      s.getOutputStream().write("GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      assertThat(readToEnd(s.getInputStream())).startsWith("HTTP/1.1 200").contains("gitVersion");
    }
  }

  @Test
  void clientThatNeverCompletesTheHandshake_isDisconnected(@TempDir Path dir) throws Exception {
    try (ApiServer server = ApiServer.builder().dataDir(dir)
        .tls(TlsConfig.DEFAULTS.withHandshakeTimeout(Duration.ofMillis(300))).build().start();
        Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout((int) WAIT.toMillis());
      // connected, says nothing: the server closes once the handshake timeout passes
      assertThat(s.getInputStream().read()).isEqualTo(-1);
    }
  }

  /** Everything until the server closes, failing if it does not within the socket timeout. */
  private static String readToEnd(InputStream in) throws IOException {
    try {
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the server kept the connection open", e);
    }
  }
}
