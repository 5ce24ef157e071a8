package io.listwatch.api.schema;

import static io.listwatch.api.schema.SchemaNodes.EMBEDDED_RESOURCE;
import static io.listwatch.api.schema.SchemaNodes.INT_OR_STRING;
import static io.listwatch.api.schema.SchemaNodes.LIST_MAP_KEYS;
import static io.listwatch.api.schema.SchemaNodes.LIST_TYPE;
import static io.listwatch.api.schema.SchemaNodes.PRESERVE_UNKNOWN_FIELDS;
import static io.listwatch.api.schema.SchemaNodes.child;
import static io.listwatch.api.schema.SchemaNodes.flag;
import static io.listwatch.api.schema.SchemaNodes.index;
import static io.listwatch.api.schema.SchemaNodes.key;
import static io.listwatch.api.schema.SchemaNodes.type;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The checks kube's apiextensions validation makes on a CRD version's {@code openAPIV3Schema}
 * when a CustomResourceDefinition is created or updated, with kube's field errors.
 *
 * <p>{@link #validate} runs, as kube does:
 * <ol>
 *   <li>the structural invariants ({@code ValidateStructural}): every specified field has a
 *       {@code type} ({@code Required value: must not be empty for specified object fields}),
 *       the root is {@code type: object} without {@code additionalProperties}, {@code metadata}
 *       at the root may only restrict {@code name} and {@code generateName}, {@code apiVersion}
 *       and {@code kind} are strings, arrays have {@code items}, embedded resources are objects,
 *       and the logic junctors ({@code anyOf}, {@code allOf}, {@code oneOf}, {@code not}) hold
 *       value validations only (no {@code type}, {@code default}, {@code description}, ...),
 *       except the two {@code x-kubernetes-int-or-string} patterns. These errors are sorted by
 *       text, as kube sorts them;</li>
 *   <li>when the schema is structural, the defaults ({@link DefaultRules}): each {@code default}
 *       must validate against its schema and be unchanged by pruning;</li>
 *   <li>the OpenAPI rules every schema node must follow ({@link OpenApiRules}): forbidden
 *       keywords ({@code $ref}, {@code id}, {@code definitions}, ...), the vendor extensions'
 *       allowed values and combinations, list-map keys.</li>
 * </ol>
 *
 * <p>Completeness: every property or {@code items} named under the root's junctors must be
 * specified outside them too ({@code Required value: because it is defined in ...}).
 *
 * <p>Not implemented: the extra rules applied when the status subresource is enabled, and
 * {@code x-kubernetes-validations}: CEL rules are compiled and checked elsewhere, not here.
 * Regular expressions are checked with {@link java.util.regex}, so the text after
 * {@code must be a valid regular expression, but isn't:} is Java's, not Go's.
 *
 * <p>Stateless; thread-safe.
 */
public final class StructuralSchema {

  private enum Level { ROOT, ITEM, FIELD }

  private static final Set<String> META_FIELDS = Set.of("metadata", "apiVersion", "kind");

  private StructuralSchema() {
  }

  /**
   * All errors kube reports for this schema at CRD create or update.
   *
   * @param schema the version's {@code openAPIV3Schema}
   * @param path the schema's field path in the CRD, e.g.
   *     {@code spec.versions[0].schema.openAPIV3Schema}
   * @return the errors, empty when the schema is accepted
   */
  public static List<FieldError> validate(JsonNode schema, String path) {
    List<FieldError> errors = new ArrayList<>();
    if (schema == null || !schema.isObject()) {
      return errors;
    }
    if (flag(schema, "nullable")) {
      errors.add(FieldError.forbidden(child(path, "nullable"),
          "nullable cannot be true at the root"));
    }
    List<FieldError> structural = structuralErrors(schema, path);
    errors.addAll(structural);
    if (structural.isEmpty()) {
      errors.addAll(DefaultRules.validate(schema, path));
    }
    errors.addAll(OpenApiRules.validate(schema, path));
    return errors;
  }

  /** The structural invariants alone, sorted by text ({@code ValidateStructural}). */
  public static List<FieldError> structuralErrors(JsonNode schema, String path) {
    List<FieldError> errors = new ArrayList<>();
    invariants(schema, Level.ROOT, path, errors);
    completeness(schema, schema, path, path, errors);
    errors.sort(Comparator.comparing(FieldError::toString));
    return errors;
  }

  private static void invariants(JsonNode s, Level lvl, String path, List<FieldError> errors) {
    if (s == null || !s.isObject()) {
      return;
    }
    String type = type(s);
    JsonNode items = SchemaNodes.items(s);
    if (type.equals("array") && items == null) {
      errors.add(FieldError.required(child(path, "items"), "must be specified"));
    }
    invariants(items, Level.ITEM, child(path, "items"), errors);
    Map<String, JsonNode> props = SchemaNodes.properties(s);
    props.forEach((k, v) -> invariants(v, Level.FIELD, key(child(path, "properties"), k), errors));

    boolean hasAdditional = s.has("additionalProperties");
    if (hasAdditional && lvl == Level.ROOT) {
      errors.add(FieldError.forbidden(child(path, "additionalProperties"),
          "must not be used at the root"));
    }
    invariants(SchemaNodes.additionalPropertiesSchema(s), Level.FIELD,
        child(path, "additionalProperties"), errors);

    boolean intOrString = flag(s, INT_OR_STRING);
    boolean preserve = flag(s, PRESERVE_UNKNOWN_FIELDS);
    boolean embedded = flag(s, EMBEDDED_RESOURCE);
    if (intOrString && preserve) {
      errors.add(FieldError.invalid(child(path, PRESERVE_UNKNOWN_FIELDS), true,
          "must be false if x-kubernetes-int-or-string is true"));
    }
    if (intOrString && embedded) {
      errors.add(FieldError.invalid(child(path, EMBEDDED_RESOURCE), true,
          "must be false if x-kubernetes-int-or-string is true"));
    }

    valueValidation(s, isIntOrStringAnyOf(s.get("anyOf")), isIntOrStringAllOf(s), lvl, path,
        errors);

    if (embedded && !type.equals("object")) {
      String detail = "must be object if x-kubernetes-embedded-resource is true";
      errors.add(type.isEmpty() ? FieldError.required(child(path, "type"), detail)
          : FieldError.invalid(child(path, "type"), type, detail));
    } else if (type.isEmpty() && !intOrString && !preserve) {
      errors.add(FieldError.required(child(path, "type"), switch (lvl) {
        case ROOT -> "must not be empty at the root";
        case ITEM -> "must not be empty for specified array items";
        case FIELD -> "must not be empty for specified object fields";
      }));
    }
    if (embedded && hasAdditional) {
      errors.add(FieldError.forbidden(child(path, "additionalProperties"),
          "must not be used if x-kubernetes-embedded-resource is set"));
    }
    if (lvl == Level.ROOT && !type.isEmpty() && !type.equals("object")) {
      errors.add(FieldError.invalid(child(path, "type"), type, "must be object at the root"));
    }
    if (lvl == Level.ROOT || embedded) {
      metaFieldTypes(props, path, errors);
    }
    if (lvl == Level.ROOT && props.containsKey("metadata")) {
      rootMetadata(props.get("metadata"), path, errors);
    }
    if (embedded && !preserve && props.isEmpty()) {
      errors.add(FieldError.required(child(path, "properties"),
          "must not be empty if x-kubernetes-embedded-resource is true without "
              + "x-kubernetes-preserve-unknown-fields"));
    }
  }

  private static void metaFieldTypes(Map<String, JsonNode> props, String path,
      List<FieldError> errors) {
    String propsPath = child(path, "properties");
    for (String name : List.of("kind", "apiVersion")) {
      if (props.containsKey(name) && !type(props.get(name)).equals("string")) {
        errors.add(FieldError.invalid(child(key(propsPath, name), "type"), type(props.get(name)),
            "must be string"));
      }
    }
    if (props.containsKey("metadata") && !type(props.get("metadata")).equals("object")) {
      errors.add(FieldError.invalid(child(key(propsPath, "metadata"), "type"),
          type(props.get("metadata")), "must be object"));
    }
  }

  /**
   * At the root, {@code metadata} may only say it is an object (and hold a default, which
   * {@link OpenApiRules} forbids) and list {@code name} and/or {@code generateName}.
   */
  private static void rootMetadata(JsonNode metadata, String path, List<FieldError> errors) {
    boolean ok = true;
    var names = metadata.fieldNames();
    while (names.hasNext()) {
      String keyword = names.next();
      if (keyword.equals("properties")) {
        Set<String> props = SchemaNodes.properties(metadata).keySet();
        ok &= Set.of("name", "generateName").containsAll(props);
      } else if (!keyword.equals("type") && !keyword.equals("default")) {
        ok = false;
      }
    }
    if (!ok) {
      errors.add(FieldError.forbidden(key(child(path, "properties"), "metadata"),
          "must not specify anything other than name and generateName, but metadata is "
              + "implicitly specified"));
    }
  }

  private static void valueValidation(JsonNode v, boolean skipAnyOf, boolean skipFirstAllOfAnyOf,
      Level lvl, String path, List<FieldError> errors) {
    if (!skipAnyOf) {
      junctor(v.get("anyOf"), child(path, "anyOf"), lvl, -1, errors);
    }
    junctor(v.get("allOf"), child(path, "allOf"), lvl, skipFirstAllOfAnyOf ? 0 : -1, errors);
    junctor(v.get("oneOf"), child(path, "oneOf"), lvl, -1, errors);
    if (v.has("not") && v.get("not").isObject()) {
      nested(v.get("not"), false, lvl, child(path, "not"), errors);
    }
    String pattern = SchemaNodes.text(v, "pattern");
    if (pattern != null && !pattern.isEmpty()) {
      try {
        Pattern.compile(pattern);
      } catch (PatternSyntaxException e) {
        errors.add(FieldError.invalid(child(path, "pattern"), pattern,
            "must be a valid regular expression, but isn't: " + e.getDescription()));
      }
    }
  }

  private static void junctor(JsonNode list, String path, Level lvl, int skipAnyOfAt,
      List<FieldError> errors) {
    if (list == null || !list.isArray()) {
      return;
    }
    for (int i = 0; i < list.size(); i++) {
      nested(list.get(i), i == skipAnyOfAt, lvl, index(path, i), errors);
    }
  }

  /** A schema under a logic junctor: value validations only. */
  private static void nested(JsonNode v, boolean skipAnyOf, Level lvl, String path,
      List<FieldError> errors) {
    if (v == null || !v.isObject()) {
      return;
    }
    valueValidation(v, skipAnyOf, false, lvl, path, errors);
    JsonNode items = SchemaNodes.items(v);
    if (items != null) {
      nested(items, false, lvl, child(path, "items"), errors);
    }
    Map<String, JsonNode> props = SchemaNodes.properties(v);
    props.forEach((k, p) ->
        nested(p, false, Level.FIELD, key(child(path, "properties"), k), errors));

    if (!type(v).isEmpty()) {
      errors.add(FieldError.forbidden(child(path, "type"), "must be empty to be structural"));
    }
    if (v.has("additionalProperties")) {
      errors.add(FieldError.forbidden(child(path, "additionalProperties"),
          "must be undefined to be structural"));
    }
    if (v.has("default") && !v.get("default").isNull()) {
      errors.add(FieldError.forbidden(child(path, "default"),
          "must be undefined to be structural"));
    }
    for (String name : List.of("title", "description")) {
      if (!SchemaNodes.get(v, name).asText("").isEmpty()) {
        errors.add(FieldError.forbidden(child(path, name), "must be empty to be structural"));
      }
    }
    if (flag(v, "nullable")) {
      errors.add(FieldError.forbidden(child(path, "nullable"), "must be false to be structural"));
    }
    for (String ext : List.of(PRESERVE_UNKNOWN_FIELDS, EMBEDDED_RESOURCE, INT_OR_STRING)) {
      if (flag(v, ext)) {
        errors.add(FieldError.forbidden(child(path, ext), "must be false to be structural"));
      }
    }
    if (!SchemaNodes.strings(v, LIST_MAP_KEYS).isEmpty()) {
      errors.add(FieldError.forbidden(child(path, LIST_MAP_KEYS),
          "must be empty to be structural"));
    }
    if (v.has(LIST_TYPE)) {
      errors.add(FieldError.forbidden(child(path, LIST_TYPE),
          "must be undefined to be structural"));
    }
    if (props.containsKey("metadata")) {
      errors.add(FieldError.forbidden(key(child(path, "properties"), "metadata"),
          "must not be specified in a nested context"));
    }
  }

  /**
   * Every property or items schema named under the root's junctors must also be specified
   * outside them: {@code Required value: because it is defined in <junctor path>}.
   */
  private static void completeness(JsonNode v, JsonNode s, String sPath, String vPath,
      List<FieldError> errors) {
    if (v == null || !v.isObject()) {
      return;
    }
    if (v.has("not")) {
      nestedCompleteness(v.get("not"), s, sPath, child(vPath, "not"), errors);
    }
    for (String junctor : List.of("allOf", "anyOf", "oneOf")) {
      JsonNode list = v.get(junctor);
      if (list != null && list.isArray()) {
        for (int i = 0; i < list.size(); i++) {
          nestedCompleteness(list.get(i), s, sPath, index(child(vPath, junctor), i), errors);
        }
      }
    }
  }

  private static void nestedCompleteness(JsonNode v, JsonNode s, String sPath, String vPath,
      List<FieldError> errors) {
    if (v == null || !v.isObject()) {
      return;
    }
    if (s == null) {
      errors.add(FieldError.required(sPath, "because it is defined in " + vPath));
      return;
    }
    completeness(v, s, sPath, vPath, errors);
    JsonNode vItems = SchemaNodes.items(v);
    if (vItems != null) {
      nestedCompleteness(vItems, SchemaNodes.items(s), child(sPath, "items"),
          child(vPath, "items"), errors);
    }
    Map<String, JsonNode> sProps = SchemaNodes.properties(s);
    SchemaNodes.properties(v).forEach((k, vProp) -> {
      String sPropPath = key(child(sPath, "properties"), k);
      String vPropPath = key(child(vPath, "properties"), k);
      if (!sProps.containsKey(k)) {
        errors.add(FieldError.required(sPropPath, "because it is defined in " + vPropPath));
      } else {
        nestedCompleteness(vProp, sProps.get(k), sPropPath, vPropPath, errors);
      }
    });
  }

  /** {@code anyOf: [{type: integer}, {type: string}]}, exactly. */
  private static boolean isIntOrStringAnyOf(JsonNode anyOf) {
    return anyOf != null && anyOf.isArray() && anyOf.size() == 2
        && isOnlyType(anyOf.get(0), "integer") && isOnlyType(anyOf.get(1), "string");
  }

  private static boolean isIntOrStringAllOf(JsonNode s) {
    JsonNode allOf = s.get("allOf");
    return allOf != null && allOf.isArray() && !allOf.isEmpty()
        && isIntOrStringAnyOf(allOf.get(0).get("anyOf"));
  }

  private static boolean isOnlyType(JsonNode n, String type) {
    return n.isObject() && n.size() == 1 && type.equals(type(n));
  }

  /** Whether {@code property} of a resource root or embedded resource is type or object meta. */
  static boolean isMetaField(String property) {
    return META_FIELDS.contains(property);
  }
}
