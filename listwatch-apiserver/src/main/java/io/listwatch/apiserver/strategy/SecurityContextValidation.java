package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.PodSpecValidation.set;
import static io.listwatch.apiserver.strategy.PodSpecValidation.text;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * kube 1.32's {@code validatePodSpecSecurityContext} and {@code ValidateSecurityContext}: user
 * and group ids from 0 to 2147483647; {@code shareProcessNamespace} not with {@code hostPID};
 * sysctls named, well formed, once, and not of a namespace the pod shares with the host;
 * {@code fsGroupChangePolicy}, {@code supplementalGroupsPolicy} and {@code procMount} among
 * kube's values ({@code Unmasked} only without the host's user namespace); seccomp and
 * AppArmor profiles of a known type, with a {@code localhostProfile} exactly for
 * {@code Localhost}; {@code allowPrivilegeEscalation: false} not with {@code privileged};
 * {@code windowsOptions} ({@link WindowsSecurityContextValidation}).
 * Field paths are those of kube's internal type, so a pod's {@code shareProcessNamespace} is
 * reported at {@code spec.securityContext.shareProcessNamespace}. Privileged containers are
 * allowed (kube-apiserver's {@code --allow-privileged=true}, as clusters run it). Stateless.
 */
final class SecurityContextValidation {

  private static final String ID_RANGE = PodSpecValidation.inclusiveRange(0, Integer.MAX_VALUE);
  private static final Pattern SYSCTL = Pattern.compile(
      "([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?");

  private SecurityContextValidation() {
  }

  /** The errors of the pod's {@code spec.securityContext} (with the host namespace flags of {@code spec}). */
  static void pod(JsonNode spec, String path, List<Status.Cause> errors) {
    JsonNode sc = spec.path("securityContext");
    if (!sc.isObject()) {
      return;
    }
    id(sc.path("fsGroup"), path + ".fsGroup", errors);
    id(sc.path("runAsUser"), path + ".runAsUser", errors);
    id(sc.path("runAsGroup"), path + ".runAsGroup", errors);
    JsonNode groups = sc.path("supplementalGroups");
    for (int i = 0; i < groups.size(); i++) {
      id(groups.get(i), path + ".supplementalGroups[" + i + "]", errors);
    }
    if (spec.path("shareProcessNamespace").asBoolean(false) && spec.path("hostPID").asBoolean(false)) {
      errors.add(FieldErrors.invalid(path + ".shareProcessNamespace", true,
          "ShareProcessNamespace and HostPID cannot both be enabled"));
    }
    sysctls(spec, sc.path("sysctls"), path + ".sysctls", errors);
    if (sc.path("fsGroupChangePolicy").isTextual()) {
      notSupportedUnless(sc.path("fsGroupChangePolicy").textValue(), path + ".fsGroupChangePolicy",
          List.of("Always", "OnRootMismatch"), errors);
    }
    seccomp(sc, path + ".seccompProfile", errors);
    WindowsSecurityContextValidation.options(sc, path + ".windowsOptions", errors);
    appArmor(sc, path + ".appArmorProfile", errors);
    if (sc.path("supplementalGroupsPolicy").isTextual()) {
      notSupportedUnless(sc.path("supplementalGroupsPolicy").textValue(), path + ".supplementalGroupsPolicy",
          List.of("Merge", "Strict"), errors);
    }
  }

  /** The errors of a container's {@code securityContext}, found at {@code path}. */
  static void container(JsonNode sc, String path, boolean hostUsers, List<Status.Cause> errors) {
    if (!sc.isObject()) {
      return;
    }
    id(sc.path("runAsUser"), path + ".runAsUser", errors);
    id(sc.path("runAsGroup"), path + ".runAsGroup", errors);
    if (sc.path("procMount").isTextual()) {
      String procMount = sc.path("procMount").textValue();
      notSupportedUnless(procMount, path + ".procMount", List.of("Default", "Unmasked"), errors);
      if (hostUsers && procMount.equals("Unmasked")) {
        errors.add(FieldErrors.invalid(path + ".procMount", procMount, "`hostUsers` must be false to use `Unmasked`"));
      }
    }
    seccomp(sc, path + ".seccompProfile", errors);
    if (sc.path("allowPrivilegeEscalation").isBoolean() && !sc.path("allowPrivilegeEscalation").booleanValue()) {
      if (sc.path("privileged").asBoolean(false)) {
        errors.add(FieldErrors.invalid(path, sc.toString(), "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"));
      }
      for (JsonNode cap : sc.path("capabilities").path("add")) {
        if (cap.asText().equals("CAP_SYS_ADMIN")) {
          errors.add(FieldErrors.invalid(path, sc.toString(),
              "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"));
        }
      }
    }
    WindowsSecurityContextValidation.options(sc, path + ".windowsOptions", errors);
    appArmor(sc, path + ".appArmorProfile", errors);
  }

  /** kube's {@code IsValidUserID} / {@code IsValidGroupID}, when {@code id} is set. */
  private static void id(JsonNode id, String path, List<Status.Cause> errors) {
    if (id.isIntegralNumber() && (id.longValue() < 0 || id.longValue() > Integer.MAX_VALUE)) {
      errors.add(FieldErrors.invalid(path, id.longValue(), ID_RANGE));
    }
  }

  private static void notSupportedUnless(String value, String path, List<String> supported, List<Status.Cause> errors) {
    if (!supported.contains(value)) {
      errors.add(FieldErrors.notSupported(path, value, supported));
    }
  }

  /** kube's {@code validateSysctls} with {@code ValidateHostSysctl}. */
  private static void sysctls(JsonNode spec, JsonNode sysctls, String path, List<Status.Cause> errors) {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < sysctls.size(); i++) {
      String name = text(sysctls.get(i), "name");
      String at = path + "[" + i + "].name";
      if (name.isEmpty()) {
        errors.add(FieldErrors.required(at, ""));
      } else if (name.length() > 253 || !SYSCTL.matcher(name).matches()) {
        errors.add(FieldErrors.invalid(at, name, "must have at most 253 characters and match regex ^"
            + SYSCTL.pattern() + "$"));
      } else if (names.contains(name)) {
        errors.add(FieldErrors.duplicate(at, name));
      }
      String dotted = name.replace('/', '.');
      boolean net = dotted.startsWith("net.");
      boolean ipc = dotted.startsWith("kernel.shm") || dotted.startsWith("kernel.msg") || dotted.equals("kernel.sem")
          || dotted.startsWith("fs.mqueue.");
      if (spec.path("hostNetwork").asBoolean(false) && net) {
        errors.add(FieldErrors.invalid(at, name, "may not be specified when 'hostNetwork' is true"));
      } else if (spec.path("hostIPC").asBoolean(false) && ipc) {
        errors.add(FieldErrors.invalid(at, name, "may not be specified when 'hostIPC' is true"));
      }
      names.add(name);
    }
  }

  /** kube's {@code validateSeccompProfileField}. */
  private static void seccomp(JsonNode sc, String path, List<Status.Cause> errors) {
    if (!set(sc, "seccompProfile")) {
      return;
    }
    JsonNode profile = sc.path("seccompProfile");
    String type = text(profile, "type");
    if (type.isEmpty()) {
      errors.add(FieldErrors.required(path + ".type", "type is required when seccompProfile is set"));
    } else {
      notSupportedUnless(type, path + ".type", List.of("Localhost", "RuntimeDefault", "Unconfined"), errors);
    }
    if (type.equals("Localhost")) {
      if (!set(profile, "localhostProfile")) {
        errors.add(FieldErrors.required(path + ".localhostProfile", "must be set when seccomp type is Localhost"));
      } else {
        VolumeValidation.localDescendingPath(text(profile, "localhostProfile"), path + ".localhostProfile", errors);
      }
    } else if (set(profile, "localhostProfile")) {
      errors.add(FieldErrors.invalid(path + ".localhostProfile", profile.toString(),
          "can only be set when seccomp type is Localhost"));
    }
  }

  /** kube's {@code ValidateAppArmorProfileField}. */
  private static void appArmor(JsonNode sc, String path, List<Status.Cause> errors) {
    if (!set(sc, "appArmorProfile")) {
      return;
    }
    JsonNode profile = sc.path("appArmorProfile");
    String type = text(profile, "type");
    switch (type) {
      case "Localhost" -> {
        if (!set(profile, "localhostProfile")) {
          errors.add(FieldErrors.required(path + ".localhostProfile", "must be set when AppArmor type is Localhost"));
        } else {
          String local = text(profile, "localhostProfile");
          if (!local.strip().equals(local)) {
            errors.add(FieldErrors.invalid(path + ".localhostProfile", local, "must not be padded with whitespace"));
          } else if (local.isEmpty()) {
            errors.add(FieldErrors.required(path + ".localhostProfile", "must be set when AppArmor type is Localhost"));
          }
          if (local.length() > 4095) {
            errors.add(FieldErrors.tooLong(path + ".localhostProfile", 4095));
          }
        }
      }
      case "RuntimeDefault", "Unconfined" -> {
        if (set(profile, "localhostProfile")) {
          errors.add(FieldErrors.invalid(path + ".localhostProfile", text(profile, "localhostProfile"),
              "can only be set when AppArmor type is Localhost"));
        }
      }
      case "" -> errors.add(FieldErrors.required(path + ".type", "type is required when appArmorProfile is set"));
      default -> errors.add(FieldErrors.notSupported(path + ".type", type,
          List.of("Localhost", "RuntimeDefault", "Unconfined")));
    }
  }
}
