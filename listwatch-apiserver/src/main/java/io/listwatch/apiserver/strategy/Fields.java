package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.meta.ObjectMetaRules;

/**
 * The JSON steps the strategies share: finding or making a nested object, kube's "absent"
 * (missing, {@code null}, or an empty string where kube defaults a string), setting a default
 * only where the client left the field absent, and copying a stored field over a written one.
 * A value of the wrong JSON type (a spec that is not an object) is left as it is, for
 * validation; so is metadata that is not an object, by the 400 of
 * {@link ObjectMetaRules#metadata}. Stateless.
 */
final class Fields {

  private Fields() {
  }

  /**
   * {@code parent.field} when it is an object; when missing or null, a new empty one if
   * {@code create}, else null; null when it is something else (left to validation) or when
   * {@code parent} is null.
   */
  static ObjectNode object(ObjectNode parent, String field, boolean create) {
    if (parent == null) {
      return null;
    }
    JsonNode node = parent.get(field);
    if (node == null || node.isNull()) {
      return create ? parent.putObject(field) : null;
    }
    return node instanceof ObjectNode o ? o : null;
  }

  /** Whether {@code obj.field} is missing, {@code null} or an empty string. */
  static boolean absent(ObjectNode obj, String field) {
    JsonNode current = obj.get(field);
    return current == null || current.isNull() || (current.isTextual() && current.asText().isEmpty());
  }

  /** Sets {@code obj.field} to {@code value} when it is {@link #absent}; a null {@code obj} is left alone. */
  static void defaultIfAbsent(ObjectNode obj, String field, int value) {
    if (obj != null && absent(obj, field)) {
      obj.put(field, value);
    }
  }

  /** Sets {@code obj.field} to {@code value} when it is {@link #absent}; a null {@code obj} is left alone. */
  static void defaultIfAbsent(ObjectNode obj, String field, boolean value) {
    if (obj != null && absent(obj, field)) {
      obj.put(field, value);
    }
  }

  /** Sets {@code obj.field} to {@code value} when it is {@link #absent}; a null {@code obj} is left alone. */
  static void defaultIfAbsent(ObjectNode obj, String field, String value) {
    if (obj != null && absent(obj, field)) {
      obj.put(field, value);
    }
  }

  /**
   * Makes {@code obj.metadata.field} what the stored object's is (a copy of it, or missing when
   * {@code old} has none), as kube's status strategies reset metadata a {@code /status} write
   * may not change.
   */
  static void keepStoredMetadata(ObjectNode obj, ObjectNode old, String field) {
    ObjectNode meta = ObjectMetaRules.metadata(obj);
    JsonNode stored = old.path("metadata");
    if (stored.has(field)) {
      meta.set(field, stored.get(field).deepCopy());
    } else {
      meta.remove(field);
    }
  }
}
