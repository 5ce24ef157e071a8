package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.PodSpecValidation.set;
import static io.listwatch.apiserver.strategy.PodSpecValidation.text;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;
import java.util.Set;

/**
 * kube 1.32's rules for a container's environment ({@code ValidateEnv}, {@code ValidateEnvFrom}
 * and the selectors they use), with 1.32's default {@code RelaxedEnvironmentVariableValidation}
 * (beta): a variable's name (and an {@code envFrom} prefix) is any printable ASCII but
 * {@code '='}. A {@code valueFrom} names exactly one source ({@code fieldRef},
 * {@code resourceFieldRef}, {@code configMapKeyRef}, {@code secretKeyRef}) and no
 * {@code value} beside it; an {@code envFrom} exactly one of {@code configMapRef} and
 * {@code secretRef}. Also {@link #objectFieldSelector}, shared with downward API volumes.
 * Stateless.
 */
final class ContainerEnvValidation {

  private static final String RELAXED_NAME =
      "a valid environment variable name must consist only of printable ASCII characters other than '='";
  /** The fields {@code fieldRef} can name at all (kube's {@code ConvertDownwardAPIFieldLabel} for v1). */
  private static final Set<String> DOWNWARD_FIELDS = Set.of("metadata.annotations", "metadata.labels",
      "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.restartPolicy",
      "spec.serviceAccountName", "spec.schedulerName", "status.phase", "status.hostIP", "status.hostIPs",
      "status.podIP", "status.podIPs");
  /** kube's {@code validEnvDownwardAPIFieldPathExpressions}, sorted. */
  static final List<String> ENV_FIELDS = List.of("metadata.name", "metadata.namespace", "metadata.uid",
      "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP",
      "status.podIPs");
  /** kube's {@code validContainerResourceFieldPathExpressions}, sorted. */
  static final List<String> RESOURCE_FIELDS = List.of("limits.cpu", "limits.ephemeral-storage", "limits.memory",
      "requests.cpu", "requests.ephemeral-storage", "requests.memory");

  private ContainerEnvValidation() {
  }

  /** kube's {@code ValidateEnv}. */
  static void env(JsonNode vars, String path, List<Status.Cause> errors) {
    for (int i = 0; i < vars.size(); i++) {
      JsonNode v = vars.get(i);
      String at = path + "[" + i + "]";
      String name = text(v, "name");
      if (name.isEmpty()) {
        errors.add(FieldErrors.required(at + ".name", ""));
      } else {
        relaxedName(name, at + ".name", errors);
      }
      if (set(v, "valueFrom")) {
        valueFrom(v, at + ".valueFrom", errors);
      }
    }
  }

  /** kube's {@code IsRelaxedEnvVarName}. */
  private static void relaxedName(String name, String path, List<Status.Cause> errors) {
    for (int k = 0; k < name.length(); k++) {
      char ch = name.charAt(k);
      if (ch < 0x20 || ch > 0x7e || ch == '=') {
        errors.add(FieldErrors.invalid(path, name, RELAXED_NAME));
        return;
      }
    }
  }

  private static void valueFrom(JsonNode v, String path, List<Status.Cause> errors) {
    JsonNode from = v.path("valueFrom");
    int sources = 0;
    if (set(from, "fieldRef")) {
      sources++;
      objectFieldSelector(from.path("fieldRef"), ENV_FIELDS, path + ".fieldRef", errors);
    }
    if (set(from, "resourceFieldRef")) {
      sources++;
      resourceFieldSelector(from.path("resourceFieldRef"), false, path + ".resourceFieldRef", errors);
    }
    for (String ref : List.of("configMapKeyRef", "secretKeyRef")) {
      if (set(from, ref)) {
        sources++;
        keySelector(from.path(ref), path + "." + ref, errors);
      }
    }
    if (sources == 0) {
      errors.add(FieldErrors.invalid(path, "",
          "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"));
    } else if (!text(v, "value").isEmpty()) {
      errors.add(FieldErrors.invalid(path, "", "may not be specified when `value` is not empty"));
    } else if (sources > 1) {
      errors.add(FieldErrors.invalid(path, "", "may not have more than one field specified at a time"));
    }
  }

