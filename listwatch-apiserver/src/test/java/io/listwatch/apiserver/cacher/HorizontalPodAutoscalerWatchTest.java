package io.listwatch.apiserver.cacher;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.WatchStart;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A watch of HorizontalPodAutoscalers through autoscaling/v1 sees what is written through v2
 * (the storage version), converted to v1 by its own cache, and the reverse.
 */
class HorizontalPodAutoscalerWatchTest {

  private static final String V1 = "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers";
  private static final String V2 = "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers";

  private static FakeWatchSink watch(InMemoryCore core, String path) {
    ApiRequest list = InMemoryCore.request("GET", path, Map.of(), null);
    String rv = InMemoryCore.json(new String(join(core.send(list).jsonParts().orElseThrow()),
        java.nio.charset.StandardCharsets.UTF_8)).at("/metadata/resourceVersion").asText();
    ApiRequest watch = InMemoryCore.request("GET", path, Map.of("watch", List.of("true"), "resourceVersion", List.of(rv)),
        null);
    WatchStart start = (WatchStart) core.server.routes().handle(core.server.routes().requestInfo(watch), watch)
        .join().body();
    FakeWatchSink sink = new FakeWatchSink(Runnable::run);
    start.begin(sink).join().orElseThrow().drain();
    return sink;
  }

  private static byte[] join(byte[][] parts) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  @Test
  void aV1Watch_seesAnObjectCreatedThroughV2_inV1_andAV2Watch_aV1Update_inV2() {
    try (InMemoryCore core = InMemoryCore.start()) {
      FakeWatchSink v1 = watch(core, V1);
      FakeWatchSink v2 = watch(core, V2);

      assertThat(core.send("POST", V2, Map.of(), """
          {"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"web"},
           "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":5,
             "metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":60}}},
                        {"type":"Pods","pods":{"metric":{"name":"qps"},"target":{"type":"AverageValue","averageValue":"10"}}}]}}""")
          .code()).isEqualTo(201);

      FakeWatchSink.Line added = v1.awaitEvents(1).getFirst();
      assertThat(added.type()).isEqualTo("ADDED");
      assertThat(added.object().path("apiVersion").asText()).isEqualTo("autoscaling/v1");
      assertThat(added.object().at("/spec/targetCPUUtilizationPercentage").asInt()).isEqualTo(60);
      assertThat(added.object().at("/metadata/annotations").path("autoscaling.alpha.kubernetes.io/metrics").asText())
          .contains("\"metricName\":\"qps\"");

      String update = added.object().toString().replace("\"maxReplicas\":5", "\"maxReplicas\":7");
      assertThat(core.send("PUT", V1 + "/web", Map.of(), update).code()).isEqualTo(200);

      List<FakeWatchSink.Line> seen = v2.awaitEvents(2);
      assertThat(seen.get(1).type()).isEqualTo("MODIFIED");
      assertThat(seen.get(1).object().path("apiVersion").asText()).isEqualTo("autoscaling/v2");
      assertThat(seen.get(1).object().at("/spec/maxReplicas").asInt()).isEqualTo(7);
      assertThat(seen.get(1).object().at("/spec/metrics").size()).isEqualTo(2);
      assertThat(seen.get(1).object().at("/metadata").has("annotations")).isFalse();
    }
  }
}
