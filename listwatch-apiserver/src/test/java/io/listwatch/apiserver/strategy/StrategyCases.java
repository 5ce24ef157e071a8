package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.request.ApiResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What the strategies' validation tests share: a strategy's field errors for a body, each as
 * {@code <field>: <message>}, the way kube prints one. {@link #create} and {@link #update} run the
 * strategy as the store does for one write (defaults, then validation); {@link #causes}
 * validates the body as given. Stateless.
 */
final class StrategyCases {

  private StrategyCases() {
  }

  /** The errors of creating {@code json}, after the kind's defaults. */
  static List<String> create(RestStrategy strategy, String json) {
    return update(strategy, null, json);
  }

  /** The errors of updating the stored {@code oldJson} (defaulted as it was on create) to {@code json}. */
  static List<String> update(RestStrategy strategy, String oldJson, String json) {
    ObjectNode old = null;
    if (oldJson != null) {
      old = InMemoryCore.json(oldJson);
      strategy.defaults(old);
    }
    ObjectNode obj = InMemoryCore.json(json);
    strategy.defaults(obj);
    List<Status.Cause> errors = new ArrayList<>();
    strategy.validate(obj, old, errors);
    return lines(errors);
  }

  /** The causes {@code strategy} finds in {@code obj} as given (an update of {@code old}, or a create if null). */
  static List<String> causes(RestStrategy strategy, String obj, String old) {
    List<Status.Cause> errors = new ArrayList<>();
    strategy.validate(InMemoryCore.json(obj), old == null ? null : InMemoryCore.json(old), errors);
    return lines(errors);
  }

  /** The causes of a create of {@code obj} as given. */
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
