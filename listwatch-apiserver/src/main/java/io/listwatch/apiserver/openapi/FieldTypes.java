package io.listwatch.apiserver.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.Optional;

/**
 * Finds the first value of a parsed object whose JSON type its field cannot hold, in document
 * order, worded as kube's decoding into its Go structs words it: {@code json: cannot unmarshal
 * string into Go struct field DeploymentSpec.spec.replicas of type int32}. kube fails such a
 * request whatever its {@code fieldValidation} (the body cannot be decoded at all).
 *
 * <p>What is checked, by the field's schema: integers (a whole number within int32 or int64),
 * numbers, strings (also {@code date-time} and {@code byte} ones, whose contents are not
 * parsed), booleans, arrays, objects and maps; int-or-string takes either, a Quantity a string
 * or a number in kube's quantity syntax (else kube's {@code quantities must match the regular
 * expression ...}, without a path, as kube's decoder says it). {@code null} is accepted everywhere (Go decodes it as the zero value).
 * Free-form objects ({@code RawExtension}, {@code FieldsV1}) and unknown fields are not looked
 * into. The path names the struct that holds the field and the JSON field names from the top,
 * without list indexes, as Go does.
 *
 * <p>Immutable and thread-safe.
 */
final class FieldTypes {

  /** Definitions in {@link ProtoSchemas.Dialect#OPENAPI_3}, by name. */
  private final Map<String, ObjectNode> definitions;
  /** {@link #definitions}' references, followed once. */
  private final SchemaRefs refs;

  /**
   * Per definition's schema (by identity), the list and map fields kube's Go types encode even
   * when empty: the required ones, and the few optional fields declared without
   * {@code omitempty} ({@link #NOT_OMITTED}).
   */
  private final Map<ObjectNode, Set<String>> keptWhenEmpty = new IdentityHashMap<>();

  /**
   * Per definition's schema (by identity), the scalar fields kube's Go types leave out when zero
   * (non-pointer, {@code omitempty}; {@link ZeroOmittedFields}).
   */
  private final Map<ObjectNode, Set<String>> omittedWhenZero = new IdentityHashMap<>();

  /** Optional list fields that kube's Go types declare without {@code omitempty}. */
  private static final Map<String, Set<String>> NOT_OMITTED = Map.of(
      "io.k8s.api.rbac.v1.Role", Set.of("rules"),
      "io.k8s.api.rbac.v1.ClusterRole", Set.of("rules"),
      "io.k8s.api.discovery.v1.EndpointSlice", Set.of("endpoints"));

  FieldTypes(Map<String, ObjectNode> definitions) {
    this.definitions = Map.copyOf(definitions);
    this.refs = new SchemaRefs(this.definitions);
    definitions.forEach((name, schema) -> {
      Set<String> kept = new HashSet<>(NOT_OMITTED.getOrDefault(name, Set.of()));
      schema.path("required").forEach(f -> kept.add(f.asText()));
      keptWhenEmpty.put(schema, Set.copyOf(kept));
      omittedWhenZero.put(schema, ZeroOmittedFields.of(name));
    });
  }

