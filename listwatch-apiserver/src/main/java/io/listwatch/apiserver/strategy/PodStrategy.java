package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.core.PodQosClass;
import io.listwatch.apiserver.validation.FieldErrors;
import java.time.Instant;
import java.util.List;

/**
 * Pods (core/v1), kube's pod strategies: the pod spec's defaults ({@link PodSpecDefaults}) and
 * the pod's own ({@code SetDefaults_Pod}: requests from limits, {@code enableServiceLinks: true},
 * a host-network pod's host ports); a new pod is Pending with its QoS class, whatever status it
 * came with; its spec is validated as kube 1.32's {@code ValidatePodCreate} does
 * ({@link PodSpecValidation}) and an update as {@code ValidatePodUpdate} does
 * ({@link PodUpdateValidation}); a {@code /status} write keeps the stored
 * {@code ownerReferences}. (A pod's grace period on delete is {@code rest.Deletion}'s; the
 * binding, the server's own write, is not held to the user's update rules.) Stateless.
 */
final class PodStrategy implements RestStrategy {

  @Override
  public void defaults(ObjectNode obj) {
    ObjectNode spec = Fields.object(obj, "spec", true);
    PodSpecDefaults.podSpec(spec);
    if (spec == null) {
      return;
    }
    // kube's SetDefaults_Pod, which a workload's template does not get
    requestsFromLimits(spec.path("containers"));
    requestsFromLimits(spec.path("initContainers"));
    Fields.defaultIfAbsent(spec, "enableServiceLinks", true);
    if (spec.path("hostNetwork").asBoolean(false)) {
      hostNetworkPorts(spec.path("containers"));
      hostNetworkPorts(spec.path("initContainers"));
    }
  }

  /** A container's limits without a request of the same resource give it that request (pods only, as kube). */
  private static void requestsFromLimits(JsonNode containers) {
    for (JsonNode c : containers) {
      if (c.path("resources").get("limits") instanceof ObjectNode limits && !limits.isEmpty()
          && c.get("resources") instanceof ObjectNode resources) {
        ObjectNode requests = Fields.object(resources, "requests", true);
        limits.properties().forEach(l -> {
          if (!requests.has(l.getKey())) {
            requests.set(l.getKey(), l.getValue().deepCopy());
          }
        });
      }
    }
  }

  /** kube's {@code defaultHostNetworkPorts} (a pod's, not a template's): an unset hostPort becomes the containerPort. */
  private static void hostNetworkPorts(JsonNode containers) {
    for (JsonNode c : containers) {
      for (JsonNode p : c.path("ports")) {
        if (p instanceof ObjectNode port && port.path("hostPort").asLong(0) == 0 && port.has("containerPort")) {
          port.set("hostPort", port.get("containerPort").deepCopy());
        }
      }
    }
  }

  @Override
  public void prepareForCreate(ObjectNode obj, Instant now) {
    obj.putObject("status").put("phase", "Pending").put("qosClass", PodQosClass.of(obj.path("spec")));
  }

  /** kube's default {@code terminationGracePeriodSeconds}. */
  static final long DEFAULT_GRACE_SECONDS = 30;

  /**
   * kube's pod {@code CheckGracefulDelete}: the request's {@code gracePeriodSeconds}, else
   * {@code spec.terminationGracePeriodSeconds}, else 30; 0 for a pod never bound to a node
   * (nothing runs that needs time to stop) or already Succeeded or Failed.
   */
  @Override
  public long gracePeriodSeconds(ObjectNode current, Long requestedSeconds) {
    long grace = requestedSeconds != null ? requestedSeconds
        : current.path("spec").path("terminationGracePeriodSeconds").asLong(DEFAULT_GRACE_SECONDS);
    if (current.path("spec").path("nodeName").asText("").isEmpty()) {
      return 0;
    }
    String phase = current.path("status").path("phase").asText("");
    if (phase.equals("Succeeded") || phase.equals("Failed")) {
      return 0;
    }
    return Math.max(0, grace);
  }

  /** kube's {@code pods/ephemeralcontainers}: {@link PodEphemeralContainersStrategy}. */
  @Override
  public java.util.Optional<RestStrategy> subresource(String name) {
    return name.equals(PodEphemeralContainersStrategy.SUBRESOURCE) ? java.util.Optional.of(EPHEMERAL_CONTAINERS)
        : java.util.Optional.empty();
  }

  private static final RestStrategy EPHEMERAL_CONTAINERS = new PodEphemeralContainersStrategy();

  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    Fields.keepStoredMetadata(obj, old, "ownerReferences");
  }

  /**
   * kube's {@code ValidatePodCreate} and {@code ValidatePodUpdate}: the pod's own annotations
   * ({@link PodAnnotationValidation}), its spec ({@link PodSpecValidation#pod}); on create, no
   * ephemeral containers (kube adds them through {@code pods/ephemeralcontainers},
   * {@link PodEphemeralContainersStrategy}) and no node while scheduling gates remain; on update,
   * {@link PodUpdateValidation}. The binding's write comes with {@code old} null.
   */
  /**
   * kube's pod {@code WarningsOnCreate}/{@code WarningsOnUpdate}: a name that is not a DNS
   * label (it becomes the hostname), a negative grace period, and {@link PodWarnings}.
   */
  @Override
  public void warnings(ObjectNode obj, ObjectNode old, java.util.function.Consumer<String> warn) {
    if (old == null) {
      List<String> msgs = io.listwatch.api.validation.NameSyntax.isDns1123Label(
          obj.path("metadata").path("name").asText(""));
      if (!msgs.isEmpty()) {
        warn.accept("metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; "
            + "a DNS label is recommended: [" + String.join(" ", msgs) + "]");
      }
    }
    JsonNode grace = obj.path("spec").path("terminationGracePeriodSeconds");
    if (grace.isIntegralNumber() && grace.longValue() < 0) {
      warn.accept("spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be "
          + "treated as 1");
    }
    PodWarnings.of(obj, "", warn);
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode spec = obj.path("spec");
    PodAnnotationValidation.validate(obj, old, errors);
    PodSpecValidation.pod(spec, errors);
    if (old != null) {
      // kube defaults the stored pod as it reads it: a pod stored before a default existed compares defaulted
      ObjectNode stored = old.deepCopy();
      defaults(stored);
      PodUpdateValidation.validate(spec, stored.path("spec"), errors);
      return;
    }
    if (!spec.path("ephemeralContainers").isEmpty()) {
      errors.add(FieldErrors.forbidden("spec.ephemeralContainers", "cannot be set on create"));
    }
    if (!PodSpecValidation.text(spec, "nodeName").isEmpty() && !spec.path("schedulingGates").isEmpty()) {
      errors.add(FieldErrors.forbidden("spec.nodeName", "cannot be set until all schedulingGates have been cleared"));
    }
  }
}
