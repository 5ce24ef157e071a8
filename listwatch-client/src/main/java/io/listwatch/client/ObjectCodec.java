package io.listwatch.client;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;

/**
 * How the client reads, writes and identifies objects of one Java type. The REST client
 * decodes list items and watch events one object at a time from a streaming parser, so a
 * list of 100,000 objects is never held as one string or tree.
 *
 * <p>Implementations are thread-safe and stateless between calls.
 *
 * @param <T> the object type
 */
public interface ObjectCodec<T> extends MetaAccessor<T> {

  /**
   * Reads one object. The parser is positioned on the object's {@code START_OBJECT} token;
   * on return it must be on the matching {@code END_OBJECT}.
   */
  T decode(JsonParser parser) throws IOException;

  /** Writes one object as a JSON object. */
  void encode(T object, JsonGenerator generator) throws IOException;

  /** The Java type this codec reads and writes. */
  Class<T> type();
}