  /**
   * kube's {@code validateObjectFieldSelector}: a {@code fieldPath} among {@code supported}, or
   * a subscripted {@code metadata.labels['key']} / {@code metadata.annotations['key']}. An
   * empty {@code apiVersion} counts as kube's default {@code v1}.
   */
  static void objectFieldSelector(JsonNode ref, List<String> supported, String path, List<Status.Cause> errors) {
    String fieldPath = text(ref, "fieldPath");
    if (fieldPath.isEmpty()) {
      errors.add(FieldErrors.required(path + ".fieldPath", ""));
      return;
    }
    int bracket = fieldPath.indexOf('[');
    if (bracket > 0 && fieldPath.endsWith("']") && fieldPath.startsWith("['", bracket)) {
      String base = fieldPath.substring(0, bracket);
      String key = fieldPath.substring(bracket + 2, fieldPath.length() - 2);
      switch (base) {
        case "metadata.annotations" -> PodSpecValidation.qualifiedName(key.toLowerCase(java.util.Locale.ROOT), path, errors);
        case "metadata.labels" -> PodSpecValidation.qualifiedName(key, path, errors);
        default -> errors.add(FieldErrors.invalid(path + ".fieldPath", fieldPath,
            "error converting fieldPath: field label not supported: " + fieldPath));
      }
      return;
    }
    if (!DOWNWARD_FIELDS.contains(fieldPath)) {
      errors.add(FieldErrors.invalid(path + ".fieldPath", fieldPath,
          "error converting fieldPath: field label not supported: " + fieldPath));
    } else if (!supported.contains(fieldPath)) {
      errors.add(FieldErrors.notSupported(path + ".fieldPath", fieldPath, supported));
    }
  }

  /** kube's {@code validateContainerResourceFieldSelector} (the divisor not checked). */
  static void resourceFieldSelector(JsonNode ref, boolean volume, String path, List<Status.Cause> errors) {
    String resource = text(ref, "resource");
    if (volume && text(ref, "containerName").isEmpty()) {
      errors.add(FieldErrors.required(path + ".containerName", ""));
    } else if (resource.isEmpty()) {
      errors.add(FieldErrors.required(path + ".resource", ""));
    } else if (!RESOURCE_FIELDS.contains(resource)
        && !resource.startsWith("requests.hugepages-") && !resource.startsWith("limits.hugepages-")) {
      errors.add(FieldErrors.notSupported(path + ".resource", resource, RESOURCE_FIELDS));
    }
  }

  /** kube's {@code validateConfigMapKeySelector} and {@code validateSecretKeySelector}: a subdomain name, a key. */
  private static void keySelector(JsonNode ref, String path, List<Status.Cause> errors) {
    PodSpecValidation.subdomain(text(ref, "name"), path + ".name", errors);
    if (text(ref, "key").isEmpty()) {
      errors.add(FieldErrors.required(path + ".key", ""));
    }
  }

  /** kube's {@code ValidateEnvFrom}. */
  static void envFrom(JsonNode sources, String path, List<Status.Cause> errors) {
    for (int i = 0; i < sources.size(); i++) {
      JsonNode s = sources.get(i);
      String at = path + "[" + i + "]";
      String prefix = text(s, "prefix");
      if (!prefix.isEmpty()) {
        relaxedName(prefix, at + ".prefix", errors);
      }
      int count = 0;
      for (String ref : List.of("configMapRef", "secretRef")) {
        if (set(s, ref)) {
          count++;
          String name = text(s.path(ref), "name");
          if (name.isEmpty()) {
            errors.add(FieldErrors.required(at + "." + ref + ".name", ""));
          } else {
            // kube's NameIsDNSSubdomain with prefix: a trailing '-' is allowed
            String masked = name.endsWith("-") ? name.substring(0, name.length() - 1) + "a" : name;
            for (String msg : NameSyntax.isDns1123Subdomain(masked)) {
              errors.add(FieldErrors.invalid(at + "." + ref + ".name", name, msg));
            }
          }
        }
      }
      // kube reports these at the list's path
      if (count == 0) {
        errors.add(FieldErrors.invalid(path, "", "must specify one of: `configMapRef` or `secretRef`"));
      } else if (count > 1) {
        errors.add(FieldErrors.invalid(path, "", "may not have more than one field specified at a time"));
      }
    }
  }
}
