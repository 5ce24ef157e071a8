package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kubectl 1.32 on certificates.k8s.io's CertificateSigningRequests: the documented request for a
 * user's client certificate applied, {@code kubectl get csr}'s columns as the server prints them,
 * and {@code kubectl certificate approve} and {@code deny} (PUTs on {@code /approval}).
 */
@EndToEnd
class KubectlCertificatesTest extends KubectlAgainstServer {

  /** As the "Certificates and Certificate Signing Requests" page's "Normal user" request, with a request made by openssl. */
  private static final String CSR = """
      apiVersion: certificates.k8s.io/v1
      kind: CertificateSigningRequest
      metadata:
        name: myuser
      spec:
        request: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlJQlhUQ0J4d0lCQURBZU1RNHdEQVlEVlFRRERBVmhiR2xqWlRFTU1Bb0dBMVVFQ2d3RFpHVjJNSUdmTUEwRwpDU3FHU0liM0RRRUJBUVVBQTRHTkFEQ0JpUUtCZ1FDNWV4ZHJGRytmN1AvREVrOFA1bUZuVGlhZXZ1ZzRhSjRGCmtlK3NPM0w2NkMyWDR6Vy91QS9Gb3FnMUxsclFFejFhdEF5cVpxSmFFT3JLbEkyeUZhZlY0QjFPcmZXNVBXM2UKdi90WmhUNmRnL3hBMWkzdFdVcUlyNVdlblpzYnF3bGoyVFU2aFF4Y2RwRTBVK2YwSkN2Nm9pUXZxbFFlTnRPVQpIYllrWEwweTB3SURBUUFCb0FBd0RRWUpLb1pJaHZjTkFRRUxCUUFEZ1lFQVFHc0NPeDFnbTlpaXlNUDhZd1FkClByZ2ZTdGs4NS9tcFdhMWtnMzJhTmd6SGVudk52bHAwSld3WHhXa1BTWDl0NE9wdXU4eS9uVkVpMEhlaDJMU3cKR2lnUUN5SG5XWDhucHFtaHNxRUZRU2pKUDZqYkF6Z2FJT0JFeU9YUVN0NGRST21hSTNhcE5qRUdqNk94REFSaQo3N3ZBdThxR04ybEQ2UDVrV2RmNjIydz0KLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg==
        signerName: kubernetes.io/kube-apiserver-client
        expirationSeconds: 86400
        usages:
        - client auth
      """;

  private static List<String> cells(Kubectl.Result r, String prefix) {
    return r.lines().stream().filter(l -> l.startsWith(prefix)).findFirst()
        .map(l -> Arrays.asList(l.trim().split("\\s{2,}")))
        .orElseThrow(() -> new AssertionError("no line starting with " + prefix + " in\n" + r));
  }

  @Test
  void apply_get_approve() {
    Kubectl.Result created = kubectl.ok("apply", "-f", kubectl.file("csr.yaml", CSR).toString());
    assertThat(created.lines()).containsExactly("certificatesigningrequest.certificates.k8s.io/myuser created");

    Kubectl.Result pending = kubectl.ok("get", "csr");
    assertThat(Arrays.asList(pending.lines().getFirst().split("\\s{2,}")))
        .containsExactly("NAME", "AGE", "SIGNERNAME", "REQUESTOR", "REQUESTEDDURATION", "CONDITION");
    List<String> row = cells(pending, "myuser");
    assertThat(row.get(2)).isEqualTo("kubernetes.io/kube-apiserver-client");
    assertThat(row.get(3)).isNotBlank();
    assertThat(row.subList(4, row.size())).containsExactly("24h", "Pending");

    Kubectl.Result approved = kubectl.ok("certificate", "approve", "myuser");
    assertThat(approved.lines()).containsExactly("certificatesigningrequest.certificates.k8s.io/myuser approved");
    assertThat(cells(kubectl.ok("get", "csr", "myuser"), "myuser").getLast()).isEqualTo("Approved");

    kubectl.ok("apply", "-f", kubectl.file("csr2.yaml", CSR.replace("name: myuser", "name: other")).toString());
    Kubectl.Result denied = kubectl.ok("certificate", "deny", "other");
    assertThat(denied.lines()).containsExactly("certificatesigningrequest.certificates.k8s.io/other denied");
    assertThat(cells(kubectl.ok("get", "csr", "other"), "other").getLast()).isEqualTo("Denied");
  }
}
