package io.listwatch.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.apiserver.printers.ColumnDefinition;
import io.listwatch.apiserver.printers.TableConvertor;
import io.listwatch.apiserver.printers.TableRow;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;

/**
 * Writes meta.k8s.io Tables: {@code {"kind":"Table","apiVersion":..,"metadata":{..},
 * "columnDefinitions":[..],"rows":[{"cells":[..],"conditions":[..],"object":{..}}]}}, the
 * rows printed by the resource's {@link TableConvertor}, each row's object as the
 * {@link TableOptions} ask. Stateless.
 */
final class Tables {

  private Tables() {
  }

  /**
   * A Table of {@code objects}.
   *
   * @param resourceVersion the list's (or object's) resourceVersion, or "" for none
   * @param continueToken null when there is no further page
   * @param remainingItemCount null when unknown
   * @param withColumns false to leave {@code columnDefinitions} empty (watch events after the first)
   */
  static byte[] table(TableConvertor convertor, TableOptions options, String resourceVersion, String continueToken,
      Long remainingItemCount, List<JsonNode> objects, boolean withColumns, Instant now) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256 + 512 * objects.size());
    try (JsonGenerator g = Responses.MAPPER.getFactory().createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("kind", "Table");
      g.writeStringField("apiVersion", options.groupVersion());
      g.writeObjectFieldStart("metadata");
      if (!resourceVersion.isEmpty()) {
        g.writeStringField("resourceVersion", resourceVersion);
      }
      if (continueToken != null) {
        g.writeStringField("continue", continueToken);
      }
      if (remainingItemCount != null) {
        g.writeNumberField("remainingItemCount", remainingItemCount);
      }
      g.writeEndObject();
      g.writeArrayFieldStart("columnDefinitions");
      if (withColumns) {
        for (ColumnDefinition c : convertor.columnDefinitions()) {
          g.writeStartObject();
          g.writeStringField("name", c.name());
          g.writeStringField("type", c.type());
          g.writeStringField("format", c.format());
          g.writeStringField("description", c.description());
          g.writeNumberField("priority", c.priority());
          g.writeEndObject();
        }
      }
      g.writeEndArray();
      g.writeArrayFieldStart("rows");
      for (JsonNode object : objects) {
        writeRow(g, convertor.row(object, now), object, options);
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static void writeRow(JsonGenerator g, TableRow row, JsonNode object, TableOptions options)
      throws IOException {
    g.writeStartObject();
    g.writeArrayFieldStart("cells");
    for (Object cell : row.cells()) {
      g.writeObject(cell);
    }
    g.writeEndArray();
    if (!row.conditions().isEmpty()) {
      g.writeArrayFieldStart("conditions");
      for (TableRow.Condition c : row.conditions()) {
        g.writeStartObject();
        g.writeStringField("type", c.type());
        g.writeStringField("status", c.status());
        g.writeStringField("reason", c.reason());
        g.writeStringField("message", c.message());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    switch (options.includeObject()) {
      case OBJECT -> {
        g.writeFieldName("object");
        g.writeTree(object);
      }
      case METADATA -> {
        g.writeObjectFieldStart("object");
        g.writeStringField("kind", "PartialObjectMetadata");
        g.writeStringField("apiVersion", options.groupVersion());
        g.writeFieldName("metadata");
        g.writeTree(object.path("metadata").isObject() ? object.get("metadata") : Responses.MAPPER.createObjectNode());
        g.writeEndObject();
      }
      case NONE -> { }
    }
    g.writeEndObject();
  }

  /** Parses cached object bytes (always valid JSON: the cache holds what storage accepted). */
  static JsonNode parse(byte[] json) {
    try {
      return Responses.MAPPER.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
