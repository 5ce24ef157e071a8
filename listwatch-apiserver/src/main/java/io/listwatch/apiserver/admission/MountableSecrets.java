package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The secrets a pod references, for the {@link ServiceAccount} plug-in: every one kube's
 * {@code VisitPodSecretNames} visits (image pull secrets, secret and projected volumes, the
 * volume plug-ins' secret references, containers' env and envFrom), and kube's
 * {@code limitSecretReferences}, which limits them to the ones an account lists. Stateless.
 */
final class MountableSecrets {

  /** Volume sources holding a {@code secretRef}. */
  private static final List<String> SECRET_REF_SOURCES = List.of("cephfs", "cinder", "flexVolume", "iscsi", "rbd",
      "scaleIO", "storageos");
  private static final List<String> CONTAINER_FIELDS = List.of("initContainers", "containers", "ephemeralContainers");

  private MountableSecrets() {
  }

  /** The names of the secrets {@code spec} references (with repeats). */
  static List<String> referenced(JsonNode spec) {
    List<String> names = new ArrayList<>();
    spec.path("imagePullSecrets").forEach(s -> names.add(s.path("name").asText("")));
    for (JsonNode v : spec.path("volumes")) {
      addIfSet(names, v.path("secret"), "secretName");
      addIfSet(names, v.path("azureFile"), "secretName");
      addIfSet(names, v.path("csi").path("nodePublishSecretRef"), "name");
      SECRET_REF_SOURCES.forEach(source -> addIfSet(names, v.path(source).path("secretRef"), "name"));
      v.path("projected").path("sources").forEach(s -> addIfSet(names, s.path("secret"), "name"));
    }
    for (String field : CONTAINER_FIELDS) {
      for (JsonNode c : spec.path(field)) {
        c.path("envFrom").forEach(e -> addIfSet(names, e.path("secretRef"), "name"));
        c.path("env").forEach(e -> addIfSet(names, e.path("valueFrom").path("secretKeyRef"), "name"));
      }
    }
    return names;
  }

  private static void addIfSet(List<String> names, JsonNode ref, String field) {
    if (ref.isObject()) {
      names.add(ref.path(field).asText(""));
    }
  }

  /** Why {@code spec} may not be admitted under {@code account}, which limits its secrets. */
  static Optional<String> refusal(JsonNode account, JsonNode spec) {
    String sa = account.path("metadata").path("name").asText("");
    Set<String> mountable = names(account.path("secrets"));
    for (JsonNode v : spec.path("volumes")) {
      if (v.path("secret").isObject() && !mountable.contains(v.path("secret").path("secretName").asText(""))) {
        return Optional.of("volume with secret.secretName=\"" + v.path("secret").path("secretName").asText("")
            + "\" is not allowed because service account " + sa + " does not reference that secret");
      }
    }
    for (String field : List.of("initContainers", "containers")) {
      for (JsonNode c : spec.path(field)) {
        for (JsonNode env : c.path("env")) {
          JsonNode ref = env.path("valueFrom").path("secretKeyRef");
          if (ref.isObject() && !mountable.contains(ref.path("name").asText(""))) {
            return Optional.of((field.equals("initContainers") ? "init container " : "container ")
                + c.path("name").asText("") + " with envVar " + env.path("name").asText("")
                + " referencing secret.secretName=\"" + ref.path("name").asText("") + "\" is not allowed because service account "
                + sa + " does not reference that secret");
          }
        }
      }
    }
    Set<String> pullSecrets = names(account.path("imagePullSecrets"));
    JsonNode refs = spec.path("imagePullSecrets");
    for (int i = 0; i < refs.size(); i++) {
      String name = refs.get(i).path("name").asText("");
      if (!pullSecrets.contains(name)) {
        return Optional.of("imagePullSecrets[" + i + "].name=\"" + name + "\" is not allowed because service account "
            + sa + " does not reference that imagePullSecret");
      }
    }
    return Optional.empty();
  }

  private static Set<String> names(JsonNode refs) {
    Set<String> names = new HashSet<>();
    refs.forEach(r -> names.add(r.path("name").asText("")));
    return names;
  }
}
