package io.listwatch.apiserver.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import java.util.List;

/**
 * kube's {@code field.Error} constructors, producing the {@link Status.Cause} kube puts in a
 * 422 Invalid: {@code reason} is the error type ({@code FieldValueInvalid}, ...), {@code field}
 * the path, and {@code message} kube's {@code ErrorBody()}, e.g.
 * {@code Invalid value: "Foo": a lowercase RFC 1123 ...}. Bad values are printed as Go's
 * {@code %#v} prints them: strings quoted and escaped, numbers bare, string slices as
 * {@code []string{"a", "b"}}.
 *
 * <p>Stateless and thread-safe.
 */
public final class FieldErrors {

  private FieldErrors() {
  }

  /** {@code field.Invalid}: {@code Invalid value: <value>: <detail>}. */
  public static Status.Cause invalid(String field, Object value, String detail) {
    return cause(Reasons.FIELD_VALUE_INVALID, field, "Invalid value: " + goValue(value), detail);
  }

  /** {@code field.Invalid} with kube's {@code field.OmitValueType{}}: {@code Invalid value: <detail>}. */
  public static Status.Cause invalidOmitValue(String field, String detail) {
    return cause(Reasons.FIELD_VALUE_INVALID, field, "Invalid value", detail);
  }

  /** {@code field.Required}: {@code Required value}, then {@code : <detail>} if any. */
  public static Status.Cause required(String field, String detail) {
    return cause(Reasons.FIELD_VALUE_REQUIRED, field, "Required value", detail);
  }

  /** {@code field.Forbidden}: {@code Forbidden: <detail>}. */
  public static Status.Cause forbidden(String field, String detail) {
    return cause(Reasons.FIELD_VALUE_FORBIDDEN, field, "Forbidden", detail);
  }

  /** {@code field.Duplicate}: {@code Duplicate value: <value>}. */
  public static Status.Cause duplicate(String field, Object value) {
    return cause(Reasons.FIELD_VALUE_DUPLICATE, field, "Duplicate value: " + goValue(value), null);
  }

  /**
   * {@code field.NotSupported}: {@code Unsupported value: <value>: supported values: "a", "b"}
   * (the detail left out when {@code supported} is empty).
   */
  public static Status.Cause notSupported(String field, Object value, List<String> supported) {
    StringBuilder detail = new StringBuilder();
    for (String v : supported) {
      detail.append(detail.isEmpty() ? "supported values: " : ", ").append(goQuote(v));
    }
    return cause(Reasons.FIELD_VALUE_NOT_SUPPORTED, field, "Unsupported value: " + goValue(value),
        detail.toString());
  }

  /** {@code field.TooMany}: {@code Too many: <actual>: must have at most <max> items}. */
  public static Status.Cause tooMany(String field, int actual, int max) {
    return cause(Reasons.FIELD_VALUE_TOO_MANY, field, "Too many: " + actual,
        "must have at most " + max + (max == 1 ? " item" : " items"));
  }

  /** {@code field.NotFound}: {@code Not found: <value>}. */
  public static Status.Cause notFound(String field, Object value) {
    return cause(Reasons.FIELD_VALUE_NOT_FOUND, field, "Not found: " + goValue(value), null);
  }

  /** {@code field.TooLong} (1.32 wording): {@code Too long: may not be more than <n> bytes}. */
  public static Status.Cause tooLong(String field, int maxBytes) {
    return cause(Reasons.FIELD_VALUE_TOO_LONG, field, "Too long",
        "may not be more than " + maxBytes + (maxBytes == 1 ? " byte" : " bytes"));
  }

  /**
   * {@code field.TypeInvalid}: {@code Invalid value: "<json type>": must be of type <type>}.
   * kube's typed decoder would refuse such a body with a 400; on a JSON object the closest
   * kube answer is the one its schema validation gives for custom resources.
   */
  public static Status.Cause typeInvalid(String field, JsonNode value, String expectedType) {
    return cause(Reasons.FIELD_VALUE_TYPE_INVALID, field,
        "Invalid value: " + goQuote(jsonType(value)), "must be of type " + expectedType);
  }

  private static Status.Cause cause(String reason, String field, String body, String detail) {
    return new Status.Cause(reason, detail == null || detail.isEmpty() ? body : body + ": " + detail,
        field);
  }

  /** The JSON type name of a node, as kube's schema errors name it. */
  static String jsonType(JsonNode node) {
    if (node == null || node.isNull()) {
      return "null";
    }
    if (node.isTextual()) {
      return "string";
    }
    if (node.isIntegralNumber()) {
      return "integer";
    }
    if (node.isNumber()) {
      return "number";
    }
    if (node.isBoolean()) {
      return "boolean";
    }
    if (node.isArray()) {
      return "array";
    }
    return "object";
  }

  /**
   * How kube's {@code ErrorBody} prints a bad value: strings quoted ({@code %q}), numbers and
   * booleans bare, string slices and string maps as Go's {@code %#v} does
   * ({@code []string{"a", "b"}}, {@code map[string]string{"a":"b", "c":"d"}}, keys sorted).
   */
  public static String goValue(Object value) {
    if (value == null) {
      return "\"null\"";
    }
    if (value instanceof String s) {
      return goQuote(s);
    }
    if (value instanceof java.util.Map<?, ?> map) {
      StringBuilder b = new StringBuilder("map[string]string{");
      java.util.Iterator<? extends java.util.Map.Entry<?, ?>> it =
          new java.util.TreeMap<>(map).entrySet().iterator();
      while (it.hasNext()) {
        java.util.Map.Entry<?, ?> e = it.next();
        b.append(goQuote(String.valueOf(e.getKey()))).append(':').append(goQuote(String.valueOf(e.getValue())));
        if (it.hasNext()) {
          b.append(", ");
        }
      }
      return b.append('}').toString();
    }
    if (value instanceof List<?> list) {
      StringBuilder b = new StringBuilder("[]string{");
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          b.append(", ");
        }
        b.append(goQuote(String.valueOf(list.get(i))));
      }
      return b.append('}').toString();
    }
    return String.valueOf(value);
  }

  /**
   * Go's {@code strconv.Quote}: double quotes, with {@code \"}, {@code \\}, the C escapes,
   * {@code \xNN} for other ASCII controls, and {@code \\uNNNN}/{@code \\UNNNNNNNN} for
   * non-printable code points. Printable Unicode is kept as is.
   */
  public static String goQuote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      switch (cp) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case 0x07 -> b.append("\\a");
        case '\b' -> b.append("\\b");
        case '\f' -> b.append("\\f");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        case 0x0b -> b.append("\\v");
        default -> {
          if (cp < 0x20 || cp == 0x7f) {
            b.append(String.format("\\x%02x", cp));
          } else if (Character.isSurrogate((char) cp) && cp <= 0xffff) {
            b.append("\\ufffd"); // a lone surrogate: Go sees invalid UTF-8 here
          } else if (!isGoPrintable(cp)) {
            b.append(cp <= 0xffff ? String.format("\\u%04x", cp) : String.format("\\U%08x", cp));
          } else {
            b.appendCodePoint(cp);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  /** Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols and ' '. */
  private static boolean isGoPrintable(int cp) {
    if (cp == ' ') {
      return true;
    }
    return switch (Character.getType(cp)) {
      case Character.CONTROL, Character.FORMAT, Character.UNASSIGNED, Character.PRIVATE_USE,
          Character.SURROGATE, Character.SPACE_SEPARATOR, Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR -> false;
      default -> true;
    };
  }
}
