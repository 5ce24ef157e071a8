package io.listwatch.apiserver.cacher;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.protobuf.Envelope;
import io.listwatch.apiserver.protobuf.KubeProtobuf;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CachedObjectTest {

  @Test
  void protobuf_isTheObjectsEnvelope_convertedOnce_andSharedByEveryUse() {
    CachedObject pod = TestObjects.pod("ns", "web", 7, Map.of("app", "web"));
    assertThat(pod.hasProtobuf()).isFalse();

    byte[] first = pod.protobuf();

    assertThat(pod.hasProtobuf()).isTrue();
    assertThat(first).isEqualTo(KubeProtobuf.encode(pod.json()));
    assertThat(Envelope.unwrap(first).kind()).isEqualTo("Pod");
    assertThat(pod.protobuf()).isSameAs(first);
  }

  @Test
  void protobufEvent_ofACachedObject_carriesTheCachedForm() {
    CachedObject pod = TestObjects.pod("ns", "web", 7, Map.of());
    byte[] cached = pod.protobuf();

    byte[][] frame = WatchEncoding.PROTOBUF.event(WatchCacheEvent.Type.ADDED, pod);

    assertThat(frame[1]).isEqualTo(KubeProtobuf.watchEvent("ADDED", cached));
  }

  @Test
  void equality_isByTheData_notByWhatWasEncoded() {
    CachedObject a = TestObjects.pod("ns", "web", 7, Map.of("app", "web"));
    CachedObject b = TestObjects.pod("ns", "web", 7, Map.of("app", "web"));
    a.protobuf();

    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(TestObjects.pod("ns", "web", 8, Map.of("app", "web")));
    assertThat(a.approximateBytes()).isGreaterThan(b.approximateBytes());
  }
}
