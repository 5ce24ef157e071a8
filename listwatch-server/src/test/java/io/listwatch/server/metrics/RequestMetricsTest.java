package io.listwatch.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.request.RequestInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** kube's label values: the verb names and scopes dashboards built for kube-apiserver expect. */
class RequestMetricsTest {

  private static RequestInfo info(String method, String path, Map<String, List<String>> query) {
    return RequestInfo.parse(method, path, query, (g, r) -> !r.equals("namespaces") && !r.equals("nodes"));
  }

  private static RequestInfo info(String method, String path) {
    return info(method, path, Map.of());
  }

  @Test
  void verbs_areKubesMetricVerbs() {
    assertThat(RequestMetrics.verb(info("GET", "/api/v1/namespaces/a/pods"), null)).isEqualTo("LIST");
    assertThat(RequestMetrics.verb(info("GET", "/api/v1/pods", Map.of("watch", List.of("true"))), null))
        .isEqualTo("WATCH");
    assertThat(RequestMetrics.verb(info("GET", "/api/v1/namespaces/a/pods/p"), null)).isEqualTo("GET");
    assertThat(RequestMetrics.verb(info("POST", "/api/v1/namespaces/a/pods"), null)).isEqualTo("POST");
    assertThat(RequestMetrics.verb(info("PUT", "/api/v1/namespaces/a/pods/p"), null)).isEqualTo("PUT");
    assertThat(RequestMetrics.verb(info("PATCH", "/api/v1/namespaces/a/pods/p"), "application/merge-patch+json"))
        .isEqualTo("PATCH");
    assertThat(RequestMetrics.verb(info("PATCH", "/api/v1/namespaces/a/pods/p"), "application/apply-patch+yaml"))
        .isEqualTo("APPLY");
    assertThat(RequestMetrics.verb(info("DELETE", "/api/v1/namespaces/a/pods/p"), null)).isEqualTo("DELETE");
    assertThat(RequestMetrics.verb(info("DELETE", "/api/v1/namespaces/a/pods"), null)).isEqualTo("DELETECOLLECTION");
    assertThat(RequestMetrics.verb(info("GET", "/healthz"), null)).isEqualTo("GET");
  }

  @Test
  void scope_isKubesCleanScope() {
    assertThat(RequestMetrics.scope(info("GET", "/api/v1/namespaces/a/pods/p"))).isEqualTo("resource");
    assertThat(RequestMetrics.scope(info("POST", "/api/v1/namespaces/a/pods"))).isEqualTo("resource");
    assertThat(RequestMetrics.scope(info("GET", "/api/v1/namespaces/a/pods"))).isEqualTo("namespace");
    assertThat(RequestMetrics.scope(info("GET", "/api/v1/pods"))).isEqualTo("cluster");
    assertThat(RequestMetrics.scope(info("GET", "/api/v1/nodes"))).isEqualTo("cluster");
    assertThat(RequestMetrics.scope(info("GET", "/version"))).isEmpty();
  }
}
