package io.listwatch.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.core.JsonParser;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ObjectList;
import io.listwatch.client.WatchEvent;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Optional;

/**
 * Coverage-guided fuzzing (Jazzer) of what the client reads from a server: a watch stream and a
 * list response, decoded as the REST client decodes them (the streaming parser over the
 * recording stream, objects as {@link DynamicObject}s, whose bytes are kept as they arrived).
 * The test command replays {@code WatchDecoderFuzzTestInputs/<method>/} (kube's framing of each
 * event type, an object before its type, escapes, lists with and without metadata, and their
 * broken forms); {@code ./listwatch fuzz} looks for more.
 *
 * <p>Invariants: a stream is decoded or refused with an {@link IOException}, never another
 * exception (a NullPointerException, an IllegalStateException from a buffer); every event has
 * a type, an ERROR a Status and every other type an object; and every object's kept bytes are
 * the JSON of that same object: parsed again, they give the same name, namespace,
 * resourceVersion, uid, kind, apiVersion and labels, which is what an informer's store and a
 * controller's update rely on. (The decoder does not parse the values it skips, only scans them,
 * {@link SkippingJsonParser}: this is what checks that the scan refuses whatever Jackson would.)
 *
 * <p>Stateless.
 */
class WatchDecoderFuzzTest {

  @FuzzTest(maxDuration = "2m")
  void watchStream(byte[] input) {
    try (JsonParser p = Json.FACTORY.createParser(new RecordingInputStream(new ByteArrayInputStream(input)))) {
      WatchEventDecoder<DynamicObject> decoder = new WatchEventDecoder<>(p, DynamicObject.CODEC);
      int events = 0;
      for (Optional<WatchEvent<DynamicObject>> e = decoder.next(); e.isPresent(); e = decoder.next()) {
        assertThat(++events).as("each event takes bytes of the stream").isLessThanOrEqualTo(input.length);
        WatchEvent<DynamicObject> event = e.get();
        assertThat(event.type()).isNotNull();
        if (event.type() == WatchEvent.Type.ERROR) {
          assertThat(event.status()).as("an ERROR event's Status").isNotNull();
          assertThat(event.object()).isNull();
        } else {
          assertThat(event.object()).as("a %s event's object", event.type()).isNotNull();
          assertKeptBytesAreTheObject(event.object());
        }
      }
    } catch (IOException refused) {
      // the one way to refuse a stream: a malformed one, or a connection that fails
    }
  }

  @FuzzTest(maxDuration = "2m")
  void listResponse(byte[] input) {
    try (JsonParser p = Json.FACTORY.createParser(new RecordingInputStream(new ByteArrayInputStream(input)))) {
      ObjectList<DynamicObject> list = ListDecoder.read(p, DynamicObject.CODEC);
      assertThat(list.resourceVersion()).isNotNull();
      assertThat(list.continueToken()).isNotNull();
      assertThat(list.items()).hasSizeLessThanOrEqualTo(input.length);
      for (DynamicObject item : list.items()) {
        assertKeptBytesAreTheObject(item);
      }
    } catch (IOException refused) {
      // a malformed response
    }
  }

  private static void assertKeptBytesAreTheObject(DynamicObject o) {
    DynamicObject again = DynamicObject.parse(o.toJson());
    assertThat(again.name()).isEqualTo(o.name());
    assertThat(again.namespace()).isEqualTo(o.namespace());
    assertThat(again.resourceVersion()).isEqualTo(o.resourceVersion());
    assertThat(again.uid()).isEqualTo(o.uid());
    assertThat(again.kind()).isEqualTo(o.kind());
    assertThat(again.apiVersion()).isEqualTo(o.apiVersion());
    assertThat(again.labels()).isEqualTo(o.labels());
    assertThat(again.annotations()).isEqualTo(o.annotations());
    assertThat(o.toTree().isObject()).isTrue();
  }
}
