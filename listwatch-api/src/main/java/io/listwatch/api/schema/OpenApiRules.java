package io.listwatch.api.schema;

import static io.listwatch.api.schema.SchemaNodes.EMBEDDED_RESOURCE;
import static io.listwatch.api.schema.SchemaNodes.LIST_MAP_KEYS;
import static io.listwatch.api.schema.SchemaNodes.LIST_TYPE;
import static io.listwatch.api.schema.SchemaNodes.MAP_TYPE;
import static io.listwatch.api.schema.SchemaNodes.PRESERVE_UNKNOWN_FIELDS;
import static io.listwatch.api.schema.SchemaNodes.child;
import static io.listwatch.api.schema.SchemaNodes.flag;
import static io.listwatch.api.schema.SchemaNodes.index;
import static io.listwatch.api.schema.SchemaNodes.key;
import static io.listwatch.api.schema.SchemaNodes.type;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The per-node rules of kube's {@code ValidateCustomResourceDefinitionOpenAPISchema}, as
 * applied to new CRDs: supported types, keywords kube does not support ({@code $ref},
 * {@code id}, {@code definitions}, {@code dependencies}, {@code patternProperties},
 * {@code additionalItems}, {@code uniqueItems: true}, {@code type: null}, tuple
 * {@code items}), {@code additionalProperties} beside {@code properties}, defaults in type and
 * object meta, and the {@code x-kubernetes-*} extensions' values and combinations.
 *
 * <p>Stateless; thread-safe.
 */
final class OpenApiRules {

  private static final List<String> TYPES =
      List.of("array", "boolean", "integer", "number", "object", "string");

  /** Where a node sits: whether defaults are allowed there, and whether it is inside meta. */
  private record Context(boolean allowDefaults, String disallowReason, boolean insideMeta) {
    Context forbidDefaults(String reason) {
      return new Context(false, reason, insideMeta);
    }

    Context inMeta() {
      return new Context(allowDefaults, disallowReason, true);
    }
  }

  private OpenApiRules() {
  }

  static List<FieldError> validate(JsonNode schema, String path) {
    List<FieldError> errors = new java.util.ArrayList<>();
    check(schema, path, new Context(true, "", false), true, errors);
    return errors;
  }

  private static void check(JsonNode s, String path, Context ctx, boolean isRoot,
      List<FieldError> errors) {
    if (s == null || !s.isObject()) {
      return;
    }
    node(s, path, ctx, errors);
    if (flag(s, "uniqueItems")) {
      errors.add(FieldError.forbidden(child(path, "uniqueItems"),
          "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"));
    }
    Map<String, JsonNode> props = SchemaNodes.properties(s);
    JsonNode additional = s.get("additionalProperties");
    if (additional != null) {
      if (!props.isEmpty() && (additional.isObject() || additional.isBoolean()
          && !additional.booleanValue())) {
        errors.add(FieldError.forbidden(child(path, "additionalProperties"),
            "additionalProperties and properties are mutual exclusive"));
      }
      Context sub = ctx.insideMeta()
          ? ctx.forbidDefaults("inside additionalProperties applying to object metadata") : ctx;
      check(SchemaNodes.additionalPropertiesSchema(s), child(path, "additionalProperties"), sub,
          false, errors);
    }
    boolean embedded = flag(s, EMBEDDED_RESOURCE);
    props.forEach((name, p) -> {
      Context sub = ctx;
      if ((isRoot || embedded) && StructuralSchema.isMetaField(name)) {
        sub = sub.inMeta();
        if (isRoot) {
          sub = sub.forbidDefaults("in top-level " + name);
        }
      }
      check(p, key(child(path, "properties"), name), sub, false, errors);
    });
    check(s.get("not"), child(path, "not"), ctx, false, errors);
    for (String junctor : List.of("allOf", "oneOf", "anyOf")) {
      JsonNode list = s.get(junctor);
      if (list != null && list.isArray()) {
        for (int i = 0; i < list.size(); i++) {
          check(list.get(i), index(child(path, junctor), i), ctx, false, errors);
        }
      }
    }
    schemaMap(s.get("definitions")).forEach((name, d) ->
        check(d, key(child(path, "definitions"), name), ctx, false, errors));
    JsonNode items = s.get("items");
    if (items != null && items.isObject()) {
      check(items, child(path, "items"), ctx, false, errors);
    } else if (items != null && items.isArray()) {
      for (int i = 0; i < items.size(); i++) {
        check(items.get(i), index(child(path, "items"), i), ctx, false, errors);
      }
    }
    schemaMap(s.get("dependencies")).forEach((name, d) ->
        check(d, key(child(path, "dependencies"), name), ctx, false, errors));
    extensions(s, path, errors);
  }

