package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;

/** Test helper: prints one object (given as JSON) with a convertor, at a fixed time. */
final class Rows {

  static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  static final String CREATED_5M_AGO = "2026-01-01T11:55:00Z";

  private Rows() {
  }

  static JsonNode json(String json) {
    try {
      return new ObjectMapper().readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Object> cells(TableConvertor convertor, String json) {
    TableRow row = convertor.row(json(json), NOW);
    if (row.cells().size() != convertor.columnDefinitions().size()) {
      throw new AssertionError("one cell per column: " + row.cells() + " vs " + convertor.columnDefinitions());
    }
    return row.cells();
  }

  static List<String> headers(TableConvertor convertor) {
    return convertor.columnDefinitions().stream().map(ColumnDefinition::name).toList();
  }

  /**
   * Each column as {@code name:type}, with {@code :format} when it has one and {@code :wide}
   * when its priority is above 0 (kubectl shows it only with {@code -o wide}).
   */
  static List<String> shapes(TableConvertor convertor) {
    return convertor.columnDefinitions().stream()
        .map(c -> c.name() + ":" + c.type() + (c.format().isEmpty() ? "" : ":" + c.format()) + (c.priority() > 0 ? ":wide" : ""))
        .toList();
  }
}
