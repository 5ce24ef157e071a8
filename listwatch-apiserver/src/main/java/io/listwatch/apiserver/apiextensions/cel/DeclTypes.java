package io.listwatch.apiserver.apiextensions.cel;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The CEL types of a structural schema's values, as kube declares them for {@code self}: an
 * object with {@code properties} is a struct whose fields are the properties (so a rule naming a
 * field the schema does not declare fails to compile), an object with
 * {@code additionalProperties} a {@code map(string, V)}, an array a {@code list(T)}, integer
 * {@code int}, number {@code double}, string {@code string} (with {@code format: byte}
 * {@code bytes}, {@code duration} {@code duration}, {@code date} and {@code date-time}
 * {@code timestamp}), boolean {@code bool}. Values kube
 * leaves untyped are {@code dyn}: {@code x-kubernetes-int-or-string}, objects with
 * {@code x-kubernetes-preserve-unknown-fields} and no properties, schemas without a type.
 *
 * <p>The root of a resource, and every {@code x-kubernetes-embedded-resource}, also has
 * {@code apiVersion}, {@code kind} and a {@code metadata} holding only {@code name} and
 * {@code generateName}, as kube exposes them.
 *
 * <p>Property names that are not CEL identifiers are escaped as kube escapes them
 * ({@link #escape}); names that cannot be escaped are left out of the type and of the value.
 *
 * <p>Built by one thread while compiling; the {@link #provider()} it returns is immutable and
 * thread-safe.
 */
final class DeclTypes {

  private static final Set<String> RESERVED = Set.of("true", "false", "null", "in", "as",
      "break", "const", "continue", "else", "for", "function", "if", "import", "let", "loop",
      "package", "namespace", "return", "var", "void", "while");

  private final Map<String, CelType> structs = new LinkedHashMap<>();

  /** The type of values of {@code schema}; {@code name} names its struct types. */
  CelType typeOf(JsonNode schema, boolean resourceRoot, String name) {
    if (schema == null || !schema.isObject() || Schemas.isDyn(schema)) {
      return SimpleType.DYN;
    }
    boolean embedded = resourceRoot || Schemas.flag(schema, "x-kubernetes-embedded-resource");
    switch (Schemas.type(schema)) {
      case "object" -> {
        JsonNode additional = Schemas.additionalProperties(schema);
        if (additional != null && !embedded) {
          return MapType.create(SimpleType.STRING, typeOf(additional, false, name + "@elem"));
        }
        return struct(schema, embedded, name);
      }
      case "array" -> {
        JsonNode items = Schemas.items(schema);
        return ListType.create(items == null ? SimpleType.DYN
            : typeOf(items, Schemas.flag(items, "x-kubernetes-embedded-resource"),
                name + "@idx"));
      }
      case "integer" -> {
        return SimpleType.INT;
      }
      case "number" -> {
        return SimpleType.DOUBLE;
      }
      case "string" -> {
        return switch (String.valueOf(Schemas.text(schema, "format"))) {
          case "byte" -> SimpleType.BYTES;
          case "duration" -> SimpleType.DURATION;
          case "date", "date-time" -> SimpleType.TIMESTAMP;
          default -> SimpleType.STRING;
        };
      }
      case "boolean" -> {
        return SimpleType.BOOL;
      }
      default -> {
        return SimpleType.DYN;
      }
    }
  }

  /** The struct types built so far, for the checker to resolve. */
  CelTypeProvider provider() {
    Map<String, CelType> copy = Map.copyOf(structs);
    ImmutableList<CelType> all = ImmutableList.copyOf(structs.values());
    return new CelTypeProvider() {
      @Override
      public ImmutableCollection<CelType> types() {
        return all;
      }

      @Override
      public Optional<CelType> findType(String typeName) {
        return Optional.ofNullable(copy.get(typeName));
      }
    };
  }

  private CelType struct(JsonNode schema, boolean embedded, String name) {
    Map<String, CelType> fields = new LinkedHashMap<>();
    if (embedded) {
      fields.put("apiVersion", SimpleType.STRING);
      fields.put("kind", SimpleType.STRING);
      fields.put("metadata", objectMeta(name + ".metadata"));
    }
    for (Map.Entry<String, JsonNode> p : Schemas.properties(schema).entrySet()) {
      String field = escape(p.getKey());
      if (field == null || embedded && p.getKey().equals("metadata")) {
        continue;
      }
      JsonNode sub = p.getValue();
      fields.put(field, typeOf(sub, Schemas.flag(sub, "x-kubernetes-embedded-resource"),
          name + "." + field));
    }
    return register(name, fields);
  }

  private CelType objectMeta(String name) {
    Map<String, CelType> fields = new LinkedHashMap<>();
    fields.put("name", SimpleType.STRING);
    fields.put("generateName", SimpleType.STRING);
    return register(name, fields);
  }

  private CelType register(String name, Map<String, CelType> fields) {
    Map<String, CelType> frozen = Map.copyOf(fields);
    StructType type = StructType.create(name, ImmutableSet.copyOf(fields.keySet()),
        f -> Optional.ofNullable(frozen.get(f)));
    structs.put(name, type);
    return type;
  }

  /**
   * kube's escaping of a property name into a CEL field name: a reserved word {@code w} becomes
   * {@code __w__}; {@code __}, {@code .}, {@code -} and {@code /} become {@code __underscores__},
   * {@code __dot__}, {@code __dash__} and {@code __slash__}. Returns null for a name that
   * cannot be escaped (other characters, or a leading digit).
   */
  static String escape(String name) {
    if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
      return null;
    }
    if (RESERVED.contains(name)) {
      return "__" + name + "__";
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '_' && i + 1 < name.length() && name.charAt(i + 1) == '_') {
        b.append("__underscores__");
        i++;
      } else if (c == '.') {
        b.append("__dot__");
      } else if (c == '-') {
        b.append("__dash__");
      } else if (c == '/') {
        b.append("__slash__");
      } else if (c < 128 && (Character.isLetterOrDigit(c) || c == '_')) {
        b.append(c);
      } else {
        return null;
      }
    }
    return b.toString();
  }
}
