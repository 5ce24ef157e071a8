package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.PodSpecValidation.oneOf;
import static io.listwatch.apiserver.strategy.PodSpecValidation.set;
import static io.listwatch.apiserver.strategy.PodSpecValidation.text;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube 1.32's container rules ({@code validateContainers}, {@code validateInitContainers},
 * {@code validateEphemeralContainers} and {@code validateContainerCommon}), in kube's order:
 * the regular containers (at least one), then the init containers, then the ephemeral ones.
 * Every container: a name (a DNS-1123 label, unique across the three lists), an image,
 * {@code terminationMessagePolicy}, ports, env ({@link ContainerEnvValidation}), volume mounts
 * (naming a valid volume), {@code imagePullPolicy}, resources
 * ({@link ResourceRequirementsValidation}) and its security context
 * ({@link SecurityContextValidation}). Regular containers and sidecars (init containers with
 * {@code restartPolicy: Always}) may have a lifecycle and probes ({@link ProbeValidation});
 * other init containers may not; ephemeral containers may have neither, nor ports or
 * resources. Host ports may not repeat. Stateless.
 */
final class ContainerValidation {

  /** kube's {@code allowedEphemeralContainerFields}, the fields an ephemeral container may not set, in Go's field order. */
  private static final List<String> NOT_FOR_EPHEMERAL = List.of("ports", "resources", "resizePolicy",
      "restartPolicy", "livenessProbe", "readinessProbe", "startupProbe", "lifecycle");
  private static final String NOT_FOR_INIT = "may not be set for init containers without restartPolicy=Always";

  private ContainerValidation() {
  }

  /**
   * What every container of a pod spec is checked against.
   *
   * @param volumes the pod's valid volumes, by name
   * @param gracePeriod the pod's {@code terminationGracePeriodSeconds}, or null
   * @param restartPolicy the pod's {@code restartPolicy}
   * @param hostUsers whether the pod uses the host's user namespace
   */
  record Context(Map<String, JsonNode> volumes, Long gracePeriod, String restartPolicy, boolean hostUsers) {
  }

  /** The errors of the three container lists of {@code spec}, found at {@code path}. */
  static void all(JsonNode spec, String path, Context context, List<Status.Cause> errors) {
    JsonNode containers = spec.path("containers");
    JsonNode initContainers = spec.path("initContainers");
    regular(containers, path + ".containers", context, errors);
    init(initContainers, names(containers), path + ".initContainers", context, errors);
    ephemeral(spec.path("ephemeralContainers"), containers, initContainers, path + ".ephemeralContainers",
        context, errors);
  }

  private static void regular(JsonNode containers, String path, Context context, List<Status.Cause> errors) {
    if (!containers.isArray() || containers.isEmpty()) {
      errors.add(FieldErrors.required(path, ""));
      return;
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < containers.size(); i++) {
      JsonNode c = containers.get(i);
      String at = path + "[" + i + "]";
      common(c, at, context, errors);
      if (!names.add(text(c, "name"))) {
        errors.add(FieldErrors.duplicate(at + ".name", text(c, "name")));
      }
      ProbeValidation.lifecycleAndProbes(c, at, context.gracePeriod(), errors);
      if (set(c, "restartPolicy")) {
        errors.add(FieldErrors.forbidden(at + ".restartPolicy", "may not be set for non-init containers"));
      }
    }
    hostPortConflicts(containers, path, errors);
  }

  private static void init(JsonNode containers, Set<String> names, String path, Context context,
      List<Status.Cause> errors) {
    for (int i = 0; i < containers.size(); i++) {
      JsonNode c = containers.get(i);
      String at = path + "[" + i + "]";
      common(c, at, context, errors);
      boolean sidecar = false;
      if (set(c, "restartPolicy")) {
        String policy = c.path("restartPolicy").asText("");
        if (!policy.equals("Always")) {
          errors.add(FieldErrors.notSupported(at + ".restartPolicy", policy, List.of("Always")));
        }
        sidecar = policy.equals("Always");
      }
      String name = text(c, "name");
      if (names.contains(name)) {
        errors.add(FieldErrors.duplicate(at + ".name", name));
      } else if (!name.isEmpty()) {
        names.add(name);
      }
      // kube checks each init container alone (they run one by one), as the first of a list
      JsonNode alone = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode().add(c);
      hostPortConflicts(alone, path, errors);
      if (sidecar) {
        ProbeValidation.lifecycleAndProbes(c, at, context.gracePeriod(), errors);
      } else {
        for (String field : List.of("lifecycle", "livenessProbe", "readinessProbe", "startupProbe")) {
          if (set(c, field)) {
            errors.add(FieldErrors.forbidden(at + "." + field, NOT_FOR_INIT));
          }
        }
      }
    }
  }

