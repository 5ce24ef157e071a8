package io.listwatch.client.internal;

import static io.listwatch.client.internal.TestFiles.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceType;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * TLS end to end against the JDK's HTTPS server (our server has no TLS yet): the configured
 * CA is trusted and no other, client certificates (PKCS#1 RSA, SEC1 EC) are presented, the
 * bearer token is sent, and insecureSkipTlsVerify skips verification.
 */
@Timeout(30)
class TlsTest {

  private static HttpsServer server;
  private static String url;

  @BeforeAll
  static void startServer() throws Exception {
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    SSLContext context = serverContext();
    server.setHttpsConfigurator(new HttpsConfigurator(context) {
      @Override
      public void configure(HttpsParameters params) {
        SSLParameters p = context.getDefaultSSLParameters();
        p.setWantClientAuth(true);
        params.setSSLParameters(p);
      }
    });
    server.createContext("/api/v1/namespaces/default/configmaps/whoami", exchange -> {
      String client;
      try {
        client = ((HttpsExchange) exchange).getSSLSession().getPeerPrincipal().getName();
      } catch (SSLPeerUnverifiedException e) {
        client = "anonymous";
      }
      String auth = String.valueOf(exchange.getRequestHeaders().getFirst("Authorization"));
      byte[] body = ("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"whoami\",\"namespace\":\"default\"},"
          + "\"data\":{\"client\":\"" + client + "\",\"auth\":\"" + auth + "\"}}").getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    url = "https://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterAll
  static void stopServer() {
    server.stop(0);
  }

  private static SSLContext serverContext() throws Exception {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    List<X509Certificate> chain = Pem.certificates(resource("tls/server.crt"), "server");
    keys.setKeyEntry("server", Pem.privateKey(resource("tls/server.key"), "server-key"), new char[0],
        chain.toArray(new X509Certificate[0]));
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, new char[0]);
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", Pem.certificates(resource("tls/ca.crt"), "ca").get(0));
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return context;
  }

  private static DynamicObject whoami(Config config) {
    try (KubeClient client = KubeClient.create(config)) {
      return client.dynamic(ResourceType.CONFIGMAPS).get("default", "whoami").orElseThrow();
    }
  }

  private static String data(DynamicObject o, String key) {
    return o.get("data", key).orElseThrow().asText();
  }

  @Test
  void trustedCa_rsaPkcs1ClientCertificate_andBearerToken() {
    DynamicObject me = whoami(Config.builder(url).caCertPem(resource("tls/ca.crt"))
        .clientCertPem(resource("tls/client.crt")).clientKeyPem(resource("tls/client-pkcs1.key"))
        .token("secret-token").build());
    assertThat(data(me, "client")).contains("CN=rsa-user");
    assertThat(data(me, "auth")).isEqualTo("Bearer secret-token");
  }

  @Test
  void ecClientCertificate() {
    DynamicObject me = whoami(Config.builder(url).caCertPem(resource("tls/ca.crt"))
        .clientCertPem(resource("tls/client-ec.crt")).clientKeyPem(resource("tls/client-ec.key")).build());
    assertThat(data(me, "client")).isEqualTo("CN=ec-user");
    assertThat(data(me, "auth")).isEqualTo("null");
  }

  @Test
  void serverSignedByAnotherCa_isRejected_unlessVerificationIsSkipped() {
    assertThatThrownBy(() -> whoami(Config.builder(url).caCertPem(resource("tls/other-ca.crt")).build()))
        .isInstanceOf(UncheckedIOException.class)
        .hasCauseInstanceOf(javax.net.ssl.SSLHandshakeException.class);
    DynamicObject me = whoami(Config.builder(url).caCertPem(resource("tls/other-ca.crt"))
        .insecureSkipTlsVerify(true).basicAuth("alice", "pw").build());
    assertThat(data(me, "client")).isEqualTo("anonymous");
    assertThat(data(me, "auth")).startsWith("Basic ");
  }
}
