package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.EndToEnd;
import org.junit.jupiter.api.Test;

/**
 * kubectl 1.32 (from PATH) sees kube's {@code default/kubernetes} Service and its Endpoints, as
 * against any kube-apiserver.
 */
@EndToEnd
class KubectlKubernetesServiceTest extends KubectlAgainstServer {

  @Test
  void getSvcAndEndpoints_showKubernetes() {
    assertThat(kubectl.ok("get", "svc", "kubernetes", "-n", "default", "-o", "jsonpath={.spec.clusterIP} {.spec.ports[0].port}")
        .stdout().strip()).isEqualTo("10.96.0.1 443");
    assertThat(kubectl.ok("get", "endpoints", "kubernetes", "-n", "default", "-o", "jsonpath={.subsets[0].ports[0].name}")
        .stdout().strip()).isEqualTo("https");
    assertThat(kubectl.ok("get", "svc", "-n", "default").lines())
        .anySatisfy(l -> assertThat(l.split("\\s+")).startsWith("kubernetes", "ClusterIP", "10.96.0.1", "<none>", "443/TCP"));
  }
}
