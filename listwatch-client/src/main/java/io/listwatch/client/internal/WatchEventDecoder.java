package io.listwatch.client.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.listwatch.api.Status;
import io.listwatch.client.ObjectCodec;
import io.listwatch.client.WatchEvent;
import java.io.IOException;
import java.util.Optional;

/**
 * Reads watch events from a stream of consecutive root-level JSON objects
 * ({@code {"type":"ADDED","object":{..}}}), kube's JSON watch framing. The object is decoded
 * straight from the stream when {@code type} came first (as kube sends it); when
 * {@code object} comes first its tokens are buffered until the type is known. ERROR objects
 * decode as {@link Status}; every other type, BOOKMARK included, through the codec.
 *
 * <p>Confined to the thread that reads the stream.
 *
 * @param <T> the object type
 */
public final class WatchEventDecoder<T> {

  private static final ObjectReader STATUS = Json.MAPPER.readerFor(Status.class);

  private final JsonParser parser;
  private final ObjectCodec<T> codec;

  public WatchEventDecoder(JsonParser parser, ObjectCodec<T> codec) {
    this.parser = parser;
    this.codec = codec;
  }

  /**
   * The next event, or empty at the end of the stream.
   *
   * @throws IOException when the stream is malformed or the connection fails
   */
  public Optional<WatchEvent<T>> next() throws IOException {
    JsonToken t = parser.nextToken();
    if (t == null) {
      return Optional.empty();
    }
    if (t != JsonToken.START_OBJECT) {
      throw new IOException("watch stream: expected an event object, got " + t);
    }
    if (parser.getInputSource() instanceof RecordingInputStream recording) {
      recording.discardBefore(parser.currentTokenLocation().getByteOffset());
    }
    WatchEvent.Type type = null;
    WatchEvent<T> event = null;
    TokenBuffer early = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = parser.currentName();
      JsonToken value = parser.nextToken();
      if (field.equals("type")) {
        type = type(parser.getValueAsString());
      } else if (field.equals("object")) {
        if (type != null) {
          event = decode(type, parser, value);
        } else {
          early = new TokenBuffer(parser);
          early.copyCurrentStructure(parser);
        }
      } else {
        parser.skipChildren();
      }
    }
    if (parser.currentToken() != JsonToken.END_OBJECT) {
      throw new IOException("watch stream ends inside an event");
    }
    if (type == null) {
      throw new IOException("watch event without a type");
    }
    if (early != null) {
      try (JsonParser buffered = early.asParser(parser.getCodec())) {
        event = decode(type, buffered, buffered.nextToken());
      }
    }
    if (event == null) {
      throw new IOException("watch event " + type + " without an object");
    }
    return Optional.of(event);
  }

  private WatchEvent<T> decode(WatchEvent.Type type, JsonParser p, JsonToken start) throws IOException {
    if (start != JsonToken.START_OBJECT) {
      throw new IOException("watch event " + type + ": object is not a JSON object");
    }
    if (type == WatchEvent.Type.ERROR) {
      return new WatchEvent<>(type, null, STATUS.readValue(p));
    }
    return new WatchEvent<>(type, codec.decode(p), null);
  }

  private static WatchEvent.Type type(String wire) throws IOException {
    if (wire != null) {
      switch (wire) {
        case "ADDED": return WatchEvent.Type.ADDED;
        case "MODIFIED": return WatchEvent.Type.MODIFIED;
        case "DELETED": return WatchEvent.Type.DELETED;
        case "BOOKMARK": return WatchEvent.Type.BOOKMARK;
        case "ERROR": return WatchEvent.Type.ERROR;
        default: break;
      }
    }
    throw new IOException("watch event of unknown type " + wire);
  }
}
