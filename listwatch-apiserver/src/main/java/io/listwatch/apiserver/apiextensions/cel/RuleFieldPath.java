package io.listwatch.apiserver.apiextensions.cel;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A rule's {@code fieldPath}: a JSON path of field accessors ({@code .spec.replicas}) and quoted
 * map keys ({@code .labels['app.kubernetes.io/name']}), checked against the schema at the rule's
 * location the way kube's {@code ValidFieldPath} checks it, and rendered as a field path
 * ({@code labels[app.kubernetes.io/name]}) to append to the rule's location in errors.
 * Stateless; thread-safe.
 */
final class RuleFieldPath {

  private RuleFieldPath() {
  }

  /**
   * The field path {@code jsonPath} names under {@code schema}.
   *
   * @throws IllegalArgumentException with kube's reason when it is not a valid path
   */
  static String normalize(String jsonPath, JsonNode schema) {
    StringBuilder out = new StringBuilder();
    JsonNode s = schema;
    int i = 0;
    int n = jsonPath.length();
    while (i < n) {
      char c = jsonPath.charAt(i);
      String name;
      if (c == '.') {
        int end = i + 1;
        while (end < n && ".[]".indexOf(jsonPath.charAt(end)) < 0) {
          end++;
        }
        if (end == i + 1) {
          throw new IllegalArgumentException("unexpected end of JSON path");
        }
        name = jsonPath.substring(i + 1, end);
        i = end;
      } else if (c == '[') {
        if (i + 1 >= n || jsonPath.charAt(i + 1) != '\'') {
          throw new IllegalArgumentException("expected single quoted string but got "
              + token(jsonPath, i + 1));
        }
        int end = i + 2;
        while (end < n && !(jsonPath.charAt(end) == '\'' && jsonPath.charAt(end - 1) != '\\')) {
          end++;
        }
        if (end >= n) {
          throw new IllegalArgumentException("unexpected end of JSON path");
        }
        name = jsonPath.substring(i + 2, end).replace("\\'", "'").replace("\\\\", "\\");
        if (end + 1 >= n || jsonPath.charAt(end + 1) != ']') {
          throw new IllegalArgumentException("expected ] but got " + token(jsonPath, end + 1));
        }
        i = end + 2;
      } else {
        throw new IllegalArgumentException("expected [ or . but got: " + token(jsonPath, i));
      }
      if (s == null || !s.isObject()) {
        throw new IllegalArgumentException("does not refer to a valid field");
      }
      if (s.has("properties")) {
        JsonNode prop = Schemas.properties(s).get(name);
        if (prop == null) {
          throw new IllegalArgumentException("does not refer to a valid field");
        }
        out.append(out.isEmpty() ? "" : ".").append(name);
        s = prop;
      } else if (Schemas.additionalProperties(s) != null) {
        out.append('[').append(name).append(']');
        s = Schemas.additionalProperties(s);
      } else {
        throw new IllegalArgumentException("does not refer to a valid field");
      }
    }
    return out.toString();
  }

  private static String token(String path, int from) {
    if (from >= path.length()) {
      return "";
    }
    int end = from + 1;
    while (end < path.length() && ".[]".indexOf(path.charAt(end)) < 0) {
      end++;
    }
    return path.substring(from, end);
  }
}
