package io.listwatch.api.patch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.StringJoiner;

/**
 * Renders a JSON value as Go's {@code %v} prints the decoded value, so that the messages of
 * strategic merge errors read as kube's ({@code map: map[image:nginx] does not contain
 * declared merge key: name}), and names a value's JSON type as Go's decoder does. Stateless.
 */
public final class GoValues {

  private GoValues() {
  }

  static String format(JsonNode v) {
    if (v == null || v.isNull() || v.isMissingNode()) {
      return "<nil>";
    }
    if (v.isObject()) {
      List<String> keys = new ArrayList<>();
      v.properties().forEach(e -> keys.add(e.getKey()));
      Collections.sort(keys); // Go prints map keys sorted
      StringJoiner j = new StringJoiner(" ", "map[", "]");
      for (String k : keys) {
        j.add(k + ":" + format(v.get(k)));
      }
      return j.toString();
    }
    if (v.isArray()) {
      StringJoiner j = new StringJoiner(" ", "[", "]");
      v.forEach(e -> j.add(format(e)));
      return j.toString();
    }
    if (v.isNumber()) {
      return v.decimalValue().stripTrailingZeros().toPlainString();
    }
    return v.asText();
  }

  /** Go's name of the decoded type of {@code v}, for {@code json: cannot unmarshal X} messages. */
  public static String jsonKind(JsonNode v) {
    if (v.isObject()) {
      return "object";
    }
    if (v.isArray()) {
      return "array";
    }
    if (v.isTextual()) {
      return "string";
    }
    if (v.isNumber()) {
      return "number";
    }
    if (v.isBoolean()) {
      return "bool";
    }
    return "null";
  }
}
