package io.listwatch.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.registry.ResourceRegistry;
import io.listwatch.apiserver.request.UserInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * kube's CertificateApproval, CertificateSigning and CertificateSubjectRestriction plug-ins
 * (their admission_test.go cases): who may approve and sign requests of a signer, asked of the
 * server's authorizer for the signer's name then its domain's wildcard, and the refusal of a
 * kube-apiserver-client request for {@code system:masters}.
 */
class CertificatePluginsTest {

  /** openssl req -subj /CN=alice/O=dev, base64 as spec.request holds it. */
  static final String ALICE = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIYU1JR0FBZ0VBTUI0eERqQU1CZ05WQkFNTUJXRnNhV05sTVF3d0NnWURWUVFLREFOa1pYWXdXVEFUQmdjcQpoa2pPUFFJQkJnZ3Foa2pPUFFNQkJ3TkNBQVFoSUVhcXdvazE1WVBhdkw3aS9ucHMrYkRmQjFTVXF1aTMvVGxKCjBvSTdrY2RBVklzSXdGaVA5K2pOUWpSdVZlZzA1VDBVazd2TFdDSmlBeWh4R2Nka29BQXdDZ1lJS29aSXpqMEUKQXdJRFNRQXdSZ0loQUpnaU9JaGtRR0RydHU4QkVpOThpNUxsWXljbk4xeTh4Zjc4T2JUM3I0NDdBaUVBdk5ERgpzb1hkTHN1QTlsc2Y3SWN3c21kc25LWkdYc3B1TzE1SkFsTThmTFU9Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=";
  /** openssl req -subj /CN=bob/O=dev/O=system:masters. */
  static final String MASTERS = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIeE1JR1hBZ0VBTURVeEREQUtCZ05WQkFNTUEySnZZakVNTUFvR0ExVUVDZ3dEWkdWMk1SY3dGUVlEVlFRSwpEQTV6ZVhOMFpXMDZiV0Z6ZEdWeWN6QlpNQk1HQnlxR1NNNDlBZ0VHQ0NxR1NNNDlBd0VIQTBJQUJGWWh2emlHCkZkV1JxMWpJMmhuYmIvWGdkQzRaa20wWWFlSTAyTWtTNGkvNVpEZGpHMWVtQU9EUWdBVEtST3pMTk4yUVVwbmQKTWEyR2Q0SGVZMlc0d1BTZ0FEQUtCZ2dxaGtqT1BRUURBZ05KQURCR0FpRUF4aTdBdHp6OGw3TlFPNnNNNXB4aApwNzhpWWZzOHVMVU5mQk1YVld0ZlR4MENJUURySGlLV1R6eHpPU2drNUdOaWwyYklzWExWbStQVFEwZjF5QmJICm9UamxvUT09Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=";

  private static final UserInfo BOB = UserInfo.of("bob", List.of("system:authenticated"));

  /** An authorizer allowing {@code allowed} ("verb signers/name"), noting every question. */
  private static final class Recording implements AdmissionAuthorizer {
    final Set<String> allowed;
    final List<String> asked = new ArrayList<>();

    Recording(String... allowed) {
      this.allowed = Set.of(allowed);
    }

    @Override
    public java.util.Optional<String> denial(UserInfo user, String verb, String apiGroup, String resource,
        String namespace, String name) {
      String q = verb + " " + apiGroup + "/" + resource + "/" + name;
      asked.add(q);
      return allowed.contains(q) ? java.util.Optional.empty() : java.util.Optional.of("");
    }
  }

  private static String csr(String signer, String request, String status) {
    return """
        {"metadata":{"name":"req"},"spec":{"signerName":"%s","request":"%s","usages":["client auth"]},
         "status":%s}""".formatted(signer, request, status);
  }

  private static AdmissionAttributes update(String subresource, String json, String oldJson) {
    return new AdmissionAttributes(AdmissionAttributes.Operation.UPDATE,
        ResourceRegistry.builtins().find("certificates.k8s.io", "v1", "certificatesigningrequests").orElseThrow(),
        subresource, "", "req", InMemoryCore.json(json), InMemoryCore.json(oldJson), BOB, false);
  }

  private static final String APPROVED = "{\"conditions\":[{\"type\":\"Approved\",\"status\":\"True\"}]}";

