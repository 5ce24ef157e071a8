package io.listwatch.client.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The client's shared Jackson objects. Thread-safe: configured once, never changed.
 */
public final class Json {

  /**
   * The default mapper: unknown properties ignored (a newer server may add fields), nulls
   * left out (kube's {@code omitempty}), empty beans allowed.
   */
  public static final ObjectMapper MAPPER = newMapper();

  /**
   * The mapper's factory, for streaming parsers and generators; a parser of a REST body is a
   * {@link SkippingJsonParser}.
   */
  public static final JsonFactory FACTORY = MAPPER.getFactory();

  private Json() {
  }

  /** The mapper: unknown properties ignored, nulls left out. */
  private static ObjectMapper newMapper() {
    return new ObjectMapper(new SkippingJsonFactory())
        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
        .configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false)
        .setSerializationInclusion(JsonInclude.Include.NON_NULL);
  }
}
