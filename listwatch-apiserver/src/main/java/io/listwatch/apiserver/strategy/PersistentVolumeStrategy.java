package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.apiserver.validation.FieldErrors;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * PersistentVolumes (core/v1), kube's strategy, defaults ({@code
 * persistentVolumeReclaimPolicy: Retain}, {@code volumeMode: Filesystem}) and
 * {@code ValidatePersistentVolume} / {@code ...Update}; a new volume is Pending, with
 * {@code lastPhaseTransitionTime} the time of its creation.
 *
 * <p>Checked: {@code spec.accessModes} (required, kube's four modes, ReadWriteOncePod alone);
 * {@code spec.capacity} (required, only {@code storage}, greater than zero); the reclaim policy
 * and volume mode among kube's values; exactly one volume source (the second and later ones
 * {@code may not specify more than 1 volume type}), with the required fields of hostPath, nfs,
 * local and csi; a local volume needs {@code nodeAffinity}, whose {@code required} has at least
 * one term; no Recycle for a hostPath of {@code /}; the storage class a DNS subdomain. On
 * update the volume source ({@code spec.persistentvolumesource}), {@code volumeMode} and a set
 * {@code nodeAffinity} are immutable. kube's message for a changed source ends with a diff of
 * the two sources; here it ends after the sentence. {@code spec.volumeAttributesClassName} is
 * dropped unless stored (kube 1.32's VolumeAttributesClass feature is off). Stateless.
 */
final class PersistentVolumeStrategy implements RestStrategy {

  /** kube's volume sources, in the order kube counts them, with the field name its errors use. */
  private static final List<String[]> SOURCES = List.of(new String[] {"hostPath", "hostPath"},
      new String[] {"gcePersistentDisk", "gcePersistentDisk"}, new String[] {"awsElasticBlockStore", "awsElasticBlockStore"},
      new String[] {"glusterfs", "glusterfs"}, new String[] {"flocker", "flocker"}, new String[] {"nfs", "nfs"},
      new String[] {"rbd", "rbd"}, new String[] {"quobyte", "quobyte"}, new String[] {"cephfs", "cephFS"},
      new String[] {"iscsi", "iscsi"}, new String[] {"cinder", "cinder"}, new String[] {"fc", "fc"},
      new String[] {"flexVolume", null}, new String[] {"azureFile", "azureFile"},
      new String[] {"vsphereVolume", "vsphereVolume"}, new String[] {"photonPersistentDisk", "photonPersistentDisk"},
      new String[] {"portworxVolume", "portworxVolume"}, new String[] {"azureDisk", "azureDisk"},
      new String[] {"scaleIO", "scaleIO"}, new String[] {"local", "local"}, new String[] {"storageos", "storageos"},
      new String[] {"csi", "csi"});
  private static final List<String> RECLAIM_POLICIES = List.of("Delete", "Recycle", "Retain");

  @Override
  public void defaults(ObjectNode obj) {
    ObjectNode pv = Fields.object(obj, "spec", true);
    if (pv != null) {
      Fields.defaultIfAbsent(pv, "persistentVolumeReclaimPolicy", "Retain");
      Fields.defaultIfAbsent(pv, "volumeMode", "Filesystem");
    }
  }

  @Override
  public void prepareForCreate(ObjectNode obj, Instant now) {
    Volumes.dropVolumeAttributesClass(obj, null);
    obj.putObject("status").put("phase", "Pending")
        .put("lastPhaseTransitionTime", ObjectMetaRules.timestamp(now));
  }

  @Override
  public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
    Volumes.dropVolumeAttributesClass(obj, old);
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode spec = obj.path("spec");
    Volumes.accessModes(spec.path("accessModes"), "spec.accessModes", "", errors);
    capacity(spec.path("capacity"), errors);
    String policy = spec.path("persistentVolumeReclaimPolicy").asText("");
    if (!policy.isEmpty() && !RECLAIM_POLICIES.contains(policy)) {
      errors.add(FieldErrors.notSupported("spec.persistentVolumeReclaimPolicy", policy, RECLAIM_POLICIES));
    }
    boolean affinity = false;
    if (spec.hasNonNull("nodeAffinity")) {
      affinity = nodeAffinity(spec.path("nodeAffinity"), errors);
    }
    sources(spec, affinity, errors);
    if (spec.hasNonNull("hostPath") && cleanPath(spec.path("hostPath").path("path").asText("")).equals("/")
        && policy.equals("Recycle")) {
      errors.add(FieldErrors.forbidden("spec.persistentVolumeReclaimPolicy", "may not be 'recycle' for a hostPath mount of '/'"));
    }
    Volumes.className(spec.path("storageClassName").asText(""), "spec.storageClassName", errors);
    Volumes.volumeMode(spec, errors);
    if (old != null) {
      validateUpdate(spec, old.path("spec"), errors);
    }
  }

  private static void validateUpdate(JsonNode spec, JsonNode oldSpec, List<Status.Cause> errors) {
    for (String[] source : SOURCES) {
      JsonNode now = spec.get(source[0]);
      JsonNode was = oldSpec.get(source[0]);
      if (source[0].equals("csi") && now != null && was != null && !was.has("controllerExpandSecretRef")) {
        now = now.deepCopy();
        ((ObjectNode) now).remove("controllerExpandSecretRef"); // kube lets it be set once
      }
      if (!Objects.equals(Volumes.orNull(now), Volumes.orNull(was))) {
        errors.add(FieldErrors.forbidden("spec.persistentvolumesource", "spec.persistentvolumesource is immutable after creation"));
        break;
      }
    }
    Volumes.immutableVolumeMode(spec, oldSpec, errors);
    if (oldSpec.hasNonNull("nodeAffinity") && !oldSpec.get("nodeAffinity").equals(spec.get("nodeAffinity"))) {
      errors.add(FieldErrors.invalid("nodeAffinity", new GoLiteral("core.VolumeNodeAffinity{...}"), "field is immutable"));
    }
  }

  private static void capacity(JsonNode capacity, List<Status.Cause> errors) {
    if (capacity.isEmpty()) {
      errors.add(FieldErrors.required("spec.capacity", ""));
    }
    if (!capacity.has("storage") || capacity.size() > 1) {
      errors.add(FieldErrors.notSupported("spec.capacity", resourceList(capacity), List.of("storage")));
    }
    for (Map.Entry<String, JsonNode> e : capacity.properties()) {
      String at = "spec.capacity[" + e.getKey() + "]";
      Volumes.basicResource(e.getValue(), at, errors);
      Volumes.positive(e.getValue(), at, errors);
    }
  }

  /** kube's {@code validateVolumeNodeAffinity}: {@code required} with at least one term; true if given. */
  private static boolean nodeAffinity(JsonNode affinity, List<Status.Cause> errors) {
    JsonNode required = affinity.path("required");
    if (required.isMissingNode() || required.isNull()) {
      errors.add(FieldErrors.required("spec.nodeAffinity.required", "must specify required node constraints"));
      return false;
    }
    if (required.path("nodeSelectorTerms").isEmpty()) {
      errors.add(FieldErrors.required("spec.nodeAffinity.required.nodeSelectorTerms", "must have at least one node selector term"));
    }
    return true;
  }

  /** Exactly one volume source, and the required fields of the common ones. */
  private static void sources(JsonNode spec, boolean affinity, List<Status.Cause> errors) {
    int count = 0;
    for (String[] source : SOURCES) {
      JsonNode s = spec.path(source[0]);
      if (s.isMissingNode() || s.isNull()) {
        continue;
      }
      if (count > 0 && source[1] != null) {
        errors.add(FieldErrors.forbidden("spec." + source[1], "may not specify more than 1 volume type"));
        continue;
      }
      count++;
      String at = "spec." + source[0];
      switch (source[0]) {
        case "hostPath" -> pathNoBacksteps(s, at, errors);
        case "nfs" -> {
          requiredField(s, "server", at, errors);
          if (requiredField(s, "path", at, errors) && !s.path("path").asText().startsWith("/")) {
            errors.add(FieldErrors.invalid(at + ".path", s.path("path").asText(), "must be an absolute path"));
          }
        }
        case "local" -> {
          pathNoBacksteps(s, at, errors);
          if (!affinity) {
            errors.add(FieldErrors.required("spec.nodeAffinity", "Local volume requires node affinity"));
          }
        }
        case "csi" -> {
          requiredField(s, "driver", at, errors);
          requiredField(s, "volumeHandle", at, errors);
        }
        default -> {
        }
      }
    }
    if (count == 0) {
      errors.add(FieldErrors.required("spec", "must specify a volume type"));
    }
  }

  private static void pathNoBacksteps(JsonNode source, String at, List<Status.Cause> errors) {
    if (requiredField(source, "path", at, errors)) {
      String path = source.path("path").asText();
      for (String part : path.split("/")) {
        if (part.equals("..")) {
          errors.add(FieldErrors.invalid(at + ".path", path, "must not contain '..'"));
          break;
        }
      }
    }
  }

  private static boolean requiredField(JsonNode source, String field, String at, List<Status.Cause> errors) {
    if (source.path(field).asText("").isEmpty()) {
      errors.add(FieldErrors.required(at + "." + field, ""));
      return false;
    }
    return true;
  }

  /** Go's {@code path.Clean} enough to tell {@code /}: repeated and trailing slashes and dots removed. */
  private static String cleanPath(String path) {
    List<String> parts = new ArrayList<>();
    for (String p : path.split("/")) {
      if (p.isEmpty() || p.equals(".")) {
        continue;
      }
      if (p.equals("..")) {
        if (!parts.isEmpty()) {
          parts.remove(parts.size() - 1);
        }
      } else {
        parts.add(p);
      }
    }
    return (path.startsWith("/") ? "/" : "") + String.join("/", parts);
  }

  /** Go's {@code %#v} of a {@code core.ResourceList}, as far as a message needs it. */
  private static GoLiteral resourceList(JsonNode capacity) {
    StringBuilder b = new StringBuilder("core.ResourceList{");
    int i = 0;
    for (Map.Entry<String, JsonNode> e : capacity.properties()) {
      b.append(i++ > 0 ? ", " : "").append(FieldErrors.goValue(e.getKey())).append(':').append(e.getValue().asText());
    }
    return new GoLiteral(b.append('}').toString());
  }
}
