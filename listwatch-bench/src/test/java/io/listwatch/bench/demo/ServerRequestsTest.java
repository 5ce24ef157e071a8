package io.listwatch.bench.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerRequestsTest {

  private static final String METRICS = """
      # HELP apiserver_request_total Counter of apiserver requests
      # TYPE apiserver_request_total counter
      apiserver_request_total{code="201",component="apiserver",group="",resource="pods",scope="resource",subresource="",verb="POST",version="v1"} 40.0
      apiserver_request_total{code="201",component="apiserver",group="",resource="pods",scope="resource",subresource="binding",verb="POST",version="v1"} 2.0
      apiserver_request_total{code="200",component="apiserver",group="apps",resource="deployments",scope="resource",subresource="status",verb="PUT",version="v1"} 7.0
      apiserver_request_total{code="200",component="apiserver",group="",resource="pods",scope="namespace",subresource="",verb="LIST",version="v1"} 3.0
      apiserver_request_duration_seconds_count{component="apiserver",verb="POST"} 99.0
      apiserver_watch_events_total{group="",resource="pods"} 1.5e3
      apiserver_watch_events_total{group="apps",resource="deployments"} 20.0
      """;

  @Test
  void parse_sumsRequestsByVerbAndWatchEventsOverResources() {
    Map<String, Long> counts = ServerRequests.parse(METRICS);

    assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of(
        "POST", 42L, "PUT", 7L, "LIST", 3L, ServerRequests.WATCH_EVENTS, 1520L));
    assertThat(ServerRequests.writes(counts)).isEqualTo(49);
  }

  @Test
  void since_isTheDifferenceVerbByVerb() {
    Map<String, Long> d = ServerRequests.since(Map.of("POST", 10L), Map.of("POST", 25L, "GET", 4L));

    assertThat(d).containsExactlyInAnyOrderEntriesOf(Map.of("POST", 15L, "GET", 4L));
  }
}
