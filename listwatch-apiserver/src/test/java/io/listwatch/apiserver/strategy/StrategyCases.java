package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.request.ApiResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** What the strategies' validation tests share: a strategy's causes for a body, as {@code field: message}. */
final class StrategyCases {

  private StrategyCases() {
  }

  /** The causes {@code strategy} finds in {@code obj} (an update of {@code old}, or a create if null). */
  static List<String> causes(RestStrategy strategy, String obj, String old) {
    List<Status.Cause> errors = new ArrayList<>();
    strategy.validate(InMemoryCore.json(obj), old == null ? null : InMemoryCore.json(old), errors);
    return lines(errors);
  }

  /** The causes of a create of {@code obj}. */
  static List<String> causes(RestStrategy strategy, String obj) {
    return causes(strategy, obj, null);
  }

  /** Causes as {@code field: message}. */
  static List<String> lines(List<Status.Cause> errors) {
    return errors.stream().map(c -> c.field() + ": " + c.message()).toList();
  }

  /** A response's JSON body as an object. */
  static ObjectNode body(ApiResponse response) {
    StringBuilder b = new StringBuilder();
    for (byte[] part : response.jsonParts().orElseThrow()) {
      b.append(new String(part, StandardCharsets.UTF_8));
    }
    return InMemoryCore.json(b.toString());
  }
}
