package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.PodSpecValidation.set;
import static io.listwatch.apiserver.strategy.PodSpecValidation.text;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.core.Quantity;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube 1.32's {@code ValidateVolumes} and {@code validateVolumeSource}: each volume named (a
 * DNS-1123 label, once) with exactly one source ({@code must specify a volume type}, {@code may
 * not specify more than 1 volume type}), and the common sources' own rules: {@code emptyDir}'s
 * {@code sizeLimit} not negative; {@code hostPath}'s path set without {@code ..} and a known
 * type; {@code gitRepo}'s repository; {@code nfs}'s server and absolute path; {@code secret}/{@code configMap} named, their items' keys and relative paths,
 * file modes within 0777; {@code persistentVolumeClaim}'s {@code claimName}; {@code
 * downwardAPI}'s items; {@code projected}'s sources; {@code csi}'s driver; {@code ephemeral}'s
 * claim template. A volume with errors is left out of the volumes mounts may name, as kube
 * does. Stateless.
 *
 * <p>Not checked: the rules of the other in-tree sources (iSCSI, RBD, cloud disks...)
 * beyond counting them, and the generic ephemeral volume's claim template beyond its presence.
 */
final class VolumeValidation {

  /** The volume sources, in kube's {@code validateVolumeSource} order. */
  private static final List<String> SOURCES = List.of("emptyDir", "hostPath", "gitRepo", "gcePersistentDisk",
      "awsElasticBlockStore", "secret", "nfs", "iscsi", "glusterfs", "flocker", "persistentVolumeClaim", "rbd",
      "cinder", "cephfs", "quobyte", "downwardAPI", "fc", "flexVolume", "configMap", "azureFile", "vsphereVolume",
      "photonPersistentDisk", "portworxVolume", "azureDisk", "storageos", "projected", "scaleIO", "csi",
      "ephemeral", "image");
  private static final List<String> HOST_PATH_TYPES = List.of("", "BlockDevice", "CharDevice", "Directory",
      "DirectoryOrCreate", "File", "FileOrCreate", "Socket");
  private static final String FILE_MODE = "must be a number between 0 and 0777 (octal), both inclusive";
  /** kube's {@code validVolumeDownwardAPIFieldPathExpressions}, sorted. */
  private static final List<String> VOLUME_FIELDS = List.of("metadata.annotations", "metadata.labels",
      "metadata.name", "metadata.namespace", "metadata.uid");

  private VolumeValidation() {
  }

  /**
   * Adds the errors of {@code volumes} (at {@code path}) and answers the valid ones by name,
   * in their order.
   */
  static Map<String, JsonNode> volumes(JsonNode volumes, String path, List<Status.Cause> errors) {
    Map<String, JsonNode> valid = new LinkedHashMap<>();
    for (int i = 0; i < volumes.size(); i++) {
      JsonNode v = volumes.get(i);
      String at = path + "[" + i + "]";
      int before = errors.size();
      source(v, at, errors);
      String name = text(v, "name");
      if (name.isEmpty()) {
        errors.add(FieldErrors.required(at + ".name", ""));
      } else {
        PodSpecValidation.label(name, at + ".name", errors);
      }
      if (valid.containsKey(name)) {
        errors.add(FieldErrors.duplicate(at + ".name", name));
      }
      if (errors.size() == before) {
        valid.put(name, v);
      }
    }
    return valid;
  }

