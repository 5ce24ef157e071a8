package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /metrics}: kube's metric names in the Prometheus text format, counting what clients
 * did. Each test gets its own server, so counts start from zero.
 */
class MetricsEndpointTest {

  private ApiServer server;
  private KubeHttp http;

  @BeforeEach
  void start() {
    server = ApiServer.builder().build().start();
    http = new KubeHttp(server);
  }

  @AfterEach
  void stop() {
    http.close();
    server.close();
  }

  @Test
  void metrics_isPrometheusText_withKubesContentType() {
    http.list("/api/v1/namespaces");
    KubeHttp.Response r = http.get("/metrics", "text/plain");
    assertThat(r.code()).isEqualTo(200);
    assertThat(r.contentType()).isEqualTo("text/plain; version=0.0.4; charset=utf-8");
    PrometheusText m = PrometheusText.parse(r.body());
    assertThat(m.type("apiserver_request_duration_seconds")).isEqualTo("histogram");
    assertThat(m.type("etcd_request_duration_seconds")).isEqualTo("histogram");
    assertThat(m.type("apiserver_registered_watchers")).isEqualTo("gauge");
    assertThat(m.type("apiserver_current_inflight_requests")).isEqualTo("gauge");
    assertThat(m.sum("apiserver_current_inflight_requests", Map.of("request_kind", "readOnly")))
        .as("the scrape itself is a read-only request in flight").isEqualTo(1);
    assertThat(m.sum("apiserver_current_inflight_requests", Map.of("request_kind", "mutating"))).isEqualTo(0);
  }

  @Test
  void metrics_postIsRefused() {
    KubeHttp.assertFailureStatus(http.send("POST", "/metrics", "text/plain", new byte[0]), 405, "MethodNotAllowed");
  }

  @Test
  void requests_areCountedByVerbResourceAndCode_withLatencyBuckets() {
    String ns = http.createNamespace("metrics");
    String cms = "/api/v1/namespaces/" + ns + "/configmaps";
    http.create(cms, KubeHttp.configMap("a"));
    http.get(cms + "/a").expect(200);
    http.get(cms + "/a").expect(200);
    assertThat(http.get(cms + "/missing").code()).isEqualTo(404);
    http.list(cms);

    PrometheusText m = scrape();
    Map<String, String> core = Map.of("group", "", "version", "v1", "resource", "configmaps",
        "subresource", "", "component", "apiserver");
    assertThat(m.sum("apiserver_request_total", with(core, "verb", "POST", "scope", "resource", "code", "201")))
        .isEqualTo(1);
    assertThat(m.sum("apiserver_request_total", with(core, "verb", "GET", "scope", "resource", "code", "200")))
        .isEqualTo(2);
    assertThat(m.sum("apiserver_request_total", with(core, "verb", "GET", "code", "404"))).isEqualTo(1);
    assertThat(m.sum("apiserver_request_total", with(core, "verb", "LIST", "scope", "namespace", "code", "200")))
        .isEqualTo(1);
    assertThat(m.sum("apiserver_request_total", Map.of("verb", "POST", "resource", "namespaces", "code", "201")))
        .isEqualTo(1);

    Map<String, String> gets = with(core, "verb", "GET", "scope", "resource");
    assertThat(m.sum("apiserver_request_duration_seconds_count", gets)).isEqualTo(3);
    assertThat(m.sum("apiserver_request_duration_seconds_bucket", with(gets, "le", "+Inf"))).isEqualTo(3);
    assertThat(m.sum("apiserver_request_duration_seconds_bucket", with(gets, "le", "60.0"))).isEqualTo(3);
    assertThat(m.matching("apiserver_request_duration_seconds_bucket", gets))
        .as("kube's 23 bucket bounds and +Inf").hasSize(24);
    assertThat(m.matching("apiserver_request_duration_seconds_bucket", with(gets, "le", "0.005"))).hasSize(1);

    // both writes (the namespace and the config map) went through storage and were timed
    assertThat(m.sum("etcd_request_duration_seconds_count", Map.of("operation", "create", "type", "configmaps")))
        .isEqualTo(1);
    assertThat(m.sum("etcd_request_duration_seconds_count", Map.of("operation", "create", "type", "namespaces")))
        .isGreaterThanOrEqualTo(1);
    assertThat(m.sum("etcd_request_duration_seconds_bucket",
        Map.of("operation", "create", "type", "configmaps", "le", "+Inf"))).isEqualTo(1);
  }

