package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube 1.32's {@code ValidatePodSpecificAnnotations} and
 * {@code ValidatePodSpecificAnnotationUpdates}, the annotations a pod's own rules cover: a
 * mirror pod ({@code kubernetes.io/config.mirror}) names its node, and the annotation may not
 * be added, changed or removed later; {@code controller.kubernetes.io/pod-deletion-cost} is a
 * 32-bit integer (an invalid value already stored may stay); the deprecated seccomp
 * annotations name a valid profile; the deprecated AppArmor annotations name one of the pod's
 * containers and a valid profile, and may not be added, changed or removed later. Stateless.
 */
final class PodAnnotationValidation {

  private static final String MIRROR = "kubernetes.io/config.mirror";
  private static final String DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";
  private static final String SECCOMP_POD = "seccomp.security.alpha.kubernetes.io/pod";
  private static final String SECCOMP_CONTAINER = "container.seccomp.security.alpha.kubernetes.io/";
  private static final String APPARMOR = "container.apparmor.security.beta.kubernetes.io/";
  private static final String PATH = "metadata.annotations";

  private PodAnnotationValidation() {
  }

  /** The errors of {@code pod}'s annotations; {@code old} is the stored pod on an update, else null. */
  static void validate(JsonNode pod, JsonNode old, List<Status.Cause> errors) {
    JsonNode annotations = pod.path("metadata").path("annotations");
    JsonNode oldAnnotations = old == null ? null : old.path("metadata").path("annotations");
    if (oldAnnotations != null) {
      updates(annotations, oldAnnotations, errors);
    }
    JsonNode spec = pod.path("spec");
    if (annotations.has(MIRROR) && PodSpecValidation.text(spec, "nodeName").isEmpty()) {
      errors.add(FieldErrors.invalid(PATH + "[" + MIRROR + "]", annotations.path(MIRROR).asText(),
          "must set spec.nodeName if mirror pod annotation is set"));
    }
    boolean tolerateCost = oldAnnotations != null && oldAnnotations.has(DELETION_COST)
        && !validDeletionCost(oldAnnotations.path(DELETION_COST).asText());
    if (annotations.has(DELETION_COST) && !tolerateCost && !validDeletionCost(annotations.path(DELETION_COST).asText())) {
      errors.add(FieldErrors.invalid(PATH + "[" + DELETION_COST + "]", annotations.path(DELETION_COST).asText(),
          "must be a 32bit integer"));
    }
    for (Map.Entry<String, JsonNode> e : annotations.properties()) {
      String key = e.getKey();
      String value = e.getValue().asText();
      if (key.equals(SECCOMP_POD) || key.startsWith(SECCOMP_CONTAINER)) {
        seccomp(key, value, errors);
      }
      if (key.startsWith(APPARMOR)) {
        String container = key.substring(APPARMOR.length());
        if (!containerNames(spec).contains(container)) {
          errors.add(FieldErrors.invalid(PATH + "[" + key + "]", container, "container not found"));
        }
        if (!value.isEmpty() && !value.equals("runtime/default") && !value.equals("unconfined")
            && !value.startsWith("localhost/")) {
          errors.add(FieldErrors.invalid(PATH + "[" + key + "]", value,
              "invalid AppArmor profile name: " + FieldErrors.goValue(value)));
        }
      }
    }
  }

  private static void updates(JsonNode annotations, JsonNode oldAnnotations, List<Status.Cause> errors) {
    for (Map.Entry<String, JsonNode> e : oldAnnotations.properties()) {
      String key = e.getKey();
      if (e.getValue().equals(annotations.get(key))) {
        continue;
      }
      if (key.startsWith(APPARMOR)) {
        errors.add(FieldErrors.forbidden(PATH + "[" + key + "]", "may not remove or update AppArmor annotations"));
      }
      if (key.equals(MIRROR)) {
        errors.add(FieldErrors.forbidden(PATH + "[" + key + "]", "may not remove or update mirror pod annotation"));
      }
    }
    for (Map.Entry<String, JsonNode> e : annotations.properties()) {
      String key = e.getKey();
      if (oldAnnotations.has(key)) {
        continue;
      }
      if (key.startsWith(APPARMOR)) {
        errors.add(FieldErrors.forbidden(PATH + "[" + key + "]", "may not add AppArmor annotations"));
      }
      if (key.equals(MIRROR)) {
        errors.add(FieldErrors.forbidden(PATH + "[" + key + "]", "may not add mirror pod annotation"));
      }
    }
  }

  /** kube's {@code ValidateSeccompProfile}; its path is the annotations' with the key as a child. */
  private static void seccomp(String key, String profile, List<Status.Cause> errors) {
    String path = PATH + "." + key;
    if (profile.equals("runtime/default") || profile.equals("docker/default") || profile.equals("unconfined")) {
      return;
    }
    if (profile.startsWith("localhost/")) {
      VolumeValidation.localDescendingPath(profile.substring("localhost/".length()), path, errors);
      return;
    }
    errors.add(FieldErrors.invalid(path, profile, "must be a valid seccomp profile"));
  }

  /** kube's {@code GetDeletionCostFromPodAnnotations}: a decimal int32, no '+' and no leading zero. */
  private static boolean validDeletionCost(String value) {
    if (value.isEmpty() || !(value.charAt(0) == '-' || value.equals("0") || (value.charAt(0) >= '1' && value.charAt(0) <= '9'))) {
      return false;
    }
    try {
      Integer.parseInt(value);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static Set<String> containerNames(JsonNode spec) {
    Set<String> names = new HashSet<>();
    for (String list : List.of("containers", "initContainers", "ephemeralContainers")) {
      for (JsonNode c : spec.path(list)) {
        names.add(PodSpecValidation.text(c, "name"));
      }
    }
    return names;
  }
}
