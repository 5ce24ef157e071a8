package io.listwatch.api.schema;

import static io.listwatch.api.schema.SchemaNodes.EMBEDDED_RESOURCE;
import static io.listwatch.api.schema.SchemaNodes.INT_OR_STRING;
import static io.listwatch.api.schema.SchemaNodes.flag;
import static io.listwatch.api.schema.SchemaNodes.type;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Strconv;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Validates a custom resource (or any value) against a structural schema, with the errors kube
 * returns in a 422, e.g. {@code spec.replicas: Invalid value: "string": spec.replicas in body
 * must be of type integer: "string"}.
 *
 * <p>What is checked, as kube checks it: {@code type} (integral numbers pass as
 * {@code number}, integral floats as {@code integer}; {@code x-kubernetes-int-or-string}
 * takes an integer or a string), {@code nullable}, {@code enum}, {@code required},
 * {@code pattern}, {@code minimum}/{@code maximum} with their exclusive flags,
 * {@code multipleOf}, {@code minLength}/{@code maxLength} (in Unicode code points),
 * {@code minItems}/{@code maxItems}, {@code minProperties}/{@code maxProperties}, the string
 * {@code format}s kube knows ({@link Formats}), the range of numeric formats
 * ({@link NumberRanges}: {@code int32}, {@code int64}, {@code float}, ...), {@code allOf}/{@code anyOf}/{@code oneOf}/
 * {@code not}, {@code x-kubernetes-list-type} {@code set} and {@code map} duplicates, and the
 * {@code apiVersion} and {@code kind} an {@code x-kubernetes-embedded-resource} must carry.
 *
 * <p>Field paths: a field is {@code spec.replicas}, a list item {@code spec.ports[0]}, a map
 * value {@code spec.labels.app}; messages name the same path followed by {@code in body}.
 *
 * <p>Not implemented: CEL rules ({@code x-kubernetes-validations}, evaluated separately),
 * validation ratcheting on update, and the metadata of embedded resources beyond
 * {@code apiVersion} and {@code kind}. A failing {@code anyOf} or {@code oneOf} reports a
 * summary ({@code "spec.x" must validate at least one schema (anyOf)}) followed by the errors
 * of the branch that failed least, as kube does.
 *
 * <p>Thread-safe: each call works on its own private instance, confined to the calling thread.
 */
public final class SchemaValidator {

  private final String rootPath;
  private final List<FieldError> errors = new ArrayList<>();

  private SchemaValidator(String rootPath) {
    this.rootPath = rootPath;
  }

  /** Validates a whole object; field paths start at its top-level fields. */
  public static List<FieldError> validate(JsonNode schema, JsonNode object) {
    return validate(schema, object, "");
  }

  /**
   * Validates {@code value} found at {@code fieldPath} (a default, say): error fields are
   * {@code fieldPath} and below, messages name paths relative to {@code value}.
   */
  public static List<FieldError> validate(JsonNode schema, JsonNode value, String fieldPath) {
    SchemaValidator v = new SchemaValidator(fieldPath);
    v.node(schema, value, "");
    v.errors.addAll(ListTypes.validate(schema, value, fieldPath));
    return v.errors;
  }

  private String field(String name) {
    return name.isEmpty() ? rootPath : SchemaNodes.child(rootPath, name);
  }

  /** kube-openapi's {@code "<name> in body <text>"}. */
  private static String inBody(String name, String text) {
    return (name.isEmpty() ? "" : name + " ") + "in body " + text;
  }

  private static String childName(String name, String key) {
    return name.isEmpty() ? key : name + "." + key;
  }

  private void node(JsonNode s, JsonNode v, String name) {
    if (s == null || !s.isObject() || v == null || v.isMissingNode()) {
      return;
    }
    String type = type(s);
    boolean intOrString = flag(s, INT_OR_STRING);
    String expected = intOrString ? "integer,string" : type;
    if (v.isNull()) {
      if (!expected.isEmpty() && !flag(s, "nullable")) {
        errors.add(FieldError.typeInvalid(field(name), "null",
            inBody(name, "must be of type " + expected + ": \"null\"")));
      }
      return;
    }
    if (!expected.isEmpty() && !typeMatches(expected, v)) {
      String actual = jsonType(v);
      errors.add(FieldError.typeInvalid(field(name), actual,
          inBody(name, "must be of type " + expected + ": \"" + actual + "\"")));
      enumeration(s, v, name);
      return;
    }
    junctors(s, v, name);
    if (v.isTextual()) {
      Strings.check(s, v, name, field(name), errors);
    } else if (v.isNumber()) {
      numeric(s, v, name);
    } else if (v.isArray()) {
      array(s, v, name);
    } else if (v.isObject()) {
      object(s, v, name);
    }
    enumeration(s, v, name);
  }