  private static void ephemeral(JsonNode ephemeral, JsonNode containers, JsonNode initContainers, String path,
      Context context, List<Status.Cause> errors) {
    if (ephemeral.isEmpty()) {
      return;
    }
    Set<String> others = names(containers);
    others.addAll(names(initContainers));
    Set<String> all = new HashSet<>(others);
    for (int i = 0; i < ephemeral.size(); i++) {
      JsonNode c = ephemeral.get(i);
      String at = path + "[" + i + "]";
      common(c, at, context, errors);
      imageWhitespace(c, at, errors);
      if (!all.add(text(c, "name"))) {
        errors.add(FieldErrors.duplicate(at + ".name", text(c, "name")));
      }
      String target = text(c, "targetContainerName");
      if (!target.isEmpty() && !others.contains(target)) {
        errors.add(FieldErrors.notFound(at + ".targetContainerName", target));
      }
      for (String field : NOT_FOR_EPHEMERAL) {
        // resources is a struct (set when not empty); the others are pointers and slices (set when given)
        if (field.equals("resources") ? isSet(c.get(field)) : set(c, field)) {
          errors.add(FieldErrors.forbidden(at + "." + field, "cannot be set for an Ephemeral Container"));
        }
      }
      JsonNode mounts = c.path("volumeMounts");
      for (int j = 0; j < mounts.size(); j++) {
        for (String field : List.of("subPath", "subPathExpr")) {
          if (!text(mounts.get(j), field).isEmpty()) {
            errors.add(FieldErrors.forbidden(at + ".volumeMounts[" + j + "]." + field,
                "cannot be set for an Ephemeral Container"));
          }
        }
      }
    }
  }

  /** kube's {@code validateContainersOnlyForPod}: an image without leading or trailing whitespace. */
  static void onlyForPod(JsonNode containers, String path, List<Status.Cause> errors) {
    for (int i = 0; i < containers.size(); i++) {
      imageWhitespace(containers.get(i), path + "[" + i + "]", errors);
    }
  }

  /** kube's {@code validateContainerOnlyForPod}: {@code image: must not have leading or trailing whitespace}. */
  static void imageWhitespace(JsonNode c, String at, List<Status.Cause> errors) {
    String image = text(c, "image");
    if (!image.equals(image.strip())) {
      errors.add(FieldErrors.invalid(at + ".image", image, "must not have leading or trailing whitespace"));
    }
  }

  private static void common(JsonNode c, String at, Context context, List<Status.Cause> errors) {
    String name = text(c, "name");
    if (name.isEmpty()) {
      errors.add(FieldErrors.required(at + ".name", ""));
    } else {
      PodSpecValidation.label(name, at + ".name", errors);
    }
    if (text(c, "image").isEmpty()) {
      errors.add(FieldErrors.required(at + ".image", ""));
    }
    oneOf(text(c, "terminationMessagePolicy"), at + ".terminationMessagePolicy",
        List.of("File", "FallbackToLogsOnError"), errors);
    ports(c.path("ports"), at + ".ports", errors);
    ContainerEnvValidation.env(c.path("env"), at + ".env", errors);
    ContainerEnvValidation.envFrom(c.path("envFrom"), at + ".envFrom", errors);
    volumeMounts(c, at + ".volumeMounts", context.volumes(), errors);
    String pull = text(c, "imagePullPolicy");
    if (pull.isEmpty()) {
      errors.add(FieldErrors.required(at + ".imagePullPolicy", ""));
    } else if (!List.of("Always", "IfNotPresent", "Never").contains(pull)) {
      errors.add(FieldErrors.notSupported(at + ".imagePullPolicy", pull, List.of("Always", "IfNotPresent", "Never")));
    }
    ResourceRequirementsValidation.container(c.path("resources"), at + ".resources", errors);
    SecurityContextValidation.container(c.path("securityContext"), at + ".securityContext", context.hostUsers(),
        errors);
  }