  private static void source(JsonNode v, String path, List<Status.Cause> errors) {
    int count = 0;
    for (String source : SOURCES) {
      if (!set(v, source)) {
        continue;
      }
      if (count > 0) {
        // kube's paths, its spellings included
        String named = switch (source) {
          case "cephfs" -> "cephFS";
          case "downwardAPI" -> "downwarAPI";
          default -> source;
        };
        errors.add(FieldErrors.forbidden(path + "." + named, "may not specify more than 1 volume type"));
        continue;
      }
      count++;
      JsonNode s = v.path(source);
      String at = path + "." + source;
      switch (source) {
        case "emptyDir" -> emptyDir(s, at, errors);
        case "hostPath" -> hostPath(s, at, errors);
        case "secret" -> named(s, "secretName", at, errors);
        case "configMap" -> named(s, "name", at, errors);
        case "gitRepo" -> {
          if (text(s, "repository").isEmpty()) {
            errors.add(FieldErrors.required(at + ".repository", ""));
          }
          localDescendingPath(text(s, "directory"), at + ".directory", errors);
        }
        case "nfs" -> {
          if (text(s, "server").isEmpty()) {
            errors.add(FieldErrors.required(at + ".server", ""));
          }
          if (text(s, "path").isEmpty()) {
            errors.add(FieldErrors.required(at + ".path", ""));
          }
          if (!text(s, "path").startsWith("/")) {
            errors.add(FieldErrors.invalid(at + ".path", text(s, "path"), "must be an absolute path"));
          }
        }
        case "persistentVolumeClaim" -> {
          if (text(s, "claimName").isEmpty()) {
            errors.add(FieldErrors.required(at + ".claimName", ""));
          }
        }
        case "downwardAPI" -> downwardApi(s, at, errors);
        case "projected" -> projected(s, at, errors);
        case "csi" -> {
          if (text(s, "driver").isEmpty()) {
            errors.add(FieldErrors.required(at + ".driver", ""));
          }
        }
        case "ephemeral" -> {
          if (!set(s, "volumeClaimTemplate")) {
            errors.add(FieldErrors.required(at + ".volumeClaimTemplate", ""));
          }
        }
        default -> {
          // the other sources' own rules are not checked here
        }
      }
    }
    if (count == 0) {
      errors.add(FieldErrors.required(path, "must specify a volume type"));
    }
  }

  private static void emptyDir(JsonNode s, String path, List<Status.Cause> errors) {
    JsonNode limit = s.path("sizeLimit");
    if (limit.isTextual() || limit.isNumber()) {
      java.math.BigDecimal amount;
      try {
        amount = limit.isNumber() ? limit.decimalValue() : Quantity.parse(limit.textValue());
      } catch (IllegalArgumentException e) {
        amount = null;
      }
      if (amount == null || amount.signum() < 0) {
        errors.add(FieldErrors.forbidden(path + ".sizeLimit", "SizeLimit field must be a valid resource quantity"));
      }
    }
  }

  private static void hostPath(JsonNode s, String path, List<Status.Cause> errors) {
    String hostPath = text(s, "path");
    if (hostPath.isEmpty()) {
      errors.add(FieldErrors.required(path + ".path", ""));
      return;
    }
    noBacksteps(hostPath, path + ".path", errors);
    String type = text(s, "type");
    if (!HOST_PATH_TYPES.contains(type)) {
      errors.add(FieldErrors.notSupported(path + ".type", type, HOST_PATH_TYPES));
    }
  }

  /** kube's {@code validateSecretVolumeSource} / {@code validateConfigMapVolumeSource}. */
  private static void named(JsonNode s, String nameField, String path, List<Status.Cause> errors) {
    if (text(s, nameField).isEmpty()) {
      errors.add(FieldErrors.required(path + "." + nameField, ""));
    }
    mode(s.path("defaultMode"), path + ".defaultMode", errors);
    JsonNode items = s.path("items");
    for (int i = 0; i < items.size(); i++) {
      keyToPath(items.get(i), path + ".items[" + i + "]", errors);
    }
  }

  /** kube's {@code validateKeyToPath}. */
  private static void keyToPath(JsonNode item, String path, List<Status.Cause> errors) {
    if (text(item, "key").isEmpty()) {
      errors.add(FieldErrors.required(path + ".key", ""));
    }
    String itemPath = text(item, "path");
    if (itemPath.isEmpty()) {
      errors.add(FieldErrors.required(path + ".path", ""));
    }
    localNonReservedPath(itemPath, path + ".path", errors);
    mode(item.path("mode"), path + ".mode", errors);
  }

  private static void downwardApi(JsonNode s, String path, List<Status.Cause> errors) {
    mode(s.path("defaultMode"), path + ".defaultMode", errors);
    downwardApiItems(s.path("items"), path + ".items", errors);
  }

