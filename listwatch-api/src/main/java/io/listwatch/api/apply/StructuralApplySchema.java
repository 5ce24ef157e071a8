package io.listwatch.api.apply;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.patch.ListType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@link ApplySchema} of a custom resource: read from its structural schema (a CRD
 * version's {@code openAPIV3Schema}) as kube reads it for server-side apply. A list's type is
 * its {@code x-kubernetes-list-type} ({@code atomic} when absent), a map list's keys its
 * {@code x-kubernetes-list-map-keys}, whose defaults come from the item schema's
 * {@code default}s; an object with {@code x-kubernetes-map-type: atomic} is owned whole; an
 * object's declared fields are its {@code properties}, and the keys of an
 * {@code additionalProperties} map are not fields. Beneath
 * {@code x-kubernetes-preserve-unknown-fields} or a node the schema does not describe, kube's
 * default applies ({@link ApplySchema#DEDUCED}).
 *
 * <p>Immutable and thread-safe (the schema tree must not be mutated).
 */
public final class StructuralApplySchema implements ApplySchema {

  private final JsonNode schema;

  private StructuralApplySchema(JsonNode schema) {
    this.schema = schema;
  }

  /** The apply schema of a custom resource whose {@code openAPIV3Schema} is {@code root}. */
  public static ApplySchema of(JsonNode root) {
    return root == null || root.isMissingNode() || root.isNull() ? DEDUCED : new StructuralApplySchema(root);
  }

  @Override
  public ApplySchema field(String name) {
    JsonNode property = schema.path("properties").path(name);
    if (!property.isMissingNode()) {
      return of(property);
    }
    JsonNode additional = schema.path("additionalProperties");
    return additional.isObject() ? of(additional) : DEDUCED;
  }

  @Override
  public ApplySchema items() {
    return of(schema.path("items"));
  }

  @Override
  public ListType listType() {
    return switch (schema.path("x-kubernetes-list-type").asText("atomic")) {
      case "set" -> ListType.SET;
      case "map" -> ListType.MAP;
      default -> ListType.ATOMIC;
    };
  }

  @Override
  public List<String> listMapKeys() {
    if (listType() != ListType.MAP) {
      return List.of();
    }
    List<String> keys = new ArrayList<>();
    schema.path("x-kubernetes-list-map-keys").forEach(k -> keys.add(k.asText()));
    return List.copyOf(keys);
  }

  @Override
  public Optional<JsonNode> keyDefault(String key) {
    JsonNode d = schema.path("items").path("properties").path(key).path("default");
    return d.isMissingNode() ? Optional.empty() : Optional.of(d);
  }

  @Override
  public boolean atomicMap() {
    return schema.path("x-kubernetes-map-type").asText("").equals("atomic");
  }

  @Override
  public boolean declaresField(String name) {
    return schema.path("properties").has(name) || !schema.path("additionalProperties").isObject();
  }

  @Override
  public String toString() {
    return "StructuralApplySchema[" + schema.path("type").asText("?") + "]";
  }
}
