package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;

/**
 * kube 1.32's rules of a pod spec's {@code os} ({@code validateOS}, then {@code validateLinux}
 * or {@code validateWindows} when the name is valid), with kube's paths and messages:
 * <ul>
 *   <li>{@code os.name} required, {@code linux} or {@code windows};</li>
 *   <li>a linux pod may not set {@code windowsOptions} in its own or any container's security
 *       context ({@code windows options cannot be set for a linux pod});</li>
 *   <li>a windows pod may not set, in its security context, {@code appArmorProfile},
 *       {@code seLinuxOptions}, {@code seccompProfile}, {@code fsGroup},
 *       {@code fsGroupChangePolicy}, {@code sysctls} (non-empty), {@code runAsUser},
 *       {@code runAsGroup}, {@code supplementalGroups}, {@code supplementalGroupsPolicy}; on its
 *       spec {@code hostUsers}, {@code hostPID} or {@code hostIPC} (true),
 *       {@code shareProcessNamespace}; nor, in a container's security context,
 *       {@code appArmorProfile}, {@code seLinuxOptions}, {@code seccompProfile},
 *       {@code capabilities}, {@code readOnlyRootFilesystem}, {@code privileged},
 *       {@code allowPrivilegeEscalation}, {@code procMount}, {@code runAsUser},
 *       {@code runAsGroup} ({@code cannot be set for a windows pod}).</li>
 * </ul>
 * And, whatever the OS, kube's {@code validateWindowsHostProcessPod} ({@link #hostProcess}).
 * Containers are visited as kube's {@code VisitContainersWithPath} does: init containers,
 * containers, then ephemeral containers. A field "set" is one present and not {@code null}
 * (kube's non-nil pointer or slice). Stateless.
 */
final class PodOsValidation {

  private static final String WINDOWS = "cannot be set for a windows pod";
  private static final List<String> CONTAINER_LISTS = List.of("initContainers", "containers", "ephemeralContainers");
  /** The pod security context's fields a windows pod may not set, before the spec's host fields. */
  private static final List<String> WINDOWS_POD_LINUX_ONLY = List.of("appArmorProfile", "seLinuxOptions");
  /** Those after the host fields, before {@code shareProcessNamespace}. */
  private static final List<String> WINDOWS_POD_PROCESS = List.of("seccompProfile", "fsGroup", "fsGroupChangePolicy");
  /** Those after {@code shareProcessNamespace}. */
  private static final List<String> WINDOWS_POD_IDENTITY = List.of("runAsUser", "runAsGroup", "supplementalGroups",
      "supplementalGroupsPolicy");
  private static final List<String> WINDOWS_CONTAINER = List.of("appArmorProfile", "seLinuxOptions", "seccompProfile",
      "capabilities", "readOnlyRootFilesystem", "privileged", "allowPrivilegeEscalation", "procMount", "runAsUser",
      "runAsGroup");

  private PodOsValidation() {
  }

  /** Adds the errors of {@code spec.os} and of the fields its OS forbids; {@code path} is the spec's. */
  static void validate(JsonNode spec, String path, List<Status.Cause> errors) {
    JsonNode os = spec.path("os");
    if (!os.isObject()) {
      return;
    }
    String name = PodSpecValidation.text(os, "name");
    if (name.isEmpty()) {
      errors.add(FieldErrors.required(path + ".os.name", "cannot be empty"));
    } else if (name.equals("linux")) {
      linux(spec, path, errors);
    } else if (name.equals("windows")) {
      windows(spec, path, errors);
    } else {
      errors.add(FieldErrors.notSupported(path + ".os", name, List.of("linux", "windows")));
    }
  }