  /** kube's {@code validateDownwardAPIVolumeFile} for each item. */
  private static void downwardApiItems(JsonNode items, String path, List<Status.Cause> errors) {
    for (int i = 0; i < items.size(); i++) {
      JsonNode file = items.get(i);
      String at = path + "[" + i + "]";
      String filePath = text(file, "path");
      if (filePath.isEmpty()) {
        errors.add(FieldErrors.required(at + ".path", ""));
      }
      localNonReservedPath(filePath, at + ".path", errors);
      if (set(file, "fieldRef")) {
        ContainerEnvValidation.objectFieldSelector(file.path("fieldRef"), VOLUME_FIELDS, at + ".fieldRef", errors);
        if (set(file, "resourceFieldRef")) {
          errors.add(FieldErrors.invalid(at, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"));
        }
      } else if (set(file, "resourceFieldRef")) {
        ContainerEnvValidation.resourceFieldSelector(file.path("resourceFieldRef"), true, at + ".resourceFieldRef", errors);
      } else {
        errors.add(FieldErrors.required(at, "one of fieldRef and resourceFieldRef is required"));
      }
      mode(file.path("mode"), at + ".mode", errors);
    }
  }

  /** kube's {@code validateProjectedVolumeSource}, for its common sources. */
  private static void projected(JsonNode s, String path, List<Status.Cause> errors) {
    mode(s.path("defaultMode"), path + ".defaultMode", errors);
    JsonNode sources = s.path("sources");
    for (int i = 0; i < sources.size(); i++) {
      JsonNode source = sources.get(i);
      String at = path + ".sources[" + i + "]";
      int count = 0;
      for (String type : List.of("secret", "downwardAPI", "configMap", "serviceAccountToken", "clusterTrustBundle")) {
        if (!set(source, type)) {
          continue;
        }
        count++;
        JsonNode projection = source.path(type);
        switch (type) {
          case "secret", "configMap" -> {
            JsonNode items = projection.path("items");
            for (int j = 0; j < items.size(); j++) {
              keyToPath(items.get(j), at + "." + type + ".items[" + j + "]", errors);
            }
          }
          case "downwardAPI" -> downwardApiItems(projection.path("items"), at + ".downwardAPI.items", errors);
          case "serviceAccountToken" -> {
            JsonNode expiration = projection.path("expirationSeconds");
            if (expiration.isIntegralNumber() && expiration.longValue() < 600) {
              errors.add(FieldErrors.invalid(at + ".serviceAccountToken.expirationSeconds", expiration.longValue(),
                  "may not specify a duration less than 10 minutes"));
            } else if (expiration.isIntegralNumber() && expiration.longValue() > (1L << 32)) {
              errors.add(FieldErrors.invalid(at + ".serviceAccountToken.expirationSeconds", expiration.longValue(),
                  "may not specify a duration larger than 2^32 seconds"));
            }
            if (text(projection, "path").isEmpty()) {
              errors.add(FieldErrors.required(at + ".serviceAccountToken.path", ""));
            }
          }
          default -> {
            // clusterTrustBundle (a beta feature in 1.32) is not checked
          }
        }
      }
      if (count > 1) {
        errors.add(FieldErrors.forbidden(at, "may not specify more than 1 volume type per source"));
      }
    }
  }

  /** A file mode within 0 and 0777, when set. */
  private static void mode(JsonNode mode, String path, List<Status.Cause> errors) {
    if (mode.isIntegralNumber() && (mode.longValue() < 0 || mode.longValue() > 0777)) {
      errors.add(FieldErrors.invalid(path, mode.longValue(), FILE_MODE));
    }
  }

  /** kube's {@code ValidateLocalNonReservedPath}: relative, no {@code ..} step, not starting with {@code ..}. */
  private static void localNonReservedPath(String p, String path, List<Status.Cause> errors) {
    localDescendingPath(p, path, errors);
    if (p.startsWith("..")) {
      errors.add(FieldErrors.invalid(path, p, "must not start with '..'"));
    }
  }

  /** kube's {@code validateLocalDescendingPath}: relative, no {@code ..} step. */
  static void localDescendingPath(String p, String path, List<Status.Cause> errors) {
    if (p.startsWith("/")) {
      errors.add(FieldErrors.invalid(path, p, "must be a relative path"));
    }
    noBacksteps(p, path, errors);
  }

  /** kube's {@code validatePathNoBacksteps}. */
  private static void noBacksteps(String p, String path, List<Status.Cause> errors) {
    for (String part : p.replace('\\', '/').split("/", -1)) {
      if (part.equals("..")) {
        errors.add(FieldErrors.invalid(path, p, "must not contain '..'"));
        return;
      }
    }
  }
}
