package io.listwatch.api.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.Strconv;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One of kube's {@code field.Error}s: the path of the offending field, the error type, and the
 * message kube's {@code ErrorBody()} prints, e.g. {@code Invalid value: "string": spec.replicas
 * in body must be of type integer: "string"}. {@link #toString()} is kube's {@code Error()}:
 * {@code <field>: <message>}; {@link #toCause()} is the cause kube puts in a 422 Status.
 *
 * <p>Bad values are printed as kube prints them: strings quoted as Go's {@code %q} does,
 * numbers and booleans bare, {@code null} as {@code "null"}, objects and arrays as compact JSON
 * with sorted keys (Go's {@code json.Marshal}).
 *
 * @param field the field path, e.g. {@code spec.versions[0].schema.openAPIV3Schema.type}
 * @param type the error type
 * @param message kube's error body, without the field path
 */
public record FieldError(String field, Type type, String message) {

  /** kube's {@code field.ErrorType}: the word the message starts with and the Status reason. */
  public enum Type {
    REQUIRED("Required value", Reasons.FIELD_VALUE_REQUIRED),
    INVALID("Invalid value", Reasons.FIELD_VALUE_INVALID),
    TYPE_INVALID("Invalid value", Reasons.FIELD_VALUE_TYPE_INVALID),
    FORBIDDEN("Forbidden", Reasons.FIELD_VALUE_FORBIDDEN),
    NOT_SUPPORTED("Unsupported value", Reasons.FIELD_VALUE_NOT_SUPPORTED),
    DUPLICATE("Duplicate value", Reasons.FIELD_VALUE_DUPLICATE),
    TOO_LONG("Too long", Reasons.FIELD_VALUE_TOO_LONG),
    TOO_MANY("Too many", "FieldValueTooMany");

    private final String words;
    private final String reason;

    Type(String words, String reason) {
      this.words = words;
      this.reason = reason;
    }

    /** The words kube's message starts with, e.g. {@code Required value}. */
    public String words() {
      return words;
    }

    /** The {@code reason} of a Status cause, e.g. {@code FieldValueRequired}. */
    public String reason() {
      return reason;
    }
  }

  /** {@code field.Required}: {@code Required value}, then {@code : <detail>} when given. */
  public static FieldError required(String field, String detail) {
    return new FieldError(field, Type.REQUIRED, withDetail(Type.REQUIRED.words, detail));
  }

  /** {@code field.Forbidden}: {@code Forbidden: <detail>}. */
  public static FieldError forbidden(String field, String detail) {
    return new FieldError(field, Type.FORBIDDEN, withDetail(Type.FORBIDDEN.words, detail));
  }

  /** {@code field.Invalid}: {@code Invalid value: <value>: <detail>}. */
  public static FieldError invalid(String field, Object value, String detail) {
    return withValue(field, Type.INVALID, value, detail);
  }

  /** {@code field.TypeInvalid}: worded as {@link #invalid}, with reason FieldValueTypeInvalid. */
  public static FieldError typeInvalid(String field, Object value, String detail) {
    return withValue(field, Type.TYPE_INVALID, value, detail);
  }

  /** {@code field.NotSupported}: {@code Unsupported value: <value>: supported values: "a", "b"}. */
  public static FieldError notSupported(String field, Object value, List<String> supported) {
    List<String> quoted = new ArrayList<>();
    for (String s : supported) {
      quoted.add(Strconv.quote(s));
    }
    String detail = supported.isEmpty() ? "" : "supported values: " + String.join(", ", quoted);
    return withValue(field, Type.NOT_SUPPORTED, value, detail);
  }

  /** {@code field.Duplicate}: {@code Duplicate value: <value>}. */
  public static FieldError duplicate(String field, Object value) {
    return withValue(field, Type.DUPLICATE, value, "");
  }

  /** {@code field.TooLongMaxLength}: {@code Too long: may not be longer than <n>}. */
  public static FieldError tooLong(String field, int maxLength) {
    return new FieldError(field, Type.TOO_LONG,
        Type.TOO_LONG.words + ": may not be longer than " + maxLength);
  }

  /** {@code field.TooMany}: {@code Too many: <actual>: must have at most <max> items}. */
  public static FieldError tooMany(String field, long actual, long max) {
    return new FieldError(field, Type.TOO_MANY,
        Type.TOO_MANY.words + ": " + actual + ": must have at most " + max + " items");
  }

  /** This error as the cause of a 422 Invalid Status. */
  public Status.Cause toCause() {
    return new Status.Cause(type.reason, message, field);
  }

  /** kube's {@code Error()}: {@code <field>: <message>}, or the message alone at the root. */
  @Override
  public String toString() {
    return field.isEmpty() ? message : field + ": " + message;
  }

  private static FieldError withValue(String field, Type type, Object value, String detail) {
    return new FieldError(field, type, withDetail(type.words + ": " + goValue(value), detail));
  }

  private static String withDetail(String body, String detail) {
    return detail == null || detail.isEmpty() ? body : body + ": " + detail;
  }

  /** A bad value as kube's {@code ErrorBody()} prints it. */
  static String goValue(Object value) {
    if (value == null || value instanceof JsonNode n && (n.isNull() || n.isMissingNode())) {
      return Strconv.quote("null");
    }
    if (value instanceof JsonNode n) {
      if (n.isTextual()) {
        return Strconv.quote(n.textValue());
      }
      if (n.isNumber()) {
        return goNumber(n);
      }
      if (n.isBoolean()) {
        return String.valueOf(n.booleanValue());
      }
      return goJson(n);
    }
    if (value instanceof String s) {
      return Strconv.quote(s);
    }
    if (value instanceof List<?> list) {
      StringBuilder b = new StringBuilder("[");
      for (int i = 0; i < list.size(); i++) {
        b.append(i > 0 ? "," : "").append(Strconv.quote(String.valueOf(list.get(i))));
      }
      return b.append(']').toString();
    }
    return String.valueOf(value);
  }

  /** A JSON number as Go's {@code %v} prints the int64 or float64 kube decodes it to. */
  static String goNumber(JsonNode n) {
    if (n.isIntegralNumber()) {
      return n.bigIntegerValue().toString();
    }
    double d = n.doubleValue();
    if (d == Math.rint(d) && Math.abs(d) < 1e21) {
      return new BigDecimal(d).toBigInteger().toString();
    }
    return Double.toString(d);
  }

  /** Go's {@code json.Marshal} of a decoded JSON value: compact, object keys sorted. */
  static String goJson(JsonNode n) {
    if (n.isObject()) {
      Map<String, JsonNode> sorted = new TreeMap<>();
      n.fields().forEachRemaining(e -> sorted.put(e.getKey(), e.getValue()));
      StringBuilder b = new StringBuilder("{");
      for (Map.Entry<String, JsonNode> e : sorted.entrySet()) {
        b.append(b.length() > 1 ? "," : "").append(TextNode.valueOf(e.getKey()).toString())
            .append(':')
            .append(goJson(e.getValue()));
      }
      return b.append('}').toString();
    }
    if (n.isArray()) {
      StringBuilder b = new StringBuilder("[");
      for (int i = 0; i < n.size(); i++) {
        b.append(i > 0 ? "," : "").append(goJson(n.get(i)));
      }
      return b.append(']').toString();
    }
    if (n.isNumber()) {
      return goNumber(n);
    }
    return n.toString();
  }
}
