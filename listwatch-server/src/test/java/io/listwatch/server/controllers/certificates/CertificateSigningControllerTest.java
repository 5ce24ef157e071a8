package io.listwatch.server.controllers.certificates;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The signing controller and the certificates admission plug-ins in a TLS server: an approved
 * request of kube's signers gets its certificate from the server's client CA, or a Failed
 * condition when the signer refuses it; approving needs {@code approve} on the signer (RBAC).
 */
class CertificateSigningControllerTest {

  private static final Duration BOUND = Duration.ofSeconds(20);
  private static final String CSRS = "/apis/certificates.k8s.io/v1/certificatesigningrequests";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static ApiServer server;
  private static HttpClient admin;

  @BeforeAll
  static void start() {
    server = ApiServer.builder().tls().build().start();
    admin = client("admin", "system:masters");
  }

  @AfterAll
  static void stop() {
    admin.close();
    server.close();
  }

  private static HttpClient client(String user, String... groups) {
    return HttpClient.newBuilder().sslContext(server.clientSslContext(user, groups)).build();
  }

  private static HttpResponse<String> send(HttpClient c, String method, String path, Object body) {
    try {
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path))
          .header("Content-Type", "application/json");
      b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
          : HttpRequest.BodyPublishers.ofString(body instanceof String s ? s : JSON.writeValueAsString(body)));
      return c.send(b.build(), HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static JsonNode json(HttpResponse<String> r) {
    try {
      return JSON.readTree(r.body());
    } catch (Exception e) {
      throw new AssertionError(r.body(), e);
    }
  }

  static String csr(String name, String signer, String pem, List<String> usages) throws Exception {
    ObjectNode o = JSON.createObjectNode();
    o.put("apiVersion", "certificates.k8s.io/v1").put("kind", "CertificateSigningRequest");
    o.putObject("metadata").put("name", name);
    ObjectNode spec = o.putObject("spec");
    spec.put("request", Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII)))
        .put("signerName", signer).put("expirationSeconds", 3600);
    usages.forEach(spec.putArray("usages")::add);
    return JSON.writeValueAsString(o);
  }

  private static HttpResponse<String> approve(HttpClient c, String name) {
    ObjectNode current = (ObjectNode) json(send(admin, "GET", CSRS + "/" + name, null));
    current.with("status").withArray("conditions").addObject().put("type", "Approved").put("status", "True")
        .put("reason", "TestApprove").put("message", "approved by the test");
    return send(c, "PUT", CSRS + "/" + name + "/approval", current);
  }

  private static JsonNode awaitStatus(String name, String what, java.util.function.Predicate<JsonNode> done) {
    return Await.until(what, BOUND, () -> json(send(admin, "GET", CSRS + "/" + name, null)).path("status"), done);
  }

  @Test
  void approvedKubeletServingRequest_isIssuedByTheClientCa() throws Exception {
    String pem = TestRequests.pem(TestRequests.keyPair(), "system:node:node-1", List.of("system:nodes"),
        List.of("DNS:node-1.example", "IP:10.0.0.7"));
    assertThat(send(admin, "POST", CSRS, csr("node-1-serving", "kubernetes.io/kubelet-serving", pem,
        List.of("digital signature", "server auth"))).statusCode()).isEqualTo(201);
    assertThat(approve(admin, "node-1-serving").statusCode()).isEqualTo(200);

    JsonNode status = awaitStatus("node-1-serving", "the certificate is issued",
        s -> !s.path("certificate").asText("").isEmpty());
    X509Certificate c = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(
        new ByteArrayInputStream(Base64.getDecoder().decode(status.path("certificate").asText())));
    c.verify(server.caCertificate().getPublicKey());
    assertThat(c.getSubjectX500Principal().getName()).isEqualTo("CN=system:node:node-1,O=system:nodes");
    assertThat(c.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
    assertThat(c.getSubjectAlternativeNames()).containsExactly(List.of(2, "node-1.example"), List.of(7, "10.0.0.7"));
    assertThat(Duration.between(c.getNotBefore().toInstant(), c.getNotAfter().toInstant()))
        .isEqualTo(Duration.ofMinutes(65)); // 1 hour asked, started 5 minutes early
  }

  @Test
  void approvedRequestTheSignerRefuses_isMarkedFailed() throws Exception {
    String pem = TestRequests.pem(TestRequests.keyPair(), "system:node:node-2", List.of("system:nodes"),
        List.of("DNS:node-2.example"));
    send(admin, "POST", CSRS, csr("node-2-serving", "kubernetes.io/kubelet-serving", pem,
        List.of("digital signature", "client auth")));
    approve(admin, "node-2-serving");

    JsonNode status = awaitStatus("node-2-serving", "the request is marked Failed",
        s -> s.path("conditions").size() == 2);
    // kube's status strategy keeps the approval conditions last
    assertThat(status.path("conditions").findValuesAsText("type")).containsExactly("Failed", "Approved");
    JsonNode failed = status.path("conditions").get(0);
    assertThat(failed.path("status").asText()).isEqualTo("True");
    assertThat(failed.path("reason").asText()).isEqualTo("SignerValidationFailure");
    assertThat(failed.path("message").asText())
        .isEqualTo("usages did not match [digital signature key encipherment server auth]");
    assertThat(status.has("certificate")).isFalse();
  }

  @Test
  void approving_needsApproveOnTheSigner() throws Exception {
    String pem = TestRequests.pem(TestRequests.keyPair(), "carol", List.of("dev"), List.of());
    send(admin, "POST", CSRS, csr("carol", "kubernetes.io/kube-apiserver-client", pem, List.of("client auth")));
    // bob may update /approval, but approve no signer
    send(admin, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", """
        {"metadata":{"name":"csr-approver"},"rules":[
          {"apiGroups":["certificates.k8s.io"],"resources":["certificatesigningrequests"],"verbs":["get"]},
          {"apiGroups":["certificates.k8s.io"],"resources":["certificatesigningrequests/approval"],"verbs":["update"]}]}""");
    send(admin, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", """
        {"metadata":{"name":"bob-approves"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole",
         "name":"csr-approver"},"subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"bob"}]}""");
    try (HttpClient bob = client("bob")) {
      HttpResponse<String> refused = Await.until("RBAC lets bob update /approval", BOUND, () -> approve(bob, "carol"),
          r -> r.statusCode() != 403 || json(r).path("message").asText().contains("user not permitted"));
      assertThat(refused.statusCode()).isEqualTo(403);
      assertThat(json(refused).path("message").asText()).isEqualTo("certificatesigningrequests.certificates.k8s.io "
          + "\"carol\" is forbidden: user not permitted to approve requests with signerName "
          + "\"kubernetes.io/kube-apiserver-client\"");

      send(admin, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", """
          {"metadata":{"name":"kubernetes-signers-approver"},"rules":[{"apiGroups":["certificates.k8s.io"],
           "resources":["signers"],"resourceNames":["kubernetes.io/*"],"verbs":["approve"]}]}""");
      send(admin, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", """
          {"metadata":{"name":"bob-approves-kubernetes-signers"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io",
           "kind":"ClusterRole","name":"kubernetes-signers-approver"},
           "subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"bob"}]}""");
      HttpResponse<String> approved = Await.until("bob may approve kubernetes.io/* signers", BOUND,
          () -> approve(bob, "carol"), r -> r.statusCode() == 200);
      assertThat(json(approved).at("/status/conditions/0/type").asText()).isEqualTo("Approved");
    }
  }
}
