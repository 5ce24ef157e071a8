package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl (from PATH) over HTTPS with the kubeconfig the server wrote, as a user
 * would run it: the admin client certificate authenticates, the generated CA verifies the
 * server, and kubectl negotiates HTTP/2 by ALPN. Only kubectl talks to this class's server.
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
@ApiServerExtension.Tls
class KubectlTlsTest {

  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir
  static Path workDir;

  private static Kubectl kubectl;
  private static String kubeconfig;

  @BeforeAll
  static void setUp(ApiServer server) {
    assertThat(Kubectl.binary()).as("kubectl must be on PATH: these tests drive the real client").isPresent();
    kubeconfig = server.kubeconfig().toString();
    kubectl = Kubectl.withKubeconfig(server.kubeconfig(), workDir);
  }

  @Test
  void getNamespaces_withTheGeneratedKubeconfig_overHttp2() {
    Kubectl.Result r = kubectl.ok("--kubeconfig", kubeconfig, "get", "namespaces");

    assertThat(r.names()).contains("default", "kube-system", "kube-public");
  }

  @Test
  void kubectl_negotiatesH2ByAlpn(ApiServer server) {
    kubectl.ok("--kubeconfig", kubeconfig, "get", "namespaces");

    // every TLS connection this server accepted came from kubectl
    assertThat(server.negotiatedProtocols()).containsOnlyKeys("h2");
  }

  @Test
  void createAndWatch_seeTheChange() {
    Path manifest = kubectl.file("web.yaml", """
        apiVersion: v1
        kind: Namespace
        metadata:
          name: tls-watch
        ---
        apiVersion: v1
        kind: Pod
        metadata:
          name: web
          namespace: tls-watch
        spec:
          containers:
          - name: main
            image: nginx:1.27
        """);
    kubectl.ok("--kubeconfig", kubeconfig, "create", "-f", manifest.toString());

    try (Kubectl.Background watch = kubectl.start("--kubeconfig", kubeconfig, "get", "pods", "-w", "-L", "tier",
        "-n", "tls-watch")) {
      assertThat(watch.nextLine(WAIT)).startsWith("NAME");
      assertThat(watch.nextLine(WAIT)).startsWith("web ").doesNotContain("frontend");

      kubectl.ok("--kubeconfig", kubeconfig, "label", "pod", "web", "tier=frontend", "-n", "tls-watch");
      assertThat(watch.nextLine(WAIT)).startsWith("web ").contains("frontend");
    }
  }
}
