package io.listwatch.server.controllers.certificates;

import static io.listwatch.server.controllers.certificates.SignerValidation.KUBELET_CLIENT;
import static io.listwatch.server.controllers.certificates.SignerValidation.KUBELET_SERVING;
import static io.listwatch.server.controllers.certificates.SignerValidation.KUBE_APISERVER_CLIENT;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What kube's signer checks per signer (signer_test.go's TestHandle and pkg/apis/certificates'
 * helpers_test.go cases), with kube's messages; "" is a request the signer signs.
 */
class SignerValidationTest {

  private static final List<String> NODES = List.of("system:nodes");
  private static final List<String> CLIENT = List.of("client auth", "digital signature", "key encipherment");
  private static final List<String> SERVING = List.of("server auth", "digital signature", "key encipherment");

  private record Case(String name, String signer, String cn, List<String> orgs, List<String> sans, List<String> usages,
      String error) {
  }

  private static final List<Case> CASES = List.of(
      new Case("apiserver client: client auth, digital signature, key encipherment", KUBE_APISERVER_CLIENT,
          "hello-world", List.of("some-org"), List.of(), CLIENT, ""),
      new Case("apiserver client: client auth alone, any subject and names", KUBE_APISERVER_CLIENT, "",
          List.of(), List.of("DNS:example.com"), List.of("client auth"), ""),
      new Case("apiserver client: an unexpected usage", KUBE_APISERVER_CLIENT, "hello-world", List.of("some-org"),
          List.of(), List.of("server auth", "client auth", "digital signature", "key encipherment"),
          "invalid usage for client certificate: server auth"),
      new Case("apiserver client: no client auth", KUBE_APISERVER_CLIENT, "hello-world", List.of(), List.of(),
          List.of("digital signature"), "missing required usage for client certificate: client auth"),

      new Case("kubelet client: signs", KUBELET_CLIENT, "system:node:hello-world", NODES, List.of(), CLIENT, ""),
      new Case("kubelet client: without key encipherment", KUBELET_CLIENT, "system:node:a", NODES, List.of(),
          List.of("digital signature", "client auth"), ""),
      new Case("kubelet client: another organization", KUBELET_CLIENT, "system:node:a", List.of("system:nodes", "x"),
          List.of(), CLIENT, "subject organization is not system:nodes"),
      new Case("kubelet client: DNS name", KUBELET_CLIENT, "system:node:a", NODES, List.of("DNS:a"), CLIENT,
          "DNS subjectAltNames are not allowed"),
      new Case("kubelet client: e-mail", KUBELET_CLIENT, "system:node:a", NODES, List.of("email:a@b.c"), CLIENT,
          "Email subjectAltNames are not allowed"),
      new Case("kubelet client: IP", KUBELET_CLIENT, "system:node:a", NODES, List.of("IP:10.0.0.1"), CLIENT,
          "IP subjectAltNames are not allowed"),
      new Case("kubelet client: URI", KUBELET_CLIENT, "system:node:a", NODES, List.of("URI:spiffe://a/b"), CLIENT,
          "URI subjectAltNames are not allowed"),
      new Case("kubelet client: common name", KUBELET_CLIENT, "a", NODES, List.of(), CLIENT,
          "subject common name does not begin with system:node:"),
      new Case("kubelet client: server auth", KUBELET_CLIENT, "system:node:a", NODES, List.of(), SERVING,
          "usages did not match [client auth digital signature key encipherment]"),

      new Case("kubelet serving: signs", KUBELET_SERVING, "system:node:testnode", NODES, List.of("DNS:example.com"),
          SERVING, ""),
      new Case("kubelet serving: IP, without key encipherment", KUBELET_SERVING, "system:node:a", NODES,
          List.of("IP:10.0.0.1"), List.of("digital signature", "server auth"), ""),
      new Case("kubelet serving: no organization", KUBELET_SERVING, "system:node:a", List.of(),
          List.of("DNS:a"), SERVING, "subject organization is not system:nodes"),
      new Case("kubelet serving: no DNS or IP", KUBELET_SERVING, "system:node:a", NODES, List.of(), SERVING,
          "DNS or IP subjectAltName is required"),
      new Case("kubelet serving: e-mail", KUBELET_SERVING, "system:node:a", NODES, List.of("DNS:a", "email:a@b.c"),
          SERVING, "Email subjectAltNames are not allowed"),
      new Case("kubelet serving: URI", KUBELET_SERVING, "system:node:a", NODES, List.of("IP:::1", "URI:https://a"),
          SERVING, "URI subjectAltNames are not allowed"),
      new Case("kubelet serving: client auth", KUBELET_SERVING, "system:node:a", NODES, List.of("DNS:a"), CLIENT,
          "usages did not match [digital signature key encipherment server auth]"),
      new Case("kubelet serving: common name", KUBELET_SERVING, "node-a", NODES, List.of("DNS:a"), SERVING,
          "subject common name does not begin with system:node:"));

  @Test
  void eachSigner_checksAsKubes() {
    for (Case c : CASES) {
      CertificateRequest r = TestRequests.parsed(c.cn, c.orgs, c.sans);
      assertThat(SignerValidation.validate(c.signer, r, c.usages).orElse("")).as(c.name).isEqualTo(c.error);
    }
  }

  @Test
  void parse_readsTheSubjectAndNamesAsGo() {
    CertificateRequest r = TestRequests.parsed("system:node:a", List.of("system:nodes", "x"),
        List.of("DNS:a.example", "IP:10.0.0.1", "email:a@b.c", "URI:spiffe://a/b"));
    assertThat(r.commonName()).isEqualTo("system:node:a");
    assertThat(r.organizations()).containsExactly("system:nodes", "x");
    assertThat(r.dnsNames()).containsExactly("a.example");
    assertThat(r.ipAddresses()).containsExactly("10.0.0.1");
    assertThat(r.emailAddresses()).containsExactly("a@b.c");
    assertThat(r.uris()).containsExactly("spiffe://a/b");
  }
}
