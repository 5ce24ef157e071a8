package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Restricted {@code restrictedVolumes} (kube's {@code check_restrictedVolumes.go}), from v1.0:
 * volumes are only of the types {@code configMap}, {@code csi}, {@code downwardAPI},
 * {@code emptyDir}, {@code ephemeral}, {@code persistentVolumeClaim}, {@code projected},
 * {@code secret}. Any other is named by its type, or {@code unknown} (kube 1.32 counts the
 * {@code image} type among those; 1.33 allows it). Replaces {@link HostPathVolumes}. Stateless.
 */
final class RestrictedVolumes {

  static final List<String> ALLOWED = List.of("configMap", "csi", "downwardAPI", "emptyDir", "ephemeral",
      "persistentVolumeClaim", "projected", "secret");
  /** The restricted types kube names, in the order it looks for them. */
  static final List<String> NAMED = List.of("hostPath", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "nfs",
      "iscsi", "glusterfs", "rbd", "flexVolume", "cinder", "cephfs", "flocker", "fc", "azureFile", "vsphereVolume",
      "quobyte", "azureDisk", "photonPersistentDisk", "portworxVolume", "scaleIO", "storageos");

  private RestrictedVolumes() {
  }

  static Check check() {
    return Check.of("restrictedVolumes", Level.RESTRICTED, 0, RestrictedVolumes::v1_0, HostPathVolumes.ID);
  }

  static CheckResult v1_0(JsonNode metadata, JsonNode spec) {
    List<String> bad = new ArrayList<>();
    TreeSet<String> types = new TreeSet<>();
    for (JsonNode v : spec.path("volumes")) {
      if (ALLOWED.stream().anyMatch(t -> Containers.set(v.path(t)))) {
        continue;
      }
      bad.add(v.path("name").asText(""));
      types.add(NAMED.stream().filter(t -> Containers.set(v.path(t))).findFirst().orElse("unknown"));
    }
    if (bad.isEmpty()) {
      return CheckResult.ALLOWED;
    }
    return CheckResult.forbidden("restricted volume types", Messages.pluralize("volume", "volumes", bad.size()) + " "
        + Messages.joinQuote(bad) + " " + Messages.pluralize("uses", "use", bad.size()) + " "
        + Messages.pluralize("restricted volume type", "restricted volume types", types.size()) + " "
        + Messages.joinQuote(types));
  }
}
