package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * kube's rules for the key-value data of ConfigMaps and Secrets: each key a config key
 * ({@code IsConfigMapKey}), the values together at most {@value #MAX_SIZE} bytes
 * ({@code MaxSecretSize}), and, once {@code immutable} is true, {@code immutable} and the data
 * fields frozen. Stateless.
 */
final class DataMaps {

  /** kube's {@code core.MaxSecretSize}: 1 MiB of values in one ConfigMap or Secret. */
  static final int MAX_SIZE = 1024 * 1024;

  /** kube's message for a change to an immutable ConfigMap or Secret. */
  static final String IMMUTABLE = "field is immutable when `immutable` is set";

  private static final String KEY_FORMAT = "[-._a-zA-Z0-9]+";
  private static final java.util.regex.Pattern KEY_PATTERN = java.util.regex.Pattern.compile(KEY_FORMAT);
  private static final String KEY_MESSAGE = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"
      + " (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '" + KEY_FORMAT + "')";

  private DataMaps() {
  }

  /** kube's {@code IsConfigMapKey}: the messages for {@code key}, empty if it is a valid key. */
  static List<String> isConfigMapKey(String key) {
    List<String> errs = new ArrayList<>();
    if (key.length() > 253) {
      errs.add("must be no more than 253 characters");
    }
    if (!KEY_PATTERN.matcher(key).matches()) {
      errs.add(KEY_MESSAGE);
    }
    if (key.equals(".")) {
      errs.add("must not be '.'");
    } else if (key.equals("..")) {
      errs.add("must not be '..'");
    } else if (key.startsWith("..")) {
      errs.add("must not start with '..'");
    }
    return errs;
  }

  /**
   * Adds {@code <field>[<key>]: Invalid value: "<key>": ...} for each bad key of the map
   * {@code obj.field} and returns the byte size of its values ({@code base64}: values are
   * base64 in JSON, counted decoded, as kube's {@code []byte}).
   */
  static long keys(ObjectNode obj, String field, boolean base64, List<Status.Cause> errors) {
    long size = 0;
    for (Map.Entry<String, JsonNode> e : obj.path(field).properties()) {
      for (String msg : isConfigMapKey(e.getKey())) {
        errors.add(FieldErrors.invalid(field + "[" + e.getKey() + "]", e.getKey(), msg));
      }
      size += base64 ? decodedLength(e.getValue().asText("")) : utf8Length(e.getValue().asText(""));
    }
    return size;
  }

  /**
   * kube's immutable rule: when {@code old.immutable} is true, {@code immutable: Forbidden} if
   * {@code obj} no longer says so, and {@code <field>: Forbidden} for each of {@code fields}
   * that changed (an absent, null or empty map counts as no map: kube stores neither).
   */
  static void immutable(ObjectNode obj, ObjectNode old, List<String> fields, List<Status.Cause> errors) {
    if (old == null || !old.path("immutable").asBoolean(false)) {
      return;
    }
    if (!obj.path("immutable").asBoolean(false)) {
      errors.add(FieldErrors.forbidden("immutable", IMMUTABLE));
    }
    for (String f : fields) {
      if (!Objects.equals(content(obj.get(f)), content(old.get(f)))) {
        errors.add(FieldErrors.forbidden(f, IMMUTABLE));
      }
    }
  }

  /** Adds {@code path: Too long: may not be more than 1048576 bytes} when {@code size} is over {@link #MAX_SIZE}. */
  static void maxSize(long size, String path, List<Status.Cause> errors) {
    if (size > MAX_SIZE) {
      errors.add(FieldErrors.tooLong(path, MAX_SIZE));
    }
  }

  private static JsonNode content(JsonNode map) {
    return map == null || map.isNull() || map.isEmpty() ? null : map;
  }

  private static long decodedLength(String b64) {
    int n = b64.length();
    int pad = n > 0 && b64.charAt(n - 1) == '=' ? (n > 1 && b64.charAt(n - 2) == '=' ? 2 : 1) : 0;
    return (long) n * 3 / 4 - pad;
  }

  private static long utf8Length(String s) {
    return io.listwatch.api.validation.NameSyntax.byteLength(s);
  }
}
