package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.NumericFields.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * CSIDrivers (storage.k8s.io/v1), kube 1.32's strategy, defaults and validation.
 *
 * <p>Defaults ({@code SetDefaults_CSIDriver}, the SELinuxMountReadWriteOncePod gate on as in
 * 1.32): {@code attachRequired: true}, {@code podInfoOnMount}, {@code storageCapacity},
 * {@code requiresRepublish} and {@code seLinuxMount} false, {@code fsGroupPolicy:
 * ReadWriteOnceWithFSType}, {@code volumeLifecycleModes: [Persistent]} when empty.
 *
 * <p>Validation ({@code ValidateCSIDriver}): the name as a CSI driver name ({@link CSIDriverNames},
 * at kube's path {@code name}); {@code attachRequired} (at kube's path
 * {@code spec.attachedRequired}), {@code podInfoOnMount}, {@code storageCapacity} and
 * {@code seLinuxMount} required; {@code fsGroupPolicy} one of File, None,
 * ReadWriteOnceWithFSType; each lifecycle mode Persistent or Ephemeral; token requests with
 * distinct audiences and an expiration of 10 minutes to 2^32 seconds. On update
 * ({@code ValidateCSIDriverUpdate}) {@code attachRequired} and {@code volumeLifecycleModes} are
 * immutable; any change of the spec bumps {@code metadata.generation}, which a create
 * leaves unset (kube's {@code PrepareForUpdate} and {@code PrepareForCreate}).
 * Stateless.
 */
final class CSIDriverStrategy implements RestStrategy {

  private static final List<String> FS_GROUP_POLICIES = List.of("File", "None", "ReadWriteOnceWithFSType");
  private static final List<String> LIFECYCLE_MODES = List.of("Persistent", "Ephemeral");
  private static final long MIN_EXPIRATION = 600;
  private static final long MAX_EXPIRATION = 1L << 32;

  @Override
  public void defaults(ObjectNode obj) {
    ObjectNode spec = Fields.object(obj, "spec", true);
    if (spec == null) {
      return;
    }
    Fields.defaultIfAbsent(spec, "attachRequired", true);
    Fields.defaultIfAbsent(spec, "podInfoOnMount", false);
    Fields.defaultIfAbsent(spec, "storageCapacity", false);
    Fields.defaultIfAbsent(spec, "fsGroupPolicy", "ReadWriteOnceWithFSType");
    if (spec.path("volumeLifecycleModes").isEmpty()) {
      spec.putArray("volumeLifecycleModes").add("Persistent");
    }
    Fields.defaultIfAbsent(spec, "requiresRepublish", false);
    Fields.defaultIfAbsent(spec, "seLinuxMount", false);
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    CSIDriverNames.check(obj.path("metadata").path("name").asText(""), "name", errors);
    JsonNode spec = obj.path("spec");
    requiredFlag(spec, "attachRequired", "spec.attachedRequired", errors);
    requiredFlag(spec, "podInfoOnMount", "spec.podInfoOnMount", errors);
    requiredFlag(spec, "storageCapacity", "spec.storageCapacity", errors);
    JsonNode policy = spec.path("fsGroupPolicy");
    if (given(policy) && !FS_GROUP_POLICIES.contains(policy.asText(""))) {
      errors.add(FieldErrors.notSupported("spec.fsGroupPolicy", policy.asText(""), FS_GROUP_POLICIES));
    }
    tokenRequests(spec.path("tokenRequests"), errors);
    for (JsonNode mode : spec.path("volumeLifecycleModes")) {
      if (!LIFECYCLE_MODES.contains(mode.asText(""))) {
        errors.add(FieldErrors.notSupported("spec.volumeLifecycleModes", mode.asText(""), LIFECYCLE_MODES));
      }
    }
    requiredFlag(spec, "seLinuxMount", "spec.seLinuxMount", errors);
    if (old != null) {
      JsonNode oldSpec = old.path("spec");
      if (!spec.path("attachRequired").equals(oldSpec.path("attachRequired"))) {
        errors.add(FieldErrors.invalid("spec.attachedRequired", spec.path("attachRequired").asBoolean(), "field is immutable"));
      }
      if (!spec.path("volumeLifecycleModes").equals(oldSpec.path("volumeLifecycleModes"))) {
        List<String> modes = new ArrayList<>();
        spec.path("volumeLifecycleModes").forEach(m -> modes.add(m.asText("")));
        errors.add(FieldErrors.invalid("spec.volumeLifecycleModes",
            GoLiteral.strings("storage.VolumeLifecycleMode", modes), "field is immutable"));
      }
    }
  }

  @Override
  public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
    if (!obj.path("spec").equals(old.path("spec"))) {
      Fields.object(obj, "metadata", true).put("generation", old.path("metadata").path("generation").asLong(0) + 1);
    }
  }

  private static void requiredFlag(JsonNode spec, String field, String path, List<Status.Cause> errors) {
    if (!given(spec.path(field))) {
      errors.add(FieldErrors.required(path, ""));
    }
  }

  /** kube's {@code validateTokenRequests}: distinct audiences (one may be empty), expirations in range. */
  private static void tokenRequests(JsonNode requests, List<Status.Cause> errors) {
    Set<String> audiences = new HashSet<>();
    for (int i = 0; i < requests.size(); i++) {
      String at = "spec.tokenRequests[" + i + "]";
      String audience = requests.get(i).path("audience").asText("");
      if (!audiences.add(audience)) {
        errors.add(FieldErrors.duplicate(at + ".audience", audience));
        continue;
      }
      JsonNode expiration = requests.get(i).path("expirationSeconds");
      if (!given(expiration)) {
        continue;
      }
      if (expiration.asLong() < MIN_EXPIRATION) {
        errors.add(FieldErrors.invalid(at + ".expirationSeconds", expiration.asLong(),
            "may not specify a duration less than 10 minutes"));
      }
      if (expiration.asLong() > MAX_EXPIRATION) {
        errors.add(FieldErrors.invalid(at + ".expirationSeconds", expiration.asLong(),
            "may not specify a duration larger than 2^32 seconds"));
      }
    }
  }
}
