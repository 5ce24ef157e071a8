package io.listwatch.client.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.listwatch.client.ObjectCodec;
import io.listwatch.client.ObjectList;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Reads a LIST response ({@code {"kind":..,"metadata":{..},"items":[..]}}) from a streaming
 * parser: the list's {@code metadata.resourceVersion}, {@code continue} and
 * {@code remainingItemCount}, and the items one at a time through the codec, so only the
 * decoded objects are held, never the response as a whole. Fields may come in any order.
 * Stateless.
 */
public final class ListDecoder {

  private ListDecoder() {
  }

  /** Reads the list; the parser is before the root object. */
  public static <T> ObjectList<T> read(JsonParser p, ObjectCodec<T> codec) throws IOException {
    if (p.nextToken() != JsonToken.START_OBJECT) {
      throw new IOException("list response is not a JSON object");
    }
    String resourceVersion = "";
    String continueToken = "";
    OptionalLong remaining = OptionalLong.empty();
    List<T> items = new ArrayList<>();
    RecordingInputStream recording = p.getInputSource() instanceof RecordingInputStream r ? r : null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken t = p.nextToken();
      if (field.equals("metadata") && t == JsonToken.START_OBJECT) {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String m = p.currentName();
          JsonToken v = p.nextToken();
          switch (m) {
            case "resourceVersion" -> resourceVersion = v == JsonToken.VALUE_NULL ? "" : p.getValueAsString("");
            case "continue" -> continueToken = v == JsonToken.VALUE_NULL ? "" : p.getValueAsString("");
            case "remainingItemCount" -> {
              if (v == JsonToken.VALUE_NUMBER_INT) {
                remaining = OptionalLong.of(p.getLongValue());
              }
            }
            default -> p.skipChildren();
          }
        }
      } else if (field.equals("items") && t == JsonToken.START_ARRAY) {
        JsonToken item;
        while ((item = p.nextToken()) != JsonToken.END_ARRAY) {
          if (item == JsonToken.START_OBJECT) {
            if (recording != null) {
              recording.discardBefore(p.currentTokenLocation().getByteOffset());
            }
            items.add(codec.decode(p));
          } else if (item == null) {
            throw new IOException("list response ends inside items");
          } else {
            p.skipChildren(); // null items: not objects, skipped
          }
        }
      } else {
        p.skipChildren();
      }
    }
    return new ObjectList<>(items, resourceVersion, continueToken, remaining);
  }
}