  /**
   * kube's {@code validateWindowsHostProcessPod}: a container's {@code hostProcess} must equal
   * the pod's when both are set; a pod with any host-process container (its own setting or the
   * pod's) must have only such containers and {@code hostNetwork: true}. (Privileged pods are
   * allowed here, as with kube's {@code --allow-privileged=true}, so kube's "disallowed by
   * cluster policy" never applies.)
   */
  static void hostProcess(JsonNode spec, String path, List<Status.Cause> errors) {
    JsonNode podValue = spec.path("securityContext").path("windowsOptions").path("hostProcess");
    Boolean pod = podValue.isBoolean() ? podValue.booleanValue() : null;
    int containers = 0;
    int hostProcess = 0;
    for (String list : CONTAINER_LISTS) {
      JsonNode items = spec.path(list);
      for (int i = 0; i < items.size(); i++) {
        containers++;
        JsonNode value = items.get(i).path("securityContext").path("windowsOptions").path("hostProcess");
        Boolean container = value.isBoolean() ? value.booleanValue() : null;
        if (pod != null && container != null && !pod.equals(container)) {
          errors.add(FieldErrors.invalid(path + "." + list + "[" + i + "].securityContext.windowsOptions.hostProcess",
              container, "pod hostProcess value must be identical if both are specified, was " + pod));
        }
        if (container != null ? container : Boolean.TRUE.equals(pod)) {
          hostProcess++;
        }
      }
    }
    if (hostProcess > 0) {
      if (hostProcess != containers) {
        errors.add(FieldErrors.invalid(path, "",
            "If pod contains any hostProcess containers then all containers must be HostProcess containers"));
      }
      boolean hostNetwork = spec.path("hostNetwork").asBoolean(false);
      if (!hostNetwork) {
        errors.add(FieldErrors.invalid(path + ".hostNetwork", false,
            "hostNetwork must be true if pod contains any hostProcess containers"));
      }
    }
  }

  /** kube's {@code validateLinux}. */
  private static void linux(JsonNode spec, String path, List<Status.Cause> errors) {
    String detail = "windows options cannot be set for a linux pod";
    if (PodSpecValidation.set(spec.path("securityContext"), "windowsOptions")) {
      errors.add(FieldErrors.forbidden(path + ".securityContext.windowsOptions", detail));
    }
    for (String list : CONTAINER_LISTS) {
      JsonNode containers = spec.path(list);
      for (int i = 0; i < containers.size(); i++) {
        if (PodSpecValidation.set(containers.get(i).path("securityContext"), "windowsOptions")) {
          errors.add(FieldErrors.forbidden(path + "." + list + "[" + i + "].securityContext.windowsOptions", detail));
        }
      }
    }
  }

  /** kube's {@code validateWindows}. */
  private static void windows(JsonNode spec, String path, List<Status.Cause> errors) {
    JsonNode sc = spec.path("securityContext");
    String scPath = path + ".securityContext";
    forbidSet(sc, scPath, WINDOWS_POD_LINUX_ONLY, errors);
    if (PodSpecValidation.set(spec, "hostUsers")) {
      errors.add(FieldErrors.forbidden(path + ".hostUsers", WINDOWS));
    }
    for (String host : List.of("hostPID", "hostIPC")) {
      if (spec.path(host).asBoolean(false)) {
        errors.add(FieldErrors.forbidden(path + "." + host, WINDOWS));
      }
    }
    forbidSet(sc, scPath, WINDOWS_POD_PROCESS, errors);
    if (!sc.path("sysctls").isEmpty()) {
      errors.add(FieldErrors.forbidden(scPath + ".sysctls", WINDOWS));
    }
    if (PodSpecValidation.set(spec, "shareProcessNamespace")) {
      errors.add(FieldErrors.forbidden(path + ".shareProcessNamespace", WINDOWS));
    }
    forbidSet(sc, scPath, WINDOWS_POD_IDENTITY, errors);
    for (String list : CONTAINER_LISTS) {
      JsonNode containers = spec.path(list);
      for (int i = 0; i < containers.size(); i++) {
        JsonNode csc = containers.get(i).path("securityContext");
        if (csc.isObject()) {
          forbidSet(csc, path + "." + list + "[" + i + "].securityContext", WINDOWS_CONTAINER, errors);
        }
      }
    }
  }

  private static void forbidSet(JsonNode sc, String path, List<String> fields, List<Status.Cause> errors) {
    for (String field : fields) {
      if (sc.isObject() && PodSpecValidation.set(sc, field)) {
        errors.add(FieldErrors.forbidden(path + "." + field, WINDOWS));
      }
    }
  }
}