  @Test
  void approval_needsApproveOnTheSignerOrItsDomain() {
    String old = csr("example.com/foo", ALICE, "{}");
    String approved = csr("example.com/foo", ALICE, APPROVED);
    Recording none = new Recording();
    CertificateApproval plugin = new CertificateApproval();
    plugin.authorizer(none);
    StatusException refused = Admissions.refusal(plugin, update("approval", approved, old));
    assertThat(refused.code()).isEqualTo(403);
    assertThat(refused.status().message()).isEqualTo("certificatesigningrequests.certificates.k8s.io \"req\" is "
        + "forbidden: user not permitted to approve requests with signerName \"example.com/foo\"");
    assertThat(none.asked).containsExactly("approve certificates.k8s.io/signers/example.com/foo",
        "approve certificates.k8s.io/signers/example.com/*");

    for (String grant : List.of("approve certificates.k8s.io/signers/example.com/foo",
        "approve certificates.k8s.io/signers/example.com/*")) {
      plugin.authorizer(new Recording(grant));
      Admissions.admitted(plugin, update("approval", approved, old));
    }
    // the signer is the stored one; /status and the main resource are not this plug-in's
    plugin.authorizer(new Recording("approve certificates.k8s.io/signers/example.com/foo"));
    assertThat(Admissions.refusal(plugin, update("approval", csr("example.com/foo", ALICE, APPROVED),
        csr("example.com/bar", ALICE, "{}")))).isNotNull();
    plugin.authorizer(none);
    Admissions.admitted(plugin, update("status", approved, old));
    Admissions.admitted(plugin, update("", approved, old));
  }

  @Test
  void signing_needsSignWhenTheCertificateOrConditionsChange() {
    String approved = csr("example.com/foo", ALICE, APPROVED);
    String issued = csr("example.com/foo", ALICE,
        "{\"conditions\":[{\"type\":\"Approved\",\"status\":\"True\"}],\"certificate\":\"Zm9v\"}");
    String failed = csr("example.com/foo", ALICE,
        "{\"conditions\":[{\"type\":\"Approved\",\"status\":\"True\"},{\"type\":\"Failed\",\"status\":\"True\"}]}");
    CertificateSigning plugin = new CertificateSigning();
    plugin.authorizer(new Recording());
    for (String changed : List.of(issued, failed)) {
      StatusException refused = Admissions.refusal(plugin, update("status", changed, approved));
      assertThat(refused.code()).isEqualTo(403);
      assertThat(refused.status().message()).isEqualTo("certificatesigningrequests.certificates.k8s.io \"req\" is "
          + "forbidden: user not permitted to sign requests with signerName \"example.com/foo\"");
    }
    // nothing the signer owns changed (absent and empty conditions are the same)
    Admissions.admitted(plugin, update("status", approved, approved));
    Admissions.admitted(plugin, update("status", csr("example.com/foo", ALICE, "{\"conditions\":[]}"),
        csr("example.com/foo", ALICE, "{}")));
    Admissions.admitted(plugin, update("approval", issued, approved));

    plugin.authorizer(new Recording("sign certificates.k8s.io/signers/example.com/*"));
    Admissions.admitted(plugin, update("status", issued, approved));
    plugin.authorizer(new Recording("sign certificates.k8s.io/signers/example.com/foo"));
    Admissions.admitted(plugin, update("status", failed, approved));
  }

  @Test
  void subjectRestriction_refusesSystemMastersForKubeApiserverClient() {
    CertificateSubjectRestriction plugin = new CertificateSubjectRestriction();
    StatusException refused = Admissions.refusal(plugin, Admissions.create("certificates.k8s.io", "v1",
        "certificatesigningrequests", "", csr("kubernetes.io/kube-apiserver-client", MASTERS, "{}")));
    assertThat(refused.code()).isEqualTo(403);
    assertThat(refused.status().message()).isEqualTo("certificatesigningrequests.certificates.k8s.io \"req\" is "
        + "forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed");

    Admissions.admitted(plugin, Admissions.create("certificates.k8s.io", "v1", "certificatesigningrequests", "",
        csr("kubernetes.io/kube-apiserver-client", ALICE, "{}")));
    Admissions.admitted(plugin, Admissions.create("certificates.k8s.io", "v1", "certificatesigningrequests", "",
        csr("example.com/foo", MASTERS, "{}")));
    Admissions.admitted(plugin, Admissions.create("certificates.k8s.io", "v1", "certificatesigningrequests", "",
        csr("kubernetes.io/kube-apiserver-client-kubelet", MASTERS, "{}")));
  }

  @Test
  void subjectOrganizations_asGoReadsThem() {
    assertThat(CertificateRequestSubject.organizations(java.util.Base64.getDecoder().decode(MASTERS)))
        .containsExactly("dev", "system:masters");
    assertThat(CertificateRequestSubject.organizations(java.util.Base64.getDecoder().decode(ALICE)))
        .containsExactly("dev");
  }

  @Test
  void throughTheCore_theDefaultChainRefusesAMastersRequest() {
    try (InMemoryCore core = InMemoryCore.start()) {
      StatusException refused = core.refusal("POST", "/apis/certificates.k8s.io/v1/certificatesigningrequests",
          Map.of(), csr("kubernetes.io/kube-apiserver-client", MASTERS, "{}"));
      assertThat(refused.code()).isEqualTo(403);
      assertThat(refused.status().message()).endsWith("use of kubernetes.io/kube-apiserver-client signer with "
          + "system:masters group is not allowed");
    }
  }
}
