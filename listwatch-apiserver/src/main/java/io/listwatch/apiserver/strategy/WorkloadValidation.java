package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.NumericFields.given;
import static io.listwatch.apiserver.strategy.NumericFields.nonNegative;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * kube's validation of the apps workloads' specs ({@code pkg/apis/apps/validation}):
 * {@code ValidateDeploymentSpec}, {@code ValidateReplicaSetSpec},
 * {@code ValidateStatefulSetSpec} (and its update rule), {@code ValidateDaemonSetSpec}, the
 * pod template they share ({@code ValidatePodTemplateSpecForReplicaSet}: the selector matches
 * the template's labels, {@code restartPolicy: Always}, no {@code activeDeadlineSeconds}, the
 * pod spec by {@link PodSpecValidation}) and the selector's immutability of kube's apps/v1
 * strategies. Field paths and messages are kube's. Stateless.
 *
 * <p>As kube 1.32, a StatefulSet's pod template is checked only for its labels (at kube's path
 * {@code spec.template.labels}), the selector, {@code restartPolicy} and
 * {@code activeDeadlineSeconds}: kube leaves its pod spec and {@code volumeClaimTemplates}
 * unchecked (a TODO in kube's validation), and so does this server.
 *
 * <p>Not checked: the status rules (a {@code /status} write is not validated here), a
 * DaemonSet's deprecated {@code templateGeneration}, whose value the strategy sets, so kube's
 * rules of it cannot fail ({@link DaemonSetTemplateGeneration}).
 */
final class WorkloadValidation {

  private WorkloadValidation() {
  }

  /** kube's {@code ValidateDeploymentSpec}, and on update the selector's immutability. */
  static void deployment(JsonNode spec, JsonNode old, List<Status.Cause> errors) {
    nonNegative(spec.path("replicas"), "spec.replicas", errors);
    selectorAndTemplate(spec, errors);
    deploymentStrategy(spec.path("strategy"), errors);
    JsonNode minReady = spec.path("minReadySeconds");
    nonNegative(minReady, "spec.minReadySeconds", errors);
    nonNegative(spec.path("revisionHistoryLimit"), "spec.revisionHistoryLimit", errors);
    JsonNode deadline = spec.path("progressDeadlineSeconds");
    if (deadline.isIntegralNumber()) {
      nonNegative(deadline, "spec.progressDeadlineSeconds", errors);
      if (deadline.longValue() <= minReady.asLong(0)) {
        errors.add(FieldErrors.invalid("spec.progressDeadlineSeconds", deadline.longValue(),
            "must be greater than minReadySeconds"));
      }
    }
    selectorImmutable(spec, old, errors);
  }

  /** kube's {@code ValidateReplicaSetSpec}, and on update the selector's immutability. */
  static void replicaSet(JsonNode spec, JsonNode old, List<Status.Cause> errors) {
    nonNegative(spec.path("replicas"), "spec.replicas", errors);
    nonNegative(spec.path("minReadySeconds"), "spec.minReadySeconds", errors);
    selectorAndTemplate(spec, errors);
    selectorImmutable(spec, old, errors);
  }

  /**
   * kube's {@code ValidateReplicationControllerSpec}: a selector that is a non-empty map of
   * labels the template's labels match, non-negative replicas and minReadySeconds, a template
   * (required) as {@code ValidatePodTemplateSpecForRC} checks it, with read-only GCE disks when
   * more than one replica.
   */
  static void replicationController(JsonNode spec, List<Status.Cause> errors) {
    nonNegative(spec.path("minReadySeconds"), "spec.minReadySeconds", errors);
    JsonNode selector = spec.path("selector");
    if (selector.isEmpty()) {
      errors.add(FieldErrors.required("spec.selector", ""));
    }
    nonNegative(spec.path("replicas"), "spec.replicas", errors);
    JsonNode template = spec.path("template");
    if (!template.isObject()) {
      errors.add(FieldErrors.required("spec.template", ""));
      return;
    }
    JsonNode labels = labelsOf(spec);
    boolean matches = true;
    for (Map.Entry<String, JsonNode> e : selector.properties()) {
      matches &= labels.path(e.getKey()).isTextual() && labels.path(e.getKey()).asText().equals(e.getValue().asText());
    }
    if (!matches) {
      errors.add(labelsMismatch(spec));
    }
    podTemplateSpec(template, "spec.template", errors);
    if (spec.path("replicas").asLong(1) > 1) {
      JsonNode volumes = template.path("spec").path("volumes");
      for (int i = 0; i < volumes.size(); i++) {
        JsonNode gce = volumes.get(i).path("gcePersistentDisk");
        if (gce.isObject() && !gce.path("readOnly").asBoolean(false)) {
          errors.add(FieldErrors.invalid("spec.template.spec.volumes[" + i + "].gcePersistentDisk.readOnly", false,
              "must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only"));
        }
      }
    }
    restartPolicyAlways(spec, "ReplicationController", errors);
  }

  /**
   * What Deployments and ReplicaSets share: the selector and the template (kube's replica set
   * validation says "deployment" in its empty-selector message too).
   */
  private static void selectorAndTemplate(JsonNode spec, List<Status.Cause> errors) {
    JsonNode selector = spec.path("selector");
    boolean parses = requiredSelector(selector, "deployment", errors);
    if (!parses) {
      errors.add(FieldErrors.invalid("spec.selector", LabelSelectorValidation.shown(selector), "invalid label selector"));
    } else {
      templateLabels(spec, selector, errors);
    }
    template(spec, "ReplicaSet", errors);
  }

  /** kube's {@code ValidateStatefulSetSpec}, and on update {@code ValidateStatefulSetUpdate}'s rule. */
  static void statefulSet(JsonNode spec, JsonNode old, List<Status.Cause> errors) {
    String policy = spec.path("podManagementPolicy").asText("");
    if (policy.isEmpty()) {
      errors.add(FieldErrors.required("spec.podManagementPolicy", ""));
    } else if (!policy.equals("OrderedReady") && !policy.equals("Parallel")) {
      errors.add(FieldErrors.invalid("spec.podManagementPolicy", policy, "must be 'OrderedReady' or 'Parallel'"));
    }
    statefulSetStrategy(spec.path("updateStrategy"), errors);
    JsonNode retention = spec.path("persistentVolumeClaimRetentionPolicy");
    if (given(retention)) {
      for (String when : new String[] {"whenDeleted", "whenScaled"}) {
        String value = retention.path(when).asText("");
        if (!value.equals("Retain") && !value.equals("Delete")) {
          errors.add(FieldErrors.notSupported("spec.persistentVolumeClaimRetentionPolicy." + when, value,
              List.of("Retain", "Delete")));
        }
      }
    }
    nonNegative(spec.path("replicas"), "spec.replicas", errors);
    nonNegative(spec.path("minReadySeconds"), "spec.minReadySeconds", errors);
    nonNegative(spec.path("ordinals").path("start"), "spec.ordinals.start", errors);
    JsonNode selector = spec.path("selector");
    if (!requiredSelector(selector, "statefulset", errors)) {
      errors.add(FieldErrors.invalid("spec.selector", LabelSelectorValidation.shown(selector), ""));
    } else {
      templateLabels(spec, selector, errors);
    }
    LabelSelectorValidation.labels(spec.path("template").path("metadata").path("labels"),
        "spec.template.labels", errors);
    restartPolicyAlways(spec, "StatefulSet", errors);
    if (old != null && !sameExceptUpdatable(spec, old)) {
      errors.add(FieldErrors.forbidden("spec", "updates to statefulset spec for fields other than 'replicas', "
          + "'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and "
          + "'minReadySeconds' are forbidden"));
    }
  }

  private static boolean sameExceptUpdatable(JsonNode spec, JsonNode old) {
    ObjectNode a = spec.isObject() ? ((ObjectNode) spec).deepCopy() : null;
    ObjectNode b = old.isObject() ? ((ObjectNode) old).deepCopy() : null;
    if (a == null || b == null) {
      return a == b;
    }
    for (String field : new String[] {"replicas", "ordinals", "template", "updateStrategy",
        "persistentVolumeClaimRetentionPolicy", "minReadySeconds"}) {
      a.remove(field);
      b.remove(field);
    }
    JsonNode selector = a.remove("selector");
    JsonNode oldSelector = b.remove("selector");
    return a.equals(b) && LabelSelectorValidation.sameSelector(selector, oldSelector);
  }

  /** kube's {@code ValidateDaemonSetSpec}, and on update the selector's immutability. */
  static void daemonSet(JsonNode spec, JsonNode old, List<Status.Cause> errors) {
    JsonNode selector = spec.path("selector");
    if (LabelSelectorValidation.validate(selector, "spec.selector", errors)
        && !LabelSelectorValidation.matches(selector, labelsOf(spec))) {
      errors.add(labelsMismatch(spec));
    }
    if (LabelSelectorValidation.isEmpty(selector)) {
      errors.add(FieldErrors.invalid("spec.selector", LabelSelectorValidation.shown(selector),
          "empty selector is invalid for daemonset"));
    }
    template(spec, "DaemonSet", errors);
    nonNegative(spec.path("minReadySeconds"), "spec.minReadySeconds", errors);
    daemonSetStrategy(spec.path("updateStrategy"), errors);
    nonNegative(spec.path("revisionHistoryLimit"), "spec.revisionHistoryLimit", errors);
    selectorImmutable(spec, old, errors);
  }

  /**
   * The selector is required and, when given, valid and not empty; returns whether kube's
   * {@code LabelSelectorAsSelector} accepts it (a missing one it takes as "nothing").
   */
  private static boolean requiredSelector(JsonNode selector, String kind, List<Status.Cause> errors) {
    if (!given(selector)) {
      errors.add(FieldErrors.required("spec.selector", ""));
      return true;
    }
    boolean valid = LabelSelectorValidation.validate(selector, "spec.selector", errors);
    if (LabelSelectorValidation.isEmpty(selector)) {
      errors.add(FieldErrors.invalid("spec.selector", LabelSelectorValidation.shown(selector),
          "empty selector is invalid for " + kind));
    }
    return valid;
  }

  /**
   * kube's {@code ValidatePodTemplateSpecFor*}: a selector that is not empty must match the
   * template's labels (a missing selector matches nothing).
   */
  private static void templateLabels(JsonNode spec, JsonNode selector, List<Status.Cause> errors) {
    if (!LabelSelectorValidation.isEmpty(selector) && !LabelSelectorValidation.matches(selector, labelsOf(spec))) {
      errors.add(labelsMismatch(spec));
    }
  }

  private static JsonNode labelsOf(JsonNode spec) {
    return spec.path("template").path("metadata").path("labels");
  }

  private static Status.Cause labelsMismatch(JsonNode spec) {
    return FieldErrors.invalid("spec.template.metadata.labels", goMap(labelsOf(spec)),
        "`selector` does not match template `labels`");
  }

  /** A string map as Go's {@code %#v} prints it; a missing one is a nil map. */
  static Object goMap(JsonNode map) {
    if (!map.isObject()) {
      return new GoLiteral("map[string]string(nil)");
    }
    Map<String, String> values = new TreeMap<>();
    map.properties().forEach(e -> values.put(e.getKey(), e.getValue().asText("")));
    return values;
  }

  /**
   * kube's {@code ValidatePodTemplateSpec} as far as the workloads add to it: the template's
   * labels, its pod spec ({@link PodSpecValidation}), {@code restartPolicy: Always} and no
   * {@code activeDeadlineSeconds}.
   */
  private static void template(JsonNode spec, String kind, List<Status.Cause> errors) {
    podTemplateSpec(spec.path("template"), "spec.template", errors);
    restartPolicyAlways(spec, kind, errors);
  }

  /**
   * kube's {@code ValidatePodTemplateSpec} of {@code template} at {@code path}: its labels, its
   * pod spec ({@link PodSpecValidation}), and no ephemeral containers.
   */
  static void podTemplateSpec(JsonNode template, String path, List<Status.Cause> errors) {
    LabelSelectorValidation.labels(template.path("metadata").path("labels"), path + ".metadata.labels", errors);
    PodSpecValidation.validate(template.path("spec"), path + ".spec", errors);
    if (!template.path("spec").path("ephemeralContainers").isEmpty()) {
      errors.add(FieldErrors.forbidden(path + ".spec.ephemeralContainers", "ephemeral containers not allowed in pod template"));
    }
  }

  private static void restartPolicyAlways(JsonNode spec, String kind, List<Status.Cause> errors) {
    JsonNode podSpec = spec.path("template").path("spec");
    String restartPolicy = podSpec.path("restartPolicy").asText("");
    if (!restartPolicy.equals("Always")) {
      errors.add(FieldErrors.notSupported("spec.template.spec.restartPolicy", restartPolicy, List.of("Always")));
    }
    if (given(podSpec.path("activeDeadlineSeconds"))) {
      errors.add(FieldErrors.forbidden("spec.template.spec.activeDeadlineSeconds",
          "activeDeadlineSeconds in " + kind + " is not Supported"));
    }
  }

  /** kube's apps/v1 strategies: {@code spec.selector} may not change. */
  private static void selectorImmutable(JsonNode spec, JsonNode old, List<Status.Cause> errors) {
    if (old != null && !LabelSelectorValidation.sameSelector(spec.path("selector"), old.path("selector"))) {
      errors.add(FieldErrors.invalid("spec.selector", LabelSelectorValidation.shown(spec.path("selector")),
          "field is immutable"));
    }
  }

  /** kube's {@code ValidateDeploymentStrategy}. */
  private static void deploymentStrategy(JsonNode strategy, List<Status.Cause> errors) {
    JsonNode rollingUpdate = strategy.path("rollingUpdate");
    switch (strategy.path("type").asText("")) {
      case "Recreate" -> {
        if (given(rollingUpdate)) {
          errors.add(FieldErrors.forbidden("spec.strategy.rollingUpdate",
              "may not be specified when strategy `type` is 'Recreate'"));
        }
      }
      case "RollingUpdate" -> {
        if (!given(rollingUpdate)) {
          errors.add(FieldErrors.required("spec.strategy.rollingUpdate", "this should be defaulted and never be nil"));
          return;
        }
        String at = "spec.strategy.rollingUpdate";
        JsonNode maxUnavailable = intOrZero(rollingUpdate.path("maxUnavailable"));
        JsonNode maxSurge = intOrZero(rollingUpdate.path("maxSurge"));
        IntOrPercent.validatePositive(maxUnavailable, at + ".maxUnavailable", errors);
        IntOrPercent.validatePositive(maxSurge, at + ".maxSurge", errors);
        if (IntOrPercent.value(maxUnavailable) == 0 && IntOrPercent.value(maxSurge) == 0) {
          errors.add(FieldErrors.invalid(at + ".maxUnavailable", IntOrPercent.shown(maxUnavailable),
              "may not be 0 when `maxSurge` is 0"));
        }
        IntOrPercent.notMoreThan100Percent(maxUnavailable, at + ".maxUnavailable", errors);
      }
      default -> errors.add(FieldErrors.notSupported("spec.strategy", goStruct("apps.DeploymentStrategy", strategy,
          "apps.RollingUpdateDeployment"), List.of("Recreate", "RollingUpdate")));
    }
  }

  /** kube's {@code ValidateDaemonSetUpdateStrategy}. */
  private static void daemonSetStrategy(JsonNode strategy, List<Status.Cause> errors) {
    JsonNode rollingUpdate = strategy.path("rollingUpdate");
    switch (strategy.path("type").asText("")) {
      case "OnDelete" -> {
      }
      case "RollingUpdate" -> {
        String at = "spec.updateStrategy.rollingUpdate";
        if (!given(rollingUpdate)) {
          errors.add(FieldErrors.required(at, ""));
          return;
        }
        JsonNode maxUnavailable = intOrZero(rollingUpdate.path("maxUnavailable"));
        JsonNode maxSurge = intOrZero(rollingUpdate.path("maxSurge"));
        IntOrPercent.validatePositive(maxUnavailable, at + ".maxUnavailable", errors);
        IntOrPercent.validatePositive(maxSurge, at + ".maxSurge", errors);
        IntOrPercent.notMoreThan100Percent(maxUnavailable, at + ".maxUnavailable", errors);
        IntOrPercent.notMoreThan100Percent(maxSurge, at + ".maxSurge", errors);
        boolean hasUnavailable = IntOrPercent.value(maxUnavailable) != 0;
        boolean hasSurge = IntOrPercent.value(maxSurge) != 0;
        if (hasUnavailable && hasSurge) {
          errors.add(FieldErrors.invalid(at + ".maxSurge", IntOrPercent.shown(maxSurge),
              "may not be set when maxUnavailable is non-zero"));
        } else if (!hasUnavailable && !hasSurge) {
          errors.add(FieldErrors.required(at + ".maxUnavailable", "cannot be 0 when maxSurge is 0"));
        }
      }
      default -> errors.add(FieldErrors.notSupported("spec.updateStrategy", goStruct("apps.DaemonSetUpdateStrategy",
          strategy, "apps.RollingUpdateDaemonSet"), List.of("RollingUpdate", "OnDelete")));
    }
  }

  /** kube's StatefulSet update strategy rules and {@code validateRollingUpdateStatefulSet}. */
  private static void statefulSetStrategy(JsonNode strategy, List<Status.Cause> errors) {
    JsonNode rollingUpdate = strategy.path("rollingUpdate");
    String at = "spec.updateStrategy.rollingUpdate";
    switch (strategy.path("type").asText("")) {
      case "" -> errors.add(FieldErrors.required("spec.updateStrategy", ""));
      case "OnDelete" -> {
        if (given(rollingUpdate)) {
          errors.add(FieldErrors.invalid(at, goStruct("apps.RollingUpdateStatefulSetStrategy", rollingUpdate),
              "only allowed for updateStrategy 'RollingUpdate'"));
        }
      }
      case "RollingUpdate" -> {
        if (given(rollingUpdate)) {
          nonNegative(rollingUpdate.path("partition"), at + ".partition", errors);
          JsonNode maxUnavailable = rollingUpdate.path("maxUnavailable");
          if (given(maxUnavailable)) {
            IntOrPercent.validatePositive(maxUnavailable, at + ".maxUnavailable", errors);
            if (IntOrPercent.value(maxUnavailable) == 0) {
              errors.add(FieldErrors.invalid(at + ".maxUnavailable", IntOrPercent.shown(maxUnavailable), "cannot be 0"));
            }
            IntOrPercent.notMoreThan100Percent(maxUnavailable, at + ".maxUnavailable", errors);
          }
        }
      }
      default -> errors.add(FieldErrors.invalid("spec.updateStrategy", goStruct("apps.StatefulSetUpdateStrategy",
          strategy, "apps.RollingUpdateStatefulSetStrategy"), "must be 'RollingUpdate' or 'OnDelete'"));
    }
  }

  /** An int-or-string that is absent counts as kube's zero value, the integer 0. */
  private static JsonNode intOrZero(JsonNode value) {
    return given(value) ? value : com.fasterxml.jackson.databind.node.IntNode.valueOf(0);
  }

  /**
   * A strategy struct as Go's {@code %#v} prints kube's internal type: {@code
   * apps.DeploymentStrategy{Type:"Foo", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}}.
   * A pointer that is set prints as an address in kube; here a fixed one.
   */
  private static Object goStruct(String type, JsonNode strategy, String rollingUpdateType) {
    String pointer = given(strategy.path("rollingUpdate")) ? "0xc000000000" : "nil";
    return new GoLiteral(type + "{Type:" + FieldErrors.goValue(strategy.path("type").asText("")) + ", RollingUpdate:(*"
        + rollingUpdateType + ")(" + pointer + ")}");
  }

  /** A StatefulSet's rolling update parameters as Go's {@code %#v} prints them. */
  private static Object goStruct(String type, JsonNode rollingUpdate) {
    return new GoLiteral(type + "{Partition:" + rollingUpdate.path("partition").asLong(0)
        + ", MaxUnavailable:(*intstr.IntOrString)(" + (given(rollingUpdate.path("maxUnavailable")) ? "0xc000000000" : "nil")
        + ")}");
  }
}