  /** {@code specStandardValidatorV3.validate}: what a single node may not say. */
  private static void node(JsonNode s, String path, Context ctx, List<FieldError> errors) {
    String type = type(s);
    if (!type.isEmpty() && !TYPES.contains(type)) {
      errors.add(FieldError.notSupported(child(path, "type"), type, TYPES));
    }
    if (s.has("default") && !s.get("default").isNull() && !ctx.allowDefaults()) {
      String detail = "must not be set"
          + (ctx.disallowReason().isEmpty() ? "" : " " + ctx.disallowReason());
      errors.add(FieldError.forbidden(child(path, "default"), detail));
    }
    if (!SchemaNodes.get(s, "id").asText("").isEmpty()) {
      errors.add(FieldError.forbidden(child(path, "id"), "id is not supported"));
    }
    if (s.hasNonNull("additionalItems")) {
      errors.add(FieldError.forbidden(child(path, "additionalItems"),
          "additionalItems is not supported"));
    }
    for (String keyword : List.of("patternProperties", "definitions")) {
      if (s.has(keyword) && !s.get(keyword).isEmpty()) {
        errors.add(FieldError.forbidden(child(path, keyword), keyword + " is not supported"));
      }
    }
    // an empty map is none (clients' models send "dependencies": {}, as kube's decoding drops it)
    if (s.hasNonNull("dependencies") && !s.get("dependencies").isEmpty()) {
      errors.add(FieldError.forbidden(child(path, "dependencies"),
          "dependencies is not supported"));
    }
    if (s.hasNonNull("$ref")) {
      errors.add(FieldError.forbidden(child(path, "$ref"), "$ref is not supported"));
    }
    if (type.equals("null")) {
      errors.add(FieldError.forbidden(child(path, "type"),
          "type cannot be set to null, use nullable as an alternative"));
    }
    if (s.has("items") && s.get("items").isArray() && !s.get("items").isEmpty()) {
      errors.add(FieldError.forbidden(child(path, "items"),
          "items must be a schema object and not an array"));
    }
    if (ctx.insideMeta() && flag(s, EMBEDDED_RESOURCE)) {
      errors.add(FieldError.forbidden(child(path, EMBEDDED_RESOURCE),
          "must not be used inside of resource meta"));
    }
  }

  private static void extensions(JsonNode s, String path, List<FieldError> errors) {
    String type = type(s);
    JsonNode preserve = s.get(PRESERVE_UNKNOWN_FIELDS);
    if (preserve != null && preserve.isBoolean() && !preserve.booleanValue()) {
      errors.add(FieldError.invalid(child(path, PRESERVE_UNKNOWN_FIELDS), false,
          "must be true or undefined"));
    }
    String mapType = SchemaNodes.text(s, MAP_TYPE);
    if (mapType != null && !type.equals("object")) {
      requiredOrInvalidType(path, type, "must be object if x-kubernetes-map-type is specified",
          errors);
    }
    if (mapType != null && !mapType.equals("atomic") && !mapType.equals("granular")) {
      errors.add(FieldError.notSupported(child(path, MAP_TYPE), mapType,
          List.of("atomic", "granular")));
    }
    String listType = SchemaNodes.text(s, LIST_TYPE);
    JsonNode items = SchemaNodes.items(s);
    if (listType != null && !type.equals("array")) {
      requiredOrInvalidType(path, type, "must be array if x-kubernetes-list-type is specified",
          errors);
    } else if ("set".equals(listType) && items != null) {
      setItems(items, path, errors);
    }
    if (listType != null && !List.of("atomic", "set", "map").contains(listType)) {
      errors.add(FieldError.notSupported(child(path, LIST_TYPE), listType,
          List.of("atomic", "set", "map")));
    }
    List<String> mapKeys = SchemaNodes.strings(s, LIST_MAP_KEYS);
    if (!mapKeys.isEmpty() && listType == null) {
      errors.add(FieldError.required(child(path, LIST_TYPE),
          "must be map if x-kubernetes-list-map-keys is non-empty"));
    } else if (!mapKeys.isEmpty() && !listType.equals("map")) {
      errors.add(FieldError.invalid(child(path, LIST_TYPE), listType,
          "must be map if x-kubernetes-list-map-keys is non-empty"));
    }
    if ("map".equals(listType)) {
      ListMapRules.check(s, mapKeys, path, errors);
    }
    if (("set".equals(listType) || "map".equals(listType)) && items != null
        && flag(items, "nullable")) {
      errors.add(FieldError.forbidden(child(child(path, "items"), "nullable"),
          "cannot be nullable when x-kubernetes-list-type is " + listType));
    }
  }

