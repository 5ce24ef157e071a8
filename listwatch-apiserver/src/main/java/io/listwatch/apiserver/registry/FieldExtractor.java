package io.listwatch.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * Reads one selectable field (a {@code fieldSelector} key such as {@code spec.nodeName}) from
 * an object, as the string kube compares selector values against. kube's counterpart is the
 * per-type {@code ToSelectableFields} function that builds a {@code fields.Set}.
 *
 * <p>Contract: {@link #extract} never returns null and never throws for any JSON input. A
 * missing or JSON-null string field is {@code ""}. Fields kube reads from a typed Go field
 * render Go's zero value when missing, because kube compares against the decoded struct:
 * {@link #bool} gives {@code "false"} and {@link #integer} gives {@code "0"} (so
 * {@code spec.unschedulable=false} matches a Node that omits the field, as in kube).
 *
 * <p>Implementations must be stateless and thread-safe: the watch cache calls them from many
 * threads. They must not modify the object.
 */
@FunctionalInterface
public interface FieldExtractor {

  /**
   * The field's value in {@code object}.
   *
   * @param object a whole API object (not its metadata)
   * @return the value kube would put in its {@code fields.Set}; never null
   */
  String extract(JsonNode object);

  /**
   * A string field at a dotted path of object keys, e.g. {@code "spec.nodeName"}: its text, or
   * {@code ""} when any step is missing, null or not an object. A JSON boolean or number renders
   * as its JSON text ({@code "true"}, {@code "3"}); an object or array renders as {@code ""}.
   */
  static FieldExtractor string(String dottedPath) {
    String[] steps = steps(dottedPath);
    return object -> scalarText(walk(object, steps), "");
  }

  /**
   * A boolean field at a dotted path: {@code "true"} or {@code "false"}; {@code "false"} when
   * missing or null (Go's zero value, which kube selects on).
   */
  static FieldExtractor bool(String dottedPath) {
    String[] steps = steps(dottedPath);
    return object -> scalarText(walk(object, steps), "false");
  }

  /**
   * An integer field at a dotted path, in decimal; {@code "0"} when missing or null (Go's zero
   * value, which kube selects on, e.g. ReplicaSet {@code status.replicas}).
   */
  static FieldExtractor integer(String dottedPath) {
    String[] steps = steps(dottedPath);
    return object -> scalarText(walk(object, steps), "0");
  }

  /**
   * This extractor, or {@code fallback} where this one yields {@code ""}. kube's Event
   * {@code source} is {@code source.component}, or {@code reportingComponent} when that is empty.
   */
  default FieldExtractor orElse(FieldExtractor fallback) {
    Objects.requireNonNull(fallback, "fallback");
    return object -> {
      String value = extract(object);
      return value.isEmpty() ? fallback.extract(object) : value;
    };
  }

  private static String[] steps(String dottedPath) {
    Objects.requireNonNull(dottedPath, "dottedPath");
    if (dottedPath.isEmpty() || dottedPath.startsWith(".") || dottedPath.endsWith(".")
        || dottedPath.contains("..")) {
      throw new IllegalArgumentException("not a dotted field path: \"" + dottedPath + "\"");
    }
    return dottedPath.split("\\.");
  }

  private static JsonNode walk(JsonNode node, String[] steps) {
    JsonNode current = node;
    for (String step : steps) {
      if (current == null || !current.isObject()) {
        return null;
      }
      current = current.get(step);
    }
    return current;
  }

  private static String scalarText(JsonNode value, String whenMissing) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return whenMissing;
    }
    if (value.isTextual()) {
      return value.textValue();
    }
    if (value.isBoolean() || value.isNumber()) {
      return value.asText();
    }
    return "";
  }
}
