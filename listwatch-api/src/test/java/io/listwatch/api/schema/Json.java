package io.listwatch.api.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Test helper: JSON written with single quotes, so cases stay readable in Java strings. */
final class Json {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {
  }

  static JsonNode parse(String singleQuoted) {
    try {
      return MAPPER.readTree(singleQuoted.replace('\'', '"'));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(singleQuoted, e);
    }
  }
}
