package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.InMemoryCore;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a strategy as the store does for one write (defaults, then validation) and lists the
 * field errors as {@code <field>: <message>}, the way kube prints each one; for the table-driven
 * validation tests of the kinds. Stateless.
 */
final class StrategyCases {

  private StrategyCases() {
  }

  /** The errors of creating {@code json}. */
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
    return errors.stream().map(c -> c.field() + ": " + c.message()).toList();
  }
}
