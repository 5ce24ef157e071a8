package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * Secrets (core/v1), kube's defaults ({@code type: Opaque}) and {@code ValidateSecret} /
 * {@code ValidateSecretUpdate}: the keys of {@code data} are config keys, the values together
 * at most 1 MiB; each built-in type's required content (a service account token's
 * {@code kubernetes.io/service-account.name} annotation, {@code .dockercfg} and
 * {@code .dockerconfigjson} holding a JSON object, a basic-auth username or password,
 * {@code ssh-privatekey}, {@code tls.crt} and {@code tls.key}); on update {@code type} is
 * immutable, and once {@code immutable} is true so are {@code immutable} and {@code data}.
 * {@code stringData} is already merged into {@code data} when this runs ({@code
 * rest.SecretConversion}). Like kube, other types ({@code bootstrap.kubernetes.io/token}
 * included) have no rules of their own here. Stateless.
 */
final class SecretStrategy implements RestStrategy {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** kube's placeholder for the value in an error about a secret's content. */
  private static final String REDACTED = "<secret contents redacted>";

  @Override
  public void defaults(ObjectNode obj) {
    Fields.defaultIfAbsent(obj, "type", "Opaque");
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    if (old != null) {
      String type = obj.path("type").asText("");
      if (!type.equals(old.path("type").asText(""))) {
        errors.add(FieldErrors.invalid("type", type, "field is immutable"));
      }
      DataMaps.immutable(obj, old, List.of("data"), errors);
    }
    DataMaps.maxSize(DataMaps.keys(obj, "data", true, errors), "data", errors);
    JsonNode data = obj.path("data");
    switch (obj.path("type").asText("")) {
      case "kubernetes.io/service-account-token" -> {
        if (obj.path("metadata").path("annotations").path("kubernetes.io/service-account.name").asText("").isEmpty()) {
          errors.add(FieldErrors.required("metadata.annotations[kubernetes.io/service-account.name]", ""));
        }
      }
      case "kubernetes.io/dockercfg" -> jsonObject(data, ".dockercfg", errors);
      case "kubernetes.io/dockerconfigjson" -> jsonObject(data, ".dockerconfigjson", errors);
      case "kubernetes.io/basic-auth" -> {
        if (!data.has("username") && !data.has("password")) {
          errors.add(FieldErrors.required("data[username]", ""));
          errors.add(FieldErrors.required("data[password]", ""));
        }
      }
      case "kubernetes.io/ssh-auth" -> {
        if (data.path("ssh-privatekey").asText("").isEmpty()) {
          errors.add(FieldErrors.required("data[ssh-privatekey]", ""));
        }
      }
      case "kubernetes.io/tls" -> {
        for (String key : List.of("tls.crt", "tls.key")) {
          if (!data.has(key)) {
            errors.add(FieldErrors.required("data[" + key + "]", ""));
          }
        }
      }
      default -> {
      }
    }
  }

  /** {@code data[key]} is required and must decode to a JSON object, as kube's json.Unmarshal into a map. */
  private static void jsonObject(JsonNode data, String key, List<Status.Cause> errors) {
    String path = "data[" + key + "]";
    if (!data.has(key)) {
      errors.add(FieldErrors.required(path, ""));
      return;
    }
    String error = unmarshalError(decode(data.path(key).asText("")));
    if (error != null) {
      errors.add(FieldErrors.invalid(path, REDACTED, error));
    }
  }

  /**
   * The error Go's {@code json.Unmarshal} into a {@code map[string]interface{}} gives for
   * {@code text}, or null if it reads: a JSON object or {@code null}. Go's own wording for a
   * wrong top-level type and for cut-off input; for other syntax errors Go's form
   * {@code invalid character 'x' ...} with the character Jackson stopped at (Go's scanner
   * names what it was looking for; here it says {@code looking for beginning of value}).
   */
  static String unmarshalError(String text) {
    JsonNode node;
    try (com.fasterxml.jackson.core.JsonParser p = JSON.createParser(text)) {
      node = JSON.readTree(p);
      int end = (int) p.currentLocation().getCharOffset();
      while (end < text.length() && " \t\r\n".indexOf(text.charAt(end)) >= 0) {
        end++;
      }
      if (node != null && end < text.length()) {
        return "invalid character " + goChar(text, end) + " after top-level value";
      }
    } catch (com.fasterxml.jackson.core.io.JsonEOFException e) {
      return "unexpected end of JSON input";
    } catch (JsonProcessingException e) {
      int at = (int) Math.max(0, e.getLocation() == null ? 0 : e.getLocation().getCharOffset() - 1);
      return "invalid character " + goChar(text, at) + " looking for beginning of value";
    } catch (java.io.IOException e) {
      return "unexpected end of JSON input";
    }
    if (node == null || node.isMissingNode()) {
      return "unexpected end of JSON input";
    }
    if (node.isObject() || node.isNull()) {
      return null;
    }
    String type = node.isArray() ? "array" : node.isTextual() ? "string" : node.isBoolean() ? "bool" : "number";
    return "json: cannot unmarshal " + type + " into Go value of type map[string]interface {}";
  }

  private static String goChar(String text, int at) {
    char c = at < text.length() ? text.charAt(at) : ' ';
    return c == '\\' ? "'\\\\'" : c == '\'' ? "'\\''" : "'" + c + "'";
  }

  private static String decode(String b64) {
    try {
      return new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return b64;
    }
  }
}