  private static boolean typeMatches(String expected, JsonNode v) {
    boolean integral = v.isIntegralNumber()
        || v.isNumber() && v.doubleValue() == Math.rint(v.doubleValue())
        && !Double.isInfinite(v.doubleValue());
    return switch (expected) {
      case "integer,string" -> integral || v.isTextual();
      case "integer" -> integral;
      case "number" -> v.isNumber();
      case "string" -> v.isTextual();
      case "boolean" -> v.isBoolean();
      case "array" -> v.isArray();
      case "object" -> v.isObject();
      default -> true;
    };
  }

  /** The JSON type name kube reports for a value. */
  static String jsonType(JsonNode v) {
    if (v.isTextual()) {
      return "string";
    } else if (v.isIntegralNumber()) {
      return "integer";
    } else if (v.isNumber()) {
      return "number";
    } else if (v.isBoolean()) {
      return "boolean";
    } else if (v.isArray()) {
      return "array";
    }
    return v.isNull() ? "null" : "object";
  }

  private void enumeration(JsonNode s, JsonNode v, String name) {
    JsonNode allowed = s.get("enum");
    if (allowed == null || !allowed.isArray() || allowed.isEmpty()) {
      return;
    }
    List<String> values = new ArrayList<>();
    for (JsonNode a : allowed) {
      if (jsonEquals(a, v)) {
        return;
      }
      values.add(a.isTextual() ? a.textValue() : FieldError.goJson(a));
    }
    errors.add(FieldError.notSupported(field(name), v, values));
  }

