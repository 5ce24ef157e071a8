package io.listwatch.apiserver.cacher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FramesTest {

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  @Test
  void event_isOneLineWrappingTheObject() {
    assertThat(text(Frames.event(WatchCacheEvent.Type.MODIFIED, "{\"a\":1}".getBytes(StandardCharsets.UTF_8))))
        .isEqualTo("{\"type\":\"MODIFIED\",\"object\":{\"a\":1}}\n");
  }

  @Test
  void prefixObjectSuffix_makeTheSameLineAsEvent() {
    byte[] object = "{\"b\":2}".getBytes(StandardCharsets.UTF_8);

    String joined = text(Frames.prefix(WatchCacheEvent.Type.ADDED)) + text(object) + text(Frames.suffix());

    assertThat(joined).isEqualTo(text(Frames.event(WatchCacheEvent.Type.ADDED, object)));
  }

  @Test
  void bookmark_carriesOnlyKindApiVersionAndResourceVersion_likeKube() {
    assertThat(text(Frames.bookmark("apps/v1", "Deployment", 12, false))).isEqualTo(
        "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\","
            + "\"metadata\":{\"resourceVersion\":\"12\",\"creationTimestamp\":null}}}\n");
  }

  @Test
  void bookmark_endingInitialEvents_carriesTheInitialEventsEndAnnotation() {
    assertThat(text(Frames.bookmark("v1", "Pod", 3, true))).isEqualTo(
        "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\","
            + "\"metadata\":{\"resourceVersion\":\"3\",\"creationTimestamp\":null,"
            + "\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}}}}\n");
  }

  @Test
  void error_wrapsTheStatus() {
    assertThat(text(Frames.error("{\"kind\":\"Status\",\"code\":410}".getBytes(StandardCharsets.UTF_8))))
        .isEqualTo("{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"code\":410}}\n");
  }
}
