package io.listwatch.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.server.tls.CertificateAuthority;
import io.listwatch.server.tls.CertifiedKey;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.etcd.EtcdStorage;
import io.listwatch.storage.etcd.testing.EtcdServer;
import io.listwatch.testsupport.EndToEnd;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server over an etcd that speaks only TLS and asks for client certificates, as etcd is
 * run for kube-apiserver: {@code --etcd-cafile}, {@code --etcd-certfile} and
 * {@code --etcd-keyfile} get it in, and without a client certificate it is kept out with a
 * clear error.
 */
@EndToEnd
class EtcdTlsTest {

  @TempDir
  Path dir;
  private EtcdServer etcd;
  private Path ca;
  private Path clientCert;
  private Path clientKey;

  @BeforeEach
  void startEtcdWithTls() throws Exception {
    CertificateAuthority authority = CertificateAuthority.create("etcd-ca");
    ca = dir.resolve("ca.crt");
    authority.certifiedKey().write(ca, dir.resolve("ca.key"));
    authority.issueServing("etcd", List.of("127.0.0.1")).write(dir.resolve("etcd.crt"), dir.resolve("etcd.key"));
    CertifiedKey client = authority.issueClient("apiserver-etcd-client", List.of());
    clientCert = dir.resolve("client.crt");
    clientKey = dir.resolve("client.key");
    client.write(clientCert, clientKey);
    etcd = EtcdServer.start(dir.resolve("etcd"),
        new EtcdServer.Tls(dir.resolve("etcd.crt"), dir.resolve("etcd.key"), ca));
  }

  @AfterEach
  void stopEtcd() throws Exception {
    etcd.close();
  }

  @Test
  void serverWithTheClientCertificate_storesInEtcdOverTls() throws Exception {
    assertThat(etcd.endpoint().getScheme()).isEqualTo("https");
    try (ApiServer server = ApiServer.builder().dataDir(dir.resolve("server")).etcdServers(List.of(etcd.endpoint()))
        .etcdTls(ca, clientCert, clientKey).build().start()) {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(server.url()
              + "/api/v1/namespaces/default/configmaps")).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(
              "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"over-tls\"}}")).build(),
          HttpResponse.BodyHandlers.ofString());

      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    }
    try (EtcdStorage store = EtcdStorage.builder(List.of(etcd.endpoint())).tls(ca, clientCert, clientKey)
        .compactionInterval(Duration.ZERO).open()) {
      assertThat(store.get("/registry/core/configmaps/default/over-tls").join()).isPresent();
    }
  }

  @Test
  void storeWithoutAClientCertificate_failsToOpen_withUnavailableNamingTheEndpoint() {
    assertThatThrownBy(() -> EtcdStorage.builder(List.of(etcd.endpoint())).tls(ca, null, null)
        .requestTimeout(Duration.ofSeconds(4)).compactionInterval(Duration.ZERO).open())
        .isInstanceOfSatisfying(StorageException.class, e -> {
          assertThat(e.code()).isEqualTo(StorageException.Code.UNAVAILABLE);
          assertThat(e.getMessage()).contains(etcd.endpoint().toString());
        });
  }
}