  /** Items of a set must be scalars, atomic lists or atomic maps. */
  private static void setItems(JsonNode items, String path, List<FieldError> errors) {
    String itemsPath = child(path, "items");
    String itemListType = SchemaNodes.text(items, LIST_TYPE);
    String detail = "must be atomic as item of a list with x-kubernetes-list-type=set";
    if (type(items).equals("array") && itemListType != null && !itemListType.equals("atomic")) {
      errors.add(FieldError.invalid(child(itemsPath, LIST_TYPE), itemListType, detail));
    } else if (type(items).equals("object")
        && !"atomic".equals(SchemaNodes.text(items, MAP_TYPE))) {
      // kube prints the items' list type here, usually unset
      errors.add(FieldError.invalid(child(itemsPath, MAP_TYPE), itemListType, detail));
    }
  }

  private static void requiredOrInvalidType(String path, String type, String detail,
      List<FieldError> errors) {
    errors.add(type.isEmpty() ? FieldError.required(child(path, "type"), detail)
        : FieldError.invalid(child(path, "type"), type, detail));
  }

  private static Map<String, JsonNode> schemaMap(JsonNode n) {
    Map<String, JsonNode> out = new TreeMap<>();
    if (n != null && n.isObject()) {
      n.fields().forEachRemaining(e -> {
        if (e.getValue().isObject()) {
          out.put(e.getKey(), e.getValue());
        }
      });
    }
    return out;
  }

  /** The rules for {@code x-kubernetes-list-type: map}. */
  private static final class ListMapRules {
    static void check(JsonNode s, List<String> mapKeys, String path, List<FieldError> errors) {
      if (mapKeys.isEmpty()) {
        errors.add(FieldError.required(child(path, LIST_MAP_KEYS),
            "must not be empty if x-kubernetes-list-type is map"));
      }
      JsonNode rawItems = s.get("items");
      if (rawItems == null) {
        errors.add(FieldError.required(child(path, "items"),
            "must have a schema if x-kubernetes-list-type is map"));
        return;
      }
      if (!rawItems.isObject()) {
        errors.add(FieldError.invalid(child(path, "items"), rawItems,
            "must only have a single schema if x-kubernetes-list-type is map"));
        return;
      }
      String itemsPath = child(path, "items");
      if (!type(rawItems).equals("object")) {
        errors.add(FieldError.invalid(child(itemsPath, "type"), type(rawItems),
            "must be object if parent array's x-kubernetes-list-type is map"));
        return;
      }
      Map<String, JsonNode> props = SchemaNodes.properties(rawItems);
      Set<String> required = new HashSet<>(SchemaNodes.strings(rawItems, "required"));
      Set<String> seen = new HashSet<>();
      for (String k : mapKeys) {
        JsonNode keySchema = props.get(k);
        String keyPath = key(child(itemsPath, "properties"), k);
        if (keySchema == null) {
          errors.add(FieldError.invalid(child(path, LIST_MAP_KEYS), mapKeys,
              "entries must all be names of item properties"));
        } else {
          String keyType = type(keySchema);
          if (keyType.equals("array") || keyType.equals("object")) {
            // kube prints the items' type ("object") as the bad value here
            errors.add(FieldError.invalid(child(keyPath, "type"), type(rawItems),
                "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
          if (!required.contains(k) && (!keySchema.has("default")
              || keySchema.get("default").isNull())) {
            errors.add(FieldError.required(child(keyPath, "default"),
                "this property is in x-kubernetes-list-map-keys, so it must have a default or be "
                    + "a required property"));
          }
          if (flag(keySchema, "nullable")) {
            errors.add(FieldError.forbidden(child(keyPath, "nullable"),
                "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"));
          }
        }
        if (!seen.add(k)) {
          errors.add(FieldError.invalid(child(path, LIST_MAP_KEYS), mapKeys,
              "must not contain duplicate entries"));
        }
      }
    }
  }
}
