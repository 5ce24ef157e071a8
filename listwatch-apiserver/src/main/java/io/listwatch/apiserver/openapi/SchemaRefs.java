package io.listwatch.apiserver.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The {@code $ref}s of a set of definitions, each followed once: every write walks the same
 * property schemas, so each reference is looked up by the schema node that holds it (by
 * identity) instead of by its name. A node outside the definitions is resolved as
 * {@link ProtoSchemas#resolve} does. Immutable after construction, so thread-safe.
 */
final class SchemaRefs {

  private final Map<String, ObjectNode> definitions;
  /** The definition each {@code $ref}-holding node of {@link #definitions} names, by node identity. */
  private final Map<JsonNode, ObjectNode> resolved = new IdentityHashMap<>();

  SchemaRefs(Map<String, ObjectNode> definitions) {
    this.definitions = definitions;
    definitions.values().forEach(this::index);
  }

  /** {@code schema} with its {@code $ref} followed; null for no schema, a missing definition or a non-object. */
  ObjectNode resolve(JsonNode schema) {
    if (schema == null) {
      return null;
    }
    ObjectNode known = resolved.get(schema);
    return known != null ? known : ProtoSchemas.resolve(definitions, schema);
  }

  private void index(JsonNode schema) {
    if (schema == null || !schema.isObject()) {
      return;
    }
    if (schema.has("$ref")) {
      ObjectNode target = ProtoSchemas.resolve(definitions, schema);
      if (target != null) {
        resolved.put(schema, target);
      }
      return;
    }
    schema.path("properties").forEach(this::index);
    index(schema.get("items"));
    index(schema.get("additionalProperties"));
    schema.path("allOf").forEach(this::index);
    schema.path("oneOf").forEach(this::index);
  }
}