  /** The first type mismatch in {@code object} read as {@code definition}, as kube words it. */
  Optional<String> firstMismatch(String definition, JsonNode object) {
    ObjectNode schema = definitions.get(definition);
    if (schema == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(check(object, schema, shortName(definition), "", schema));
  }

  private String check(JsonNode value, ObjectNode schema, String struct, String path, JsonNode declared) {
    if (value.isNull() || schema == null) {
      return null;
    }
    String type = schema.path("type").asText("");
    if (schema.has("x-kubernetes-int-or-string")) {
      boolean quantity = isQuantity(schema);
      boolean fits = value.isTextual() || (quantity ? value.isNumber() : value.isIntegralNumber());
      if (fits && quantity && canonicalQuantity(value) == null) {
        return QUANTITY_SYNTAX; // kube's Quantity decoder refuses it, with no field path
      }
      return fits ? null : mismatch(value, struct, path, declared);
    }
    switch (type) {
      case "integer" -> {
        boolean int32 = schema.path("format").asText("").equals("int32");
        boolean fits = value.isIntegralNumber() && (int32 ? value.canConvertToInt() : value.canConvertToLong());
        return fits ? null : mismatch(value, struct, path, declared);
      }
      case "number" -> {
        return value.isNumber() ? null : mismatch(value, struct, path, declared);
      }
      case "string" -> {
        return value.isTextual() ? null : mismatch(value, struct, path, declared);
      }
      case "boolean" -> {
        return value.isBoolean() ? null : mismatch(value, struct, path, declared);
      }
      case "array" -> {
        if (!value.isArray()) {
          return mismatch(value, struct, path, declared);
        }
        JsonNode items = schema.get("items");
        for (JsonNode item : value) {
          String e = check(item, resolve(items), struct, path, items);
          if (e != null) {
            return e;
          }
        }
        return null;
      }
      case "object" -> {
        if (!value.isObject()) {
          return mismatch(value, struct, path, declared);
        }
        JsonNode properties = schema.get("properties");
        JsonNode additional = schema.get("additionalProperties");
        if (properties != null) {
          String name = declared != null && declared.has("$ref")
              ? shortName(ProtoSchemas.Dialect.OPENAPI_3.definition(declared.get("$ref").asText())) : struct;
          for (Map.Entry<String, JsonNode> e : value.properties()) {
            JsonNode property = properties.get(e.getKey());
            if (property != null) {
              String error = check(e.getValue(), resolve(property), name, child(path, e.getKey()), property);
              if (error != null) {
                return error;
              }
            }
          }
        } else if (additional != null && additional.isObject()) {
          for (Map.Entry<String, JsonNode> e : value.properties()) {
            String error = check(e.getValue(), resolve(additional), struct, path, additional);
            if (error != null) {
              return error;
            }
          }
        }
        return null;
      }
      default -> {
        return null; // no type: free-form
      }
    }
  }

  /**
   * Replaces each {@code null} of {@code object} with what Go's decoding makes of it, the zero
   * value: a field set to null is left out ({@code "metadata": null} is no metadata), and a
   * null list element becomes its type's zero ({@code containers: [null]} is one container
   * with nothing set, which validation then refuses as kube does). Then leaves out what Go's
   * encoding with {@code omitempty} leaves out: empty lists and maps, unless the field is
   * encoded even when empty ({@code containers: []} stays). Empty structs stay ({@code {}}).
   * Quantities take kube's canonical form ({@code 0.5} is {@code 500m}, {@code 1024Mi} is
   * {@code 1Gi}, a number a string), as kube encodes them. Zero scalars ({@code false},
   * {@code 0}, {@code ""}) are left out of the fields Go declares as non-pointer scalars with
   * {@code omitempty} ({@link ZeroOmittedFields}: {@code stdin: false}, {@code workingDir: ""},
   * a volume mount's {@code readOnly: false}) and kept elsewhere: in pointer fields
   * ({@code replicas: 0}, {@code defaultMode: 0}), fields without {@code omitempty}
   * ({@code containerPort}, {@code status.replicas}), list elements and map values. The
   * defaults that follow (the strategies' {@code defaults}) then fill what kube's defaulting
   * fills ({@code protocol: ""} is left out, then defaulted to {@code TCP}). Changes
   * {@code object}.
   */
  void zeroNulls(String definition, ObjectNode object) {
    ObjectNode schema = definitions.get(definition);
    if (schema != null) {
      zero(object, schema);
    }
  }

  /** kube's error for a quantity that does not parse ({@code resource.ErrFormatWrong}). */
  static final String QUANTITY_SYNTAX =
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

  /** A resource Quantity's schema: a string or a number (an int-or-string has a format). */
  private static boolean isQuantity(ObjectNode schema) {
    return schema.has("x-kubernetes-int-or-string") && schema.path("format").asText("").isEmpty();
  }

  /** The canonical form kube encodes a quantity in ({@code 0.5} is {@code 500m}), or null if it does not parse. */
  private static String canonicalQuantity(JsonNode value) {
    try {
      return io.listwatch.api.core.Quantity.of(value.asText()).toString();
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private void zero(JsonNode value, ObjectNode schema) {
    if (schema == null) {
      return;
    }
    if (value instanceof com.fasterxml.jackson.databind.node.ArrayNode array) {
      ObjectNode items = resolve(schema.get("items"));
      for (int i = 0; i < array.size(); i++) {
        if (array.get(i).isNull()) {
          JsonNode zero = zeroOf(items);
          if (zero != null) {
            array.set(i, zero);
          }
        } else {
          zero(array.get(i), items);
        }
      }
    } else if (value instanceof ObjectNode o) {
      JsonNode properties = schema.get("properties");
      JsonNode additional = schema.get("additionalProperties");
      for (var it = o.properties().iterator(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (e.getValue().isNull()) {
          if (properties != null && properties.has(e.getKey())) {
            it.remove();
          }
          continue;
        }
        JsonNode property = properties != null ? properties.get(e.getKey())
            : additional != null && additional.isObject() ? additional : null;
        if (property == null) {
          continue;
        }
        ObjectNode propertySchema = resolve(property);
        if (propertySchema != null && isQuantity(propertySchema) && (e.getValue().isTextual() || e.getValue().isNumber())) {
          String canonical = canonicalQuantity(e.getValue());
          if (canonical != null) {
            e.setValue(com.fasterxml.jackson.databind.node.TextNode.valueOf(canonical));
          }
          continue;
        }
        zero(e.getValue(), propertySchema);
        if (properties != null && (omitted(e.getValue(), propertySchema)
            && !keptWhenEmpty.getOrDefault(schema, Set.of()).contains(e.getKey())
            || isZeroScalar(e.getValue()) && omittedWhenZero.getOrDefault(schema, Set.of()).contains(e.getKey()))) {
          it.remove();
        }
      }
    }
  }

  /**
   * Whether Go's {@code omitempty} leaves {@code value} out: an empty list, or an empty map (an
   * object whose schema has no properties of its own, only {@code additionalProperties}). Empty
   * structs are encoded as {@code {}} whatever their tag.
   */
  private static boolean omitted(JsonNode value, ObjectNode schema) {
    if (value.isArray()) {
      return value.isEmpty();
    }
    return value.isObject() && value.isEmpty() && schema != null && !schema.has("properties")
        && schema.has("additionalProperties");
  }

  /** Whether {@code value} is a scalar's zero value: {@code false}, a number equal to 0, or {@code ""}. */
  private static boolean isZeroScalar(JsonNode value) {
    return value.isBoolean() && !value.booleanValue()
        || value.isNumber() && value.decimalValue().signum() == 0
        || value.isTextual() && value.textValue().isEmpty();
  }

  /** The zero value of a list element of {@code schema}'s type, or null where Go keeps a null (pointers, lists). */
  private static JsonNode zeroOf(ObjectNode schema) {
    if (schema == null || schema.has("x-kubernetes-int-or-string")) {
      return null;
    }
    var nodes = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
    return switch (schema.path("type").asText("")) {
      case "object" -> schema.has("properties") ? nodes.objectNode() : null;
      case "string" -> nodes.textNode("");
      case "integer" -> nodes.numberNode(0);
      case "boolean" -> nodes.booleanNode(false);
      default -> null;
    };
  }

  private ObjectNode resolve(JsonNode schema) {
    return refs.resolve(schema);
  }

  private String mismatch(JsonNode value, String struct, String path, JsonNode declared) {
    return "json: cannot unmarshal " + jsonKind(value) + " into Go struct field " + struct + "." + path
        + " of type " + goType(declared);
  }

  /** What Go calls the JSON value: {@code string}, {@code number}, {@code number 1.5}, {@code bool}, .. */
  private static String jsonKind(JsonNode value) {
    if (value.isTextual()) {
      return "string";
    }
    if (value.isBoolean()) {
      return "bool";
    }
    if (value.isArray()) {
      return "array";
    }
    if (value.isObject()) {
      return "object";
    }
    return value.isIntegralNumber() && !value.canConvertToLong() || !value.isIntegralNumber()
        ? "number " + value.asText() : "number";
  }

  /** The Go type of a field, from its declared schema: {@code int32}, {@code []v1.Container}, .. */
  private String goType(JsonNode declared) {
    if (declared == null) {
      return "interface {}";
    }
    if (declared.has("$ref")) {
      String definition = ProtoSchemas.Dialect.OPENAPI_3.definition(declared.get("$ref").asText());
      int kind = definition.lastIndexOf('.');
      int pkg = definition.lastIndexOf('.', kind - 1);
      return definition.substring(pkg + 1);
    }
    String format = declared.path("format").asText("");
    return switch (declared.path("type").asText("")) {
      case "integer" -> format.equals("int32") ? "int32" : "int64";
      case "number" -> format.equals("float") ? "float32" : "float64";
      case "boolean" -> "bool";
      case "string" -> format.equals("byte") ? "[]uint8" : "string";
      case "array" -> "[]" + goType(declared.get("items"));
      case "object" -> declared.has("additionalProperties")
          ? "map[string]" + goType(declared.get("additionalProperties")) : "map[string]interface {}";
      default -> "interface {}";
    };
  }

  private static String shortName(String definition) {
    return definition.substring(definition.lastIndexOf('.') + 1);
  }

  private static String child(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }
}