  /** kube's {@code validateContainerPorts}. */
  private static void ports(JsonNode ports, String path, List<Status.Cause> errors) {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < ports.size(); i++) {
      JsonNode port = ports.get(i);
      String at = path + "[" + i + "]";
      String name = text(port, "name");
      if (!name.isEmpty()) {
        List<String> msgs = io.listwatch.api.validation.NameSyntax.isValidPortName(name);
        for (String msg : msgs) {
          errors.add(FieldErrors.invalid(at + ".name", name, msg));
        }
        if (msgs.isEmpty() && !names.add(name)) {
          errors.add(FieldErrors.duplicate(at + ".name", name));
        }
      }
      long containerPort = port.path("containerPort").asLong(0);
      if (containerPort == 0) {
        errors.add(FieldErrors.required(at + ".containerPort", ""));
      } else {
        portNumber(containerPort, at + ".containerPort", errors);
      }
      long hostPort = port.path("hostPort").asLong(0);
      if (hostPort != 0) {
        portNumber(hostPort, at + ".hostPort", errors);
      }
      String protocol = text(port, "protocol");
      if (protocol.isEmpty()) {
        errors.add(FieldErrors.required(at + ".protocol", ""));
      } else if (!List.of("SCTP", "TCP", "UDP").contains(protocol)) {
        errors.add(FieldErrors.notSupported(at + ".protocol", protocol, List.of("SCTP", "TCP", "UDP")));
      }
    }
  }

  /** kube's {@code IsValidPortNum}: 1 to 65535. */
  static void portNumber(long port, String path, List<Status.Cause> errors) {
    if (port < 1 || port > 65535) {
      errors.add(FieldErrors.invalid(path, port, PodSpecValidation.inclusiveRange(1, 65535)));
    }
  }

  /**
   * kube's {@code AccumulateUniqueHostPorts}: a {@code hostPort} (with its protocol and host IP)
   * used twice is a {@code Duplicate value: "TCP//80"}.
   */
  private static void hostPortConflicts(JsonNode containers, String path, List<Status.Cause> errors) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < containers.size(); i++) {
      JsonNode ports = containers.get(i).path("ports");
      for (int j = 0; j < ports.size(); j++) {
        JsonNode port = ports.get(j);
        long hostPort = port.path("hostPort").asLong(0);
        if (hostPort == 0) {
          continue;
        }
        String key = text(port, "protocol") + "/" + text(port, "hostIP") + "/" + hostPort;
        if (!seen.add(key)) {
          errors.add(FieldErrors.duplicate(path + "[" + i + "].ports[" + j + "].hostPort", key));
        }
      }
    }
  }

  /** kube's {@code ValidateVolumeMounts}, as far as checked here. */
  private static void volumeMounts(JsonNode c, String path, Map<String, JsonNode> volumes, List<Status.Cause> errors) {
    JsonNode mounts = c.path("volumeMounts");
    Set<String> mountPoints = new HashSet<>();
    for (int i = 0; i < mounts.size(); i++) {
      JsonNode m = mounts.get(i);
      String at = path + "[" + i + "]";
      String name = text(m, "name");
      if (name.isEmpty()) {
        errors.add(FieldErrors.required(at + ".name", ""));
      }
      if (!volumes.containsKey(name)) {
        errors.add(FieldErrors.notFound(at + ".name", name));
      }
      String mountPath = text(m, "mountPath");
      if (mountPath.isEmpty()) {
        errors.add(FieldErrors.required(at + ".mountPath", ""));
      }
      if (!mountPoints.add(mountPath)) {
        errors.add(FieldErrors.invalid(at + ".mountPath", mountPath, "must be unique"));
      }
      String subPath = text(m, "subPath");
      String subPathExpr = text(m, "subPathExpr");
      // kube's paths here lack the mount's index
      if (!subPath.isEmpty()) {
        VolumeValidation.localDescendingPath(subPath, path + ".subPath", errors);
      }
      if (!subPathExpr.isEmpty()) {
        if (!subPath.isEmpty()) {
          errors.add(FieldErrors.invalid(at + ".subPathExpr", subPathExpr, "subPathExpr and subPath are mutually exclusive"));
        }
        VolumeValidation.localDescendingPath(subPathExpr, path + ".subPathExpr", errors);
      }
      if (m.path("mountPropagation").isTextual()) {
        mountPropagation(m.path("mountPropagation").textValue(), c, path + ".mountPropagation", errors);
      }
    }
  }

  /** kube's {@code validateMountPropagation}: Bidirectional only for privileged containers. */
  private static void mountPropagation(String propagation, JsonNode c, String path, List<Status.Cause> errors) {
    List<String> supported = List.of("Bidirectional", "HostToContainer", "None");
    if (!supported.contains(propagation)) {
      errors.add(FieldErrors.notSupported(path, propagation, supported));
    }
    if (propagation.equals("Bidirectional") && !c.path("securityContext").path("privileged").asBoolean(false)) {
      errors.add(FieldErrors.forbidden(path, "Bidirectional mount propagation is available only to privileged containers"));
    }
  }

  private static Set<String> names(JsonNode containers) {
    Set<String> names = new HashSet<>();
    for (JsonNode c : containers) {
      names.add(text(c, "name"));
    }
    return names;
  }

  /** Whether a field differs from Go's zero value: not missing, null, false, 0, "" or empty. */
  static boolean isSet(JsonNode v) {
    if (v == null || v.isNull()) {
      return false;
    }
    if (v.isContainerNode()) {
      for (JsonNode child : v) {
        if (isSet(child)) {
          return true;
        }
      }
      return false;
    }
    if (v.isTextual()) {
      return !v.textValue().isEmpty();
    }
    if (v.isBoolean()) {
      return v.booleanValue();
    }
    return !v.isNumber() || v.doubleValue() != 0;
  }
}