  @Test
  void unknownResources_areCountedWithoutTheirNames() {
    assertThat(http.get("/api/v1/nosuchthings").code()).isEqualTo(404);
    assertThat(http.get("/api/v1/nosuchthings-2").code()).isEqualTo(404);
    PrometheusText m = scrape();
    assertThat(m.sum("apiserver_request_total", Map.of("verb", "LIST", "code", "404", "resource", ""))).isEqualTo(2);
    assertThat(m.matching("apiserver_request_total", Map.of("resource", "nosuchthings"))).isEmpty();
  }

  @Test
  void watches_registerWhileOpen_countEvents_andAreCountedOnceAtStart() throws Exception {
    String ns = http.createNamespace("watch-metrics");
    String cms = "/api/v1/namespaces/" + ns + "/configmaps";
    Map<String, String> configmaps = Map.of("group", "", "resource", "configmaps");
    assertThat(scrape().sum("apiserver_registered_watchers", configmaps)).isEqualTo(0);

    try (WatchStream w = http.watch(cms + "?resourceVersion=" + http.listResourceVersion(cms))) {
      Await.until("the watcher is registered", KubeHttp.WAIT,
          () -> scrape().sum("apiserver_registered_watchers", configmaps) == 1);
      http.create(cms, KubeHttp.configMap("x"));
      http.create(cms, KubeHttp.configMap("y"));
      w.next(2);
      // counted as the events are queued to the watcher, which may send them first
      Await.until("both events counted", KubeHttp.WAIT,
          () -> scrape().sum("apiserver_watch_events_total", configmaps) == 2);
      PrometheusText m = scrape();
      assertThat(m.sum("apiserver_watch_events_total", configmaps)).isEqualTo(2);
      assertThat(m.sum("apiserver_watch_cache_events_received_total", configmaps)).isEqualTo(2);
      assertThat(m.sum("apiserver_storage_objects", configmaps)).isEqualTo(2);
      assertThat(m.sum("apiserver_watch_cache_history_events", configmaps)).isEqualTo(2);
      assertThat(m.sum("apiserver_watch_cache_capacity", configmaps)).isEqualTo(102_400);
      assertThat(m.sum("apiserver_watch_cache_resource_version", configmaps))
          .isEqualTo((double) http.listResourceVersion(cms));
      assertThat(m.sum("apiserver_request_total",
          Map.of("verb", "WATCH", "resource", "configmaps", "scope", "namespace", "code", "200"))).isEqualTo(1);
      assertThat(m.matching("apiserver_request_duration_seconds_count", Map.of("verb", "WATCH")))
          .as("a watch is counted, not timed").isEmpty();
    }
    Await.until("the watcher is gone once its client closed", KubeHttp.WAIT,
        () -> scrape().sum("apiserver_registered_watchers", configmaps) == 0);
    assertThat(scrape().sum("apiserver_terminated_watchers_total", configmaps))
        .as("a client closing its watch is not a slow watcher").isEqualTo(0);
  }

  private PrometheusText scrape() {
    KubeHttp.Response r = http.get("/metrics", "text/plain");
    assertThat(r.code()).isEqualTo(200);
    return PrometheusText.parse(r.body());
  }

  private static Map<String, String> with(Map<String, String> base, String... more) {
    Map<String, String> out = new java.util.HashMap<>(base);
    for (int i = 0; i < more.length; i += 2) {
      out.put(more[i], more[i + 1]);
    }
    return out;
  }
}
