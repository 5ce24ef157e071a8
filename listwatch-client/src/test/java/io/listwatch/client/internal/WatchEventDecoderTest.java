package io.listwatch.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.WatchEvent;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WatchEventDecoderTest {

  private static WatchEventDecoder<DynamicObject> decoder(String stream) throws IOException {
    JsonParser p = Json.FACTORY.createParser(new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)));
    return new WatchEventDecoder<>(p, DynamicObject.CODEC);
  }

  private static WatchEventDecoder<DynamicObject> recordingDecoder(String stream) throws IOException {
    JsonParser p = Json.FACTORY.createParser(new RecordingInputStream(
        new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8))));
    return new WatchEventDecoder<>(p, DynamicObject.CODEC);
  }

  private static WatchEvent<DynamicObject> next(WatchEventDecoder<DynamicObject> d) throws IOException {
    return d.next().orElseThrow();
  }

  @Test
  void readsConsecutiveEvents_typeFirstOrObjectFirst_untilTheEnd() throws IOException {
    WatchEventDecoder<DynamicObject> d = decoder("""
        {"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"a","resourceVersion":"5"}}}
        {"object":{"kind":"Pod","metadata":{"name":"a","resourceVersion":"6"}},"type":"MODIFIED"}{"type":"DELETED","object":{"kind":"Pod","metadata":{"name":"a","resourceVersion":"7"}},"extra":[1,{"x":2}]}
        """);
    WatchEvent<DynamicObject> added = next(d);
    assertThat(added.type()).isEqualTo(WatchEvent.Type.ADDED);
    assertThat(added.object().name()).isEqualTo("a");
    assertThat(added.object().resourceVersion()).isEqualTo("5");
    WatchEvent<DynamicObject> modified = next(d);
    assertThat(modified.type()).isEqualTo(WatchEvent.Type.MODIFIED);
    assertThat(modified.object().resourceVersion()).isEqualTo("6");
    assertThat(modified.object().kind()).isEqualTo("Pod");
    assertThat(next(d).type()).isEqualTo(WatchEvent.Type.DELETED);
    assertThat(d.next()).isEmpty();
  }

  /**
   * Found by the fuzzer (WatchDecoderFuzzTest): malformed JSON inside a value the decoder skips
   * (here a missing colon, in annotations and in spec) was accepted, and failed later in the
   * object's readers; the decode refuses it now, as client-go's does.
   */
  @Test
  void fromTheRestClientsStream_malformedJsonInASkippedValue_failsTheDecode() throws IOException {
    WatchEventDecoder<DynamicObject> annotations = recordingDecoder(
        "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\",\"annotations\":{\"k\" 1}}}}");
    assertThatThrownBy(annotations::next).isInstanceOf(com.fasterxml.jackson.core.JsonParseException.class)
        .hasMessageContaining("expected a colon after a field name");

    WatchEventDecoder<DynamicObject> spec = recordingDecoder(
        "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\"},\"spec\":{\"x\":\"y\" \"z\":1}}}");
    assertThatThrownBy(spec::next).isInstanceOf(com.fasterxml.jackson.core.JsonParseException.class)
        .hasMessageContaining("expected a comma or an end marker");
  }

  @Test
  void fromTheRestClientsStream_objectsKeepTheirBytesAsSent() throws IOException {
    String a = "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"labels\":{\"x\":\"1\"}},\"spec\":{\"n\":[1, 2.50]}}";
    String b = "{\"metadata\":{\"name\":\"b\"},\"kind\":\"Pod\"}";
    StringBuilder stream = new StringBuilder();
    for (int i = 0; i < 2000; i++) { // more than the parser's and the window's buffers
      stream.append("{\"type\":\"ADDED\",\"object\":").append(a).append("}\n");
      stream.append("{\"object\":").append(b).append(",\"type\":\"MODIFIED\"}\n");
    }
    WatchEventDecoder<DynamicObject> d = recordingDecoder(stream.toString());
    for (int i = 0; i < 2000; i++) {
      WatchEvent<DynamicObject> first = next(d);
      assertThat(first.object().toJsonString()).isEqualTo(a);
      assertThat(first.object().labels()).containsEntry("x", "1");
      WatchEvent<DynamicObject> second = next(d);
      assertThat(second.type()).isEqualTo(WatchEvent.Type.MODIFIED);
      assertThat(second.object().name()).isEqualTo("b");
      assertThat(second.object().toTree()).isEqualTo(DynamicObject.parse(b).toTree());
    }
    assertThat(d.next()).isEmpty();
  }

  @Test
  void errorEvents_carryTheStatus_andBookmarksTheirObject() throws IOException {
    WatchEventDecoder<DynamicObject> d = decoder("""
        {"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"12",
          "annotations":{"k8s.io/initial-events-end":"true"}}}}
        {"object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
          "message":"too old resource version: 1 (5)","reason":"Expired","code":410},"type":"ERROR"}
        """);
    WatchEvent<DynamicObject> bookmark = next(d);
    assertThat(bookmark.type()).isEqualTo(WatchEvent.Type.BOOKMARK);
    assertThat(bookmark.object().resourceVersion()).isEqualTo("12");
    assertThat(bookmark.object().annotations()).containsEntry(WatchEvent.INITIAL_EVENTS_END_ANNOTATION, "true");
    WatchEvent<DynamicObject> error = next(d);
    assertThat(error.type()).isEqualTo(WatchEvent.Type.ERROR);
    assertThat(error.object()).isNull();
    assertThat(error.status().code()).isEqualTo(410);
    assertThat(error.status().reason()).isEqualTo("Expired");
  }

  @Test
  void malformedStreams_areIoExceptions() throws IOException {
    assertThatThrownBy(() -> decoder("{\"type\":\"SURPRISE\",\"object\":{}}").next())
        .isInstanceOf(IOException.class).hasMessageContaining("SURPRISE");
    assertThatThrownBy(() -> decoder("{\"object\":{}}").next())
        .isInstanceOf(IOException.class).hasMessageContaining("without a type");
    assertThatThrownBy(() -> decoder("{\"type\":\"ADDED\"}").next())
        .isInstanceOf(IOException.class).hasMessageContaining("without an object");
    assertThatThrownBy(() -> decoder("{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"na").next())
        .isInstanceOf(IOException.class);
    assertThatThrownBy(() -> decoder("[1]").next()).isInstanceOf(IOException.class);
    Optional<WatchEvent<DynamicObject>> none = decoder("  ").next();
    assertThat(none).isEmpty();
  }
}
