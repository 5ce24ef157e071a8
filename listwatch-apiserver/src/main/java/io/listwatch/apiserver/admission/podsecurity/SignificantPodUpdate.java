package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Whether a pod update can change what the Pod Security checks see (kube's
 * {@code isSignificantPodUpdate}): a pod's spec is immutable but for its images and ephemeral
 * containers, so kube re-evaluates an update only when containers are added or removed, an image
 * changes, an ephemeral container is added or changed, or a container's seccomp annotation
 * changes. Anything else (labels, annotations, status, ...) passes unchecked, so a pod admitted
 * before its namespace's level was raised can still be updated. Stateless.
 */
public final class SignificantPodUpdate {

  private SignificantPodUpdate() {
  }

  /** Whether updating {@code oldPod} to {@code pod} needs a new evaluation. */
  public static boolean test(JsonNode pod, JsonNode oldPod) {
    JsonNode spec = pod.path("spec");
    JsonNode oldSpec = oldPod.path("spec");
    JsonNode annotations = pod.path("metadata").path("annotations");
    JsonNode oldAnnotations = oldPod.path("metadata").path("annotations");
    for (String list : new String[] {"containers", "initContainers"}) {
      JsonNode now = spec.path(list);
      JsonNode before = oldSpec.path(list);
      if (now.size() != before.size()) {
        return true;
      }
      for (int i = 0; i < now.size(); i++) {
        if (changed(now.get(i), before.get(i), annotations, oldAnnotations)) {
          return true;
        }
      }
    }
    for (JsonNode c : spec.path("ephemeralContainers")) {
      JsonNode old = null;
      for (JsonNode o : oldSpec.path("ephemeralContainers")) {
        if (Containers.name(o).equals(Containers.name(c))) {
          old = o;
          break;
        }
      }
      if (old == null || changed(c, old, annotations, oldAnnotations)) {
        return true;
      }
    }
    return false;
  }

  private static boolean changed(JsonNode container, JsonNode old, JsonNode annotations, JsonNode oldAnnotations) {
    if (!container.path("image").asText("").equals(old.path("image").asText(""))) {
      return true;
    }
    String key = SeccompProfileBaseline.CONTAINER_ANNOTATION_PREFIX + Containers.name(container);
    return !annotations.path(key).asText("").equals(oldAnnotations.path(key).asText(""));
  }
}