  /** JSON equality, with 1 and 1.0 equal as they are once decoded. */
  static boolean jsonEquals(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    if (a.isObject() && b.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!b.has(e.getKey()) || !jsonEquals(e.getValue(), b.get(e.getKey()))) {
          return false;
        }
      }
      return true;
    }
    if (a.isArray() && b.isArray()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!jsonEquals(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  private void numeric(JsonNode s, JsonNode v, String name) {
    BigDecimal x = v.decimalValue();
    String rangeError = NumberRanges.check(type(s), SchemaNodes.text(s, "format"), x);
    if (rangeError != null) {
      errors.add(FieldError.invalid(rootPath, "", "Checked value must be of type " + rangeError
          + " in " + name));
    }
    JsonNode max = s.get("maximum");
    if (max != null && max.isNumber()) {
      boolean exclusive = flag(s, "exclusiveMaximum");
      int c = x.compareTo(max.decimalValue());
      if (exclusive ? c >= 0 : c > 0) {
        errors.add(FieldError.invalid(field(name), v, inBody(name, "should be less than "
            + (exclusive ? "" : "or equal to ") + FieldError.goNumber(max))));
      }
    }
    JsonNode min = s.get("minimum");
    if (min != null && min.isNumber()) {
      boolean exclusive = flag(s, "exclusiveMinimum");
      int c = x.compareTo(min.decimalValue());
      if (exclusive ? c <= 0 : c < 0) {
        errors.add(FieldError.invalid(field(name), v, inBody(name, "should be greater than "
            + (exclusive ? "" : "or equal to ") + FieldError.goNumber(min))));
      }
    }
    JsonNode multipleOf = s.get("multipleOf");
    if (multipleOf != null && multipleOf.isNumber() && multipleOf.decimalValue().signum() > 0
        && x.remainder(multipleOf.decimalValue()).signum() != 0) {
      errors.add(FieldError.invalid(field(name), v,
          inBody(name, "should be a multiple of " + FieldError.goNumber(multipleOf))));
    }
  }

  private void array(JsonNode s, JsonNode v, String name) {
    JsonNode max = s.get("maxItems");
    if (max != null && max.canConvertToLong() && v.size() > max.asLong()) {
      errors.add(FieldError.tooMany(field(name), v.size(), max.asLong()));
    }
    JsonNode min = s.get("minItems");
    if (min != null && min.canConvertToLong() && v.size() < min.asLong()) {
      errors.add(FieldError.invalid(field(name), (long) v.size(),
          inBody(name, "should have at least " + min.asLong() + " items")));
    }
    JsonNode items = SchemaNodes.items(s);
    for (int i = 0; i < v.size(); i++) {
      node(items, v.get(i), name + "[" + i + "]");
    }
  }

  private void object(JsonNode s, JsonNode v, String name) {
    JsonNode max = s.get("maxProperties");
    if (max != null && max.canConvertToLong() && v.size() > max.asLong()) {
      errors.add(FieldError.tooMany(field(name), v.size(), max.asLong()));
    }
    JsonNode min = s.get("minProperties");
    if (min != null && min.canConvertToLong() && v.size() < min.asLong()) {
      errors.add(FieldError.invalid(field(name), (long) v.size(),
          inBody(name, "should have at least " + min.asLong() + " properties")));
    }
    for (String required : SchemaNodes.strings(s, "required")) {
      if (!v.has(required)) {
        errors.add(FieldError.required(field(childName(name, required)), ""));
      }
    }
    if (flag(s, EMBEDDED_RESOURCE)) {
      for (String typeMeta : List.of("apiVersion", "kind")) {
        if (v.path(typeMeta).asText("").isEmpty()) {
          errors.add(FieldError.required(field(childName(name, typeMeta)), "must not be empty"));
        }
      }
    }
    Map<String, JsonNode> props = SchemaNodes.properties(s);
    JsonNode additional = SchemaNodes.additionalPropertiesSchema(s);
    for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode sub = props.containsKey(e.getKey()) ? props.get(e.getKey()) : additional;
      node(sub, e.getValue(), childName(name, e.getKey()));
    }
  }

  private void junctors(JsonNode s, JsonNode v, String name) {
    JsonNode allOf = s.get("allOf");
    if (allOf != null && allOf.isArray()) {
      allOf.forEach(sub -> node(sub, v, name));
    }
    JsonNode anyOf = s.get("anyOf");
    if (anyOf != null && anyOf.isArray() && !anyOf.isEmpty()) {
      List<FieldError> best = bestFailures(anyOf, v, name);
      if (best != null) {
        summary(name, "must validate at least one schema (anyOf)");
        errors.addAll(best);
      }
    }
    JsonNode oneOf = s.get("oneOf");
    if (oneOf != null && oneOf.isArray() && !oneOf.isEmpty()) {
      List<FieldError> best = bestFailures(oneOf, v, name);
      if (best != null || countPassing(oneOf, v, name) > 1) {
        summary(name, "must validate one and only one schema (oneOf)");
        if (best != null) {
          errors.addAll(best);
        }
      }
    }
    JsonNode not = s.get("not");
    if (not != null && not.isObject() && branch(not, v, name).isEmpty()) {
      summary(name, "must not validate the schema (not)");
    }
  }

  /** A junctor failure, reported at the validated root with an empty value, as kube does. */
  private void summary(String name, String text) {
    errors.add(FieldError.invalid(rootPath, "",
        (name.isEmpty() ? "" : Strconv.quote(name) + " ") + text));
  }

  /** The errors of one junctor branch, validated at the same place as its parent. */
  private List<FieldError> branch(JsonNode sub, JsonNode v, String name) {
    SchemaValidator b = new SchemaValidator(rootPath);
    b.node(sub, v, name);
    return b.errors;
  }

  /** Null when some branch passes, else the errors of the branch that failed least. */
  private List<FieldError> bestFailures(JsonNode branches, JsonNode v, String name) {
    List<FieldError> best = null;
    for (JsonNode sub : branches) {
      List<FieldError> errs = branch(sub, v, name);
      if (errs.isEmpty()) {
        return null;
      }
      if (best == null || errs.size() < best.size()) {
        best = errs;
      }
    }
    return best;
  }

  private int countPassing(JsonNode branches, JsonNode v, String name) {
    int passing = 0;
    for (JsonNode sub : branches) {
      if (branch(sub, v, name).isEmpty()) {
        passing++;
      }
    }
    return passing;
  }

  /** String keywords: length, pattern, format. */
  private static final class Strings {
    static void check(JsonNode s, JsonNode v, String name, String field, List<FieldError> errors) {
      String text = v.textValue();
      long length = text.codePointCount(0, text.length());
      JsonNode max = s.get("maxLength");
      if (max != null && max.canConvertToLong() && length > max.asLong()) {
        errors.add(FieldError.tooLong(field, max.asInt()));
      }
      JsonNode min = s.get("minLength");
      if (min != null && min.canConvertToLong() && length < min.asLong()) {
        errors.add(FieldError.invalid(field, v,
            inBody(name, "should be at least " + min.asLong() + " chars long")));
      }
      String pattern = SchemaNodes.text(s, "pattern");
      if (pattern != null && !pattern.isEmpty() && !matches(pattern, text)) {
        errors.add(FieldError.invalid(field, v, inBody(name, "should match '" + pattern + "'")));
      }
      String format = SchemaNodes.text(s, "format");
      if (format != null && !format.isEmpty() && !Formats.isValid(format, text)) {
        errors.add(FieldError.typeInvalid(field, v,
            inBody(name, "must be of type " + format + ": " + FieldError.goValue(v))));
      }
    }

    private static final Map<String, Pattern> PATTERNS = new ConcurrentHashMap<>();

    private static boolean matches(String pattern, String text) {
      try {
        return PATTERNS.computeIfAbsent(pattern, Pattern::compile).matcher(text).find();
      } catch (RuntimeException e) {
        return true; // an invalid pattern is refused when the CRD is written, not here
      }
    }
  }
}
