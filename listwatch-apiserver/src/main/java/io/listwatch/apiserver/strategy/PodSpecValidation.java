package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube 1.32's {@code ValidatePodSpec}, shared by pods and by every workload's pod template,
 * in kube's order: {@code terminationGracePeriodSeconds} set, the volumes
 * ({@link VolumeValidation}), the containers, init containers and ephemeral containers
 * ({@link ContainerValidation}), {@code hostNetwork}'s host ports, {@code restartPolicy},
 * {@code dnsPolicy}, {@code nodeSelector}, the security context
 * ({@link SecurityContextValidation}), affinity ({@link AffinityValidation}), {@code dnsConfig}
 * ({@link DnsValidation}), readiness and scheduling gates, topology spread
 * ({@link TopologySpreadValidation}), Windows host-process containers, {@code hostUsers}, the
 * names it refers to (service account, node, priority class, runtime class),
 * {@code activeDeadlineSeconds}, {@code hostname}/{@code subdomain}, tolerations
 * ({@link TolerationValidation}), host aliases, {@code preemptionPolicy}, {@code overhead} and
 * {@code os} with what each OS forbids ({@link PodOsValidation}). Field paths are kube's, under
 * the given prefix ({@code spec} for a pod, {@code spec.template.spec} for a workload). The
 * rules kube applies to a pod only (not to a template) are {@link #pod}'s. The JSON helpers the
 * pod validations share live here too. Stateless.
 *
 * <p>Not checked: volume devices, resize policies, resource claims, user namespaces beyond
 * {@code hostUsers}, image pull secrets, {@code matchLabelKeys}. A value of the wrong JSON type
 * (kube's decoder would answer 400) is skipped.
 */
final class PodSpecValidation {

  private PodSpecValidation() {
  }

  /** Adds the errors of the pod spec {@code spec}, found at {@code path}, to {@code errors}. */
  static void validate(JsonNode spec, String path, List<Status.Cause> errors) {
    validate(spec, path, false, errors);
  }

  /**
   * The errors of a pod's own spec (kube's {@code ResourceIsPod}): a host-network pod's
   * {@code hostPort} must be its {@code containerPort}, and an image may not be padded with
   * whitespace.
   */
  static void pod(JsonNode spec, List<Status.Cause> errors) {
    validate(spec, "spec", true, errors);
    ContainerValidation.onlyForPod(spec.path("containers"), "spec.containers", errors);
    ContainerValidation.onlyForPod(spec.path("initContainers"), "spec.initContainers", errors);
  }

  private static void validate(JsonNode spec, String path, boolean isPod, List<Status.Cause> errors) {
    JsonNode grace = spec.path("terminationGracePeriodSeconds");
    if (!grace.isNumber()) {
      errors.add(FieldErrors.required(path + ".terminationGracePeriodSeconds", ""));
    }
    // v1 keeps hostUsers on the spec (kube's internal type, in its security context)
    boolean hostUsers = !spec.path("hostUsers").isBoolean() || spec.path("hostUsers").booleanValue();
    Map<String, JsonNode> volumes = VolumeValidation.volumes(spec.path("volumes"), path + ".volumes", errors);
    ContainerValidation.Context context = new ContainerValidation.Context(volumes,
        grace.isNumber() ? grace.longValue() : null, text(spec, "restartPolicy"), hostUsers);
    ContainerValidation.all(spec, path, context, errors);
    hostNetworkPorts(spec, path, isPod, errors);
    oneOf(text(spec, "restartPolicy"), path + ".restartPolicy", List.of("Always", "OnFailure", "Never"), errors);
    oneOf(text(spec, "dnsPolicy"), path + ".dnsPolicy",
        List.of("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"), errors);
    AffinityValidation.labels(spec.path("nodeSelector"), path + ".nodeSelector", errors);
    SecurityContextValidation.pod(spec, path + ".securityContext", errors);
    AffinityValidation.affinity(spec.path("affinity"), path + ".affinity", errors);
    DnsValidation.dnsConfig(spec, path + ".dnsConfig", errors);
    JsonNode readinessGates = spec.path("readinessGates");
    for (int i = 0; i < readinessGates.size(); i++) {
      qualifiedName(text(readinessGates.get(i), "conditionType"), path + ".readinessGates[" + i + "].conditionType", errors);
    }
    schedulingGates(spec.path("schedulingGates"), path + ".schedulingGates", errors);
    TopologySpreadValidation.constraints(spec.path("topologySpreadConstraints"), path + ".topologySpreadConstraints", errors);
    PodOsValidation.hostProcess(spec, path, errors);
    hostUsers(spec, path, hostUsers, errors);
    subdomainIfSet(text(spec, "serviceAccountName"), path + ".serviceAccountName", errors);
    subdomainIfSet(text(spec, "nodeName"), path + ".nodeName", errors);
    JsonNode deadline = spec.path("activeDeadlineSeconds");
    if (deadline.isIntegralNumber() && (deadline.longValue() < 1 || deadline.longValue() > Integer.MAX_VALUE)) {
      errors.add(FieldErrors.invalid(path + ".activeDeadlineSeconds", deadline.longValue(),
          inclusiveRange(1, Integer.MAX_VALUE)));
    }
    labelIfSet(text(spec, "hostname"), path + ".hostname", errors);
    labelIfSet(text(spec, "subdomain"), path + ".subdomain", errors);
    TolerationValidation.tolerations(spec.path("tolerations"), path + ".tolerations", errors);
    DnsValidation.hostAliases(spec.path("hostAliases"), path + ".hostAliases", errors);
    subdomainIfSet(text(spec, "priorityClassName"), path + ".priorityClassName", errors);
    if (spec.path("runtimeClassName").isTextual()) {
      subdomain(spec.path("runtimeClassName").textValue(), path + ".runtimeClassName", errors);
    }
    if (spec.path("preemptionPolicy").isTextual()) {
      oneOf(spec.path("preemptionPolicy").textValue(), path + ".preemptionPolicy",
          List.of("PreemptLowerPriority", "Never"), errors);
    }
    if (spec.path("overhead").isObject()) {
      ResourceRequirementsValidation.overhead(spec.path("overhead"), path + ".overhead", errors);
    }
    PodOsValidation.validate(spec, path, errors);
  }

  /**
   * kube's {@code validatePodHostNetworkDeps}: with {@code hostNetwork}, each container's
   * {@code hostPort} must be its {@code containerPort} (a template may leave it 0).
   */
  private static void hostNetworkPorts(JsonNode spec, String path, boolean isPod, List<Status.Cause> errors) {
    if (!spec.path("hostNetwork").asBoolean(false)) {
      return;
    }
    JsonNode containers = spec.path("containers");
    for (int i = 0; i < containers.size(); i++) {
      JsonNode ports = containers.get(i).path("ports");
      for (int j = 0; j < ports.size(); j++) {
        long hostPort = ports.get(j).path("hostPort").asLong(0);
        long containerPort = ports.get(j).path("containerPort").asLong(0);
        if ((isPod || hostPort != 0) && hostPort != containerPort) {
          errors.add(FieldErrors.invalid(path + ".containers[" + i + "].ports[" + j + "].hostPort", hostPort,
              "must match `containerPort` when `hostNetwork` is true"));
        }
      }
    }
  }

  /** kube's {@code validateSchedulingGates}: each a qualified name, none twice. */
  private static void schedulingGates(JsonNode gates, String path, List<Status.Cause> errors) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < gates.size(); i++) {
      String name = text(gates.get(i), "name");
      qualifiedName(name, path + "[" + i + "]", errors);
      if (!seen.add(name)) {
        errors.add(FieldErrors.duplicate(path + "[" + i + "]", name));
      }
    }
  }

  /** kube's {@code validateHostUsers}: {@code hostUsers: false} does not mix with the host's namespaces. */
  private static void hostUsers(JsonNode spec, String path, boolean hostUsers, List<Status.Cause> errors) {
    if (hostUsers) {
      return;
    }
    String detail = "when `pod.Spec.HostUsers` is false";
    if (spec.path("hostNetwork").asBoolean(false)) {
      errors.add(FieldErrors.forbidden(path + ".hostNetwork", detail));
    }
    if (spec.path("hostPID").asBoolean(false)) {
      errors.add(FieldErrors.forbidden(path + ".HostPID", detail));
    }
    if (spec.path("hostIPC").asBoolean(false)) {
      errors.add(FieldErrors.forbidden(path + ".HostIPC", detail));
    }
  }

  // ---- the helpers the pod validations share ----

  /** {@code node.field} when it is a string, else {@code ""} (Go's zero value). */
  static String text(JsonNode node, String field) {
    JsonNode v = node == null ? null : node.get(field);
    return v != null && v.isTextual() ? v.textValue() : "";
  }

  /** Whether {@code node.field} is there and not {@code null} (a Go pointer that is set). */
  static boolean set(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v != null && !v.isNull();
  }

  /**
   * kube's enum rule: {@code Required value} for an empty {@code value}, else
   * {@code Unsupported value} unless it is one of {@code supported} (listed in that order).
   */
  static void oneOf(String value, String path, List<String> supported, List<Status.Cause> errors) {
    if (value.isEmpty()) {
      errors.add(FieldErrors.required(path, ""));
    } else if (!supported.contains(value)) {
      errors.add(FieldErrors.notSupported(path, value, supported));
    }
  }

  /** kube's {@code InclusiveRangeError}. */
  static String inclusiveRange(long lo, long hi) {
    return "must be between " + lo + " and " + hi + ", inclusive";
  }

  /** kube's {@code ValidateDNS1123Label}. */
  static void label(String value, String path, List<Status.Cause> errors) {
    for (String msg : NameSyntax.isDns1123Label(value)) {
      errors.add(FieldErrors.invalid(path, value, msg));
    }
  }

  /** kube's {@code ValidateDNS1123Subdomain} (and {@code NameIsDNSSubdomain} without a prefix). */
  static void subdomain(String value, String path, List<Status.Cause> errors) {
    for (String msg : NameSyntax.isDns1123Subdomain(value)) {
      errors.add(FieldErrors.invalid(path, value, msg));
    }
  }

  /** kube's {@code ValidateQualifiedName} (and {@code ValidateLabelName}). */
  static void qualifiedName(String value, String path, List<Status.Cause> errors) {
    for (String msg : NameSyntax.isQualifiedName(value)) {
      errors.add(FieldErrors.invalid(path, value, msg));
    }
  }

  private static void labelIfSet(String value, String path, List<Status.Cause> errors) {
    if (!value.isEmpty()) {
      label(value, path, errors);
    }
  }

  private static void subdomainIfSet(String value, String path, List<Status.Cause> errors) {
    if (!value.isEmpty()) {
      subdomain(value, path, errors);
    }
  }
}
