package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The root CA publisher as a pod's token volume needs it: every namespace has the ConfigMap
 * kube-root-ca.crt with the CA clients verify the server with, put back when deleted or changed.
 */
@ExtendWith(ApiServerExtension.class)
@ApiServerExtension.Tls
class RootCaCertPublisherEndToEndTest {

  private static final Duration WAIT = KubeHttp.WAIT;
  private static final String DESCRIPTION = "Contains a CA bundle that can be used to verify the kube-apiserver when "
      + "using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is "
      + "guaranteed across distributions of Kubernetes clusters.";

  private static KubeHttp admin;

  @BeforeAll
  static void adminClient(ApiServer server) {
    admin = new KubeHttp(server.url(), server.clientSslContext("admin", "system:masters"));
  }

  @AfterAll
  static void closeClient() {
    admin.close();
  }

  private static String path(String ns) {
    return "/api/v1/namespaces/" + ns + "/configmaps/kube-root-ca.crt";
  }

  private static JsonNode published(String ns) {
    return Await.until("kube-root-ca.crt in " + ns, WAIT, () -> admin.get(path(ns)),
        r -> r.code() == 200 && r.json().at("/data/ca.crt").asText().startsWith("-----BEGIN CERTIFICATE-----")).json();
  }

  @Test
  void everyNamespace_hasTheServersCa_asKubeAnnotatesIt(ApiServer server) throws Exception {
    JsonNode cm = published("default");
    assertThat(cm.at("/metadata/annotations/kubernetes.io~1description").asText()).isEqualTo(DESCRIPTION);
    X509Certificate ca = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(
        new ByteArrayInputStream(cm.at("/data/ca.crt").asText().getBytes(StandardCharsets.US_ASCII)));
    assertThat(ca).isEqualTo(server.caCertificate());
    assertThat(cm.path("data").size()).isEqualTo(1);

    String ns = admin.createNamespace("rootca");
    assertThat(published(ns).at("/data/ca.crt").asText()).isEqualTo(cm.at("/data/ca.crt").asText());
  }

  @Test
  void aDeletedOrChangedMap_isPutBack() {
    String ns = admin.createNamespace("rootca-back");
    String pem = published(ns).at("/data/ca.crt").asText();

    admin.delete(path(ns)).expect(200);
    assertThat(published(ns).at("/data/ca.crt").asText()).isEqualTo(pem);

    ObjectNode changed = (ObjectNode) admin.get(path(ns)).expect(200);
    ((ObjectNode) changed.get("data")).put("ca.crt", "not a CA");
    ((ObjectNode) changed.path("metadata").path("annotations")).remove("kubernetes.io/description");
    admin.put(path(ns), changed).expect(200);
    JsonNode back = Await.until("kube-root-ca.crt put back", WAIT, () -> admin.get(path(ns)).json(),
        m -> m.at("/data/ca.crt").asText().equals(pem));
    assertThat(back.at("/metadata/annotations/kubernetes.io~1description").asText()).isEqualTo(DESCRIPTION);
  }
}
