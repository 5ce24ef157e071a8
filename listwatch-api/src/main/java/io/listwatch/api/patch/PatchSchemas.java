package io.listwatch.api.patch;

import static io.listwatch.api.patch.PatchMeta.atomic;
import static io.listwatch.api.patch.PatchMeta.mergeByKey;
import static io.listwatch.api.patch.PatchMeta.mergeSet;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The one table of kube's patch metadata for built-in kinds: which lists merge and by which
 * key, which objects retain keys, and the list types, as the struct tags and markers of
 * kube's Go types ({@code k8s.io/api}, 1.32) declare them. Strategic merge
 * ({@link StrategicMergePatch}) reads it, and so do OpenAPI and server-side apply.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>{@link #forKind} answers for every built-in kind kube serves strategic merge for, and
 *       is empty for any other kind: a custom resource (or an unknown kind) gets no strategic
 *       merge, as in kube, where a CRD answers 415.</li>
 *   <li>A kind's {@link PatchSchema} lists the fields whose patch behaviour differs from the
 *       default (objects merged key by key, lists replaced whole): every merge list with its
 *       merge key, {@code retainKeys} objects, and the atomic lists most used. A field missing
 *       from it is patched by the default, which is what kube does for an unannotated field.</li>
 *   <li>Known quirks are kept as kube has them: container ports merge by {@code containerPort}
 *       alone (two ports with one number and different protocols collide), service ports by
 *       {@code port} alone, node addresses by {@code type}; tolerations, taints and a pod's
 *       container statuses are replaced whole.</li>
 *   <li>Label selectors ({@code +structType=atomic}) are marked {@link PatchMeta#structTypeAtomic()}
 *       where a kind's spec holds one at the top (workloads, jobs, disruption budgets, network
 *       policies): server-side apply owns them whole; strategic merge ignores the mark.</li>
 * </ul>
 *
 * <p>Immutable and thread-safe.
 */
public final class PatchSchemas {

  private static final Map<String, PatchSchema> KINDS = kinds();

  private PatchSchemas() {
  }

  /**
   * The schema of a built-in kind.
   *
   * @param group the API group, "" for core
   * @param version the version, e.g. {@code v1}
   * @param kind e.g. {@code Deployment}
   * @return empty for a kind that is not built in (custom resources)
   */
  public static Optional<PatchSchema> forKind(String group, String version, String kind) {
    return Optional.ofNullable(KINDS.get(key(group, version, kind)));
  }

  /** Every built-in kind's schema, keyed {@code group/version/kind} ("" group for core). */
  public static Map<String, PatchSchema> all() {
    return KINDS;
  }

  private static String key(String group, String version, String kind) {
    return group + "/" + version + "/" + kind;
  }

  // ---- fragments: kube's shared Go types ----------------------------------------------

  private static PatchSchema.Builder objectMeta() {
    return PatchSchema.builder()
        .field("finalizers", mergeSet())
        .field("ownerReferences", mergeByKey("uid"))
        .field("managedFields", atomic());
  }

  private static PatchSchema.Builder container() {
    return PatchSchema.builder()
        .field("command", atomic())
        .field("args", atomic())
        .field("ports", mergeByKey("containerPort").withListMapKeys("containerPort", "protocol"))
        .field("envFrom", atomic())
        .field("env", mergeByKey("name"))
        .field("resizePolicy", atomic())
        .field("volumeMounts", mergeByKey("mountPath"))
        .field("volumeDevices", mergeByKey("devicePath"));
  }

  private static PatchSchema.Builder podSpec() {
    return PatchSchema.builder()
        .field("volumes", mergeByKey("name").with(PatchStrategy.RETAIN_KEYS))
        .field("initContainers", mergeByKey("name")).include("initContainers", container())
        .field("containers", mergeByKey("name")).include("containers", container())
        .field("ephemeralContainers", mergeByKey("name")).include("ephemeralContainers", container())
        .field("imagePullSecrets", mergeByKey("name"))
        .field("tolerations", atomic())
        .field("hostAliases", mergeByKey("ip"))
        .field("readinessGates", atomic())
        .field("topologySpreadConstraints",
            mergeByKey("topologyKey").withListMapKeys("topologyKey", "whenUnsatisfiable"))
        .field("schedulingGates", mergeByKey("name"))
        .field("resourceClaims", mergeByKey("name").with(PatchStrategy.RETAIN_KEYS))
        .field("securityContext.supplementalGroups", atomic())
        .field("securityContext.sysctls", atomic())
        .field("dnsConfig.nameservers", atomic())
        .field("dnsConfig.searches", atomic())
        .field("dnsConfig.options", atomic());
  }

  private static PatchSchema.Builder podStatus() {
    return PatchSchema.builder()
        .field("conditions", mergeByKey("type"))
        .field("hostIPs", mergeByKey("ip").withListType(ListType.ATOMIC))
        .field("podIPs", mergeByKey("ip"))
        .field("initContainerStatuses", atomic())
        .field("containerStatuses", atomic())
        .field("ephemeralContainerStatuses", atomic())
        .field("resourceClaimStatuses", mergeByKey("name").with(PatchStrategy.RETAIN_KEYS));
  }

  private static PatchSchema.Builder podTemplateSpec() {
    return PatchSchema.builder().include("metadata", objectMeta()).include("spec", podSpec());
  }

  /** A status whose only annotated field is {@code conditions}, merged by type. */
  private static PatchSchema.Builder conditionsByType() {
    return PatchSchema.builder().field("conditions", mergeByKey("type"));
  }

  /** A kind: object meta plus {@code body}. */
  private static PatchSchema.Builder kind(PatchSchema.Builder body) {
    return PatchSchema.builder().include("metadata", objectMeta()).include("", body);
  }

  // ---- the kinds -------------------------------------------------------------------------

  private static Map<String, PatchSchema> kinds() {
    Map<String, PatchSchema> all = new LinkedHashMap<>();
    // core/v1
    add(all, "", "Pod", PatchSchema.builder().include("spec", podSpec()).include("status", podStatus()));
    add(all, "", "PodTemplate", PatchSchema.builder().include("template", podTemplateSpec()));
    add(all, "", "ReplicationController", PatchSchema.builder()
        .include("spec.template", podTemplateSpec()).include("status", conditionsByType()));
    add(all, "", "Node", PatchSchema.builder()
        .field("spec.podCIDRs", mergeSet())
        .field("spec.taints", atomic())
        .include("status", conditionsByType())
        // merged by type though types repeat (kube warns callers to replace the list whole); no list type
        .field("status.addresses", mergeByKey("type").withListType(null).withListMapKeys())
        .field("status.volumesInUse", atomic())
        .field("status.volumesAttached", atomic())
        .field("status.images", atomic()));
    add(all, "", "Namespace", PatchSchema.builder()
        .field("spec.finalizers", atomic()).include("status", conditionsByType()));
    add(all, "", "Service", PatchSchema.builder()
        .field("spec.ports", mergeByKey("port").withListMapKeys("port", "protocol"))
        .field("spec.clusterIPs", atomic())
        .field("spec.externalIPs", atomic())
        .field("spec.ipFamilies", atomic())
        .include("status", conditionsByType()));
    add(all, "", "ServiceAccount", PatchSchema.builder()
        .field("secrets", mergeByKey("name")).field("imagePullSecrets", atomic()));
    add(all, "", "PersistentVolumeClaim", PatchSchema.builder()
        .field("spec.accessModes", atomic()).include("status", conditionsByType()));
    add(all, "", "PersistentVolume", PatchSchema.builder()
        .field("spec.accessModes", atomic()).field("spec.mountOptions", atomic()));
    add(all, "", "Endpoints", PatchSchema.builder().field("subsets", atomic()));
    for (String k : new String[] {"ConfigMap", "Secret", "Event", "LimitRange", "ResourceQuota"}) {
      add(all, "", k, PatchSchema.builder());
    }
    // apps/v1
    add(all, "apps", "Deployment", PatchSchema.builder()
        .include("spec.template", podTemplateSpec())
        .field("spec.strategy", PatchMeta.retainKeys())
        .field("spec.selector", PatchMeta.structTypeAtomic())
        .include("status", conditionsByType()));
    add(all, "apps", "ReplicaSet", PatchSchema.builder()
        .include("spec.template", podTemplateSpec())
        .field("spec.selector", PatchMeta.structTypeAtomic()).include("status", conditionsByType()));
    add(all, "apps", "StatefulSet", PatchSchema.builder()
        .include("spec.template", podTemplateSpec())
        .field("spec.volumeClaimTemplates", atomic())
        .field("spec.selector", PatchMeta.structTypeAtomic())
        .include("status", conditionsByType()));
    add(all, "apps", "DaemonSet", PatchSchema.builder()
        .include("spec.template", podTemplateSpec())
        .field("spec.selector", PatchMeta.structTypeAtomic()).include("status", conditionsByType()));
    add(all, "apps", "ControllerRevision", PatchSchema.builder());
    // batch/v1
    add(all, "batch", "Job", PatchSchema.builder()
        .include("spec.template", podTemplateSpec())
        .field("spec.selector", PatchMeta.structTypeAtomic())
        .field("status.conditions", mergeByKey("type").withListType(ListType.ATOMIC)));
    add(all, "batch", "CronJob", PatchSchema.builder()
        .include("spec.jobTemplate.spec.template", podTemplateSpec())
        .field("status.active", atomic()));
    // the rest: no merge lists beyond object meta
    add(all, "policy", "PodDisruptionBudget", PatchSchema.builder()
        .field("spec.selector", PatchMeta.structTypeAtomic()).include("status", conditionsByType()));
    add(all, "discovery.k8s.io", "EndpointSlice", PatchSchema.builder()
        .field("endpoints", atomic()).field("ports", atomic()));
    add(all, "events.k8s.io", "Event", PatchSchema.builder());
    add(all, "networking.k8s.io", "Ingress", PatchSchema.builder());
    add(all, "networking.k8s.io", "IngressClass", PatchSchema.builder());
    add(all, "node.k8s.io", "RuntimeClass", PatchSchema.builder().field("scheduling.tolerations", atomic()));
    add(all, "networking.k8s.io", "NetworkPolicy", PatchSchema.builder()
        .field("spec.podSelector", PatchMeta.structTypeAtomic()));
    add(all, "scheduling.k8s.io", "PriorityClass", PatchSchema.builder());
    add(all, "storage.k8s.io", "StorageClass", PatchSchema.builder());
    add(all, "storage.k8s.io", "CSIDriver", PatchSchema.builder()
        .field("spec.volumeLifecycleModes", new PatchMeta(java.util.Set.of(), "", ListType.SET, java.util.List.of()))
        .field("spec.tokenRequests", atomic()));
    add(all, "storage.k8s.io", "CSINode", PatchSchema.builder()
        .field("spec.drivers", mergeByKey("name")).include("spec.drivers", PatchSchema.builder().field("topologyKeys", atomic())));
    add(all, "storage.k8s.io", "CSIStorageCapacity", PatchSchema.builder()
        .field("nodeTopology", PatchMeta.structTypeAtomic()));
    add(all, "storage.k8s.io", "VolumeAttachment", PatchSchema.builder()
        .field("spec.source.inlineVolumeSpec.accessModes", atomic())
        .field("spec.source.inlineVolumeSpec.mountOptions", atomic()));
    add(all, "coordination.k8s.io", "Lease", PatchSchema.builder());
    add(all, "certificates.k8s.io", "CertificateSigningRequest", PatchSchema.builder()); // conditions without a patch strategy: replaced
    add(all, "admissionregistration.k8s.io", "ValidatingAdmissionPolicy", PatchSchema.builder()
        .field("spec.matchConditions", mergeByKey("name")));
    add(all, "admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding", PatchSchema.builder());
    add(all, "flowcontrol.apiserver.k8s.io", "FlowSchema", PatchSchema.builder()
        .field("spec.rules", atomic()).include("status", conditionsByType()));
    add(all, "flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration", PatchSchema.builder()
        .include("status", conditionsByType()));
    for (String k : new String[] {"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"}) {
      add(all, "admissionregistration.k8s.io", k, PatchSchema.builder()
          .field("webhooks", mergeByKey("name"))
          .include("webhooks", PatchSchema.builder().field("matchConditions", mergeByKey("name"))
              .field("rules", atomic()).field("admissionReviewVersions", atomic())));
    }
    add(all, "apiextensions.k8s.io", "CustomResourceDefinition", PatchSchema.builder());
    add(all, "apiregistration.k8s.io", "APIService", PatchSchema.builder().include("status", conditionsByType()));
    for (String k : new String[] {"Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"}) {
      add(all, "rbac.authorization.k8s.io", k, PatchSchema.builder());
    }
    // autoscaling: v2's lists are atomic but its conditions; v1 has no list
    all.put(key("autoscaling", "v2", "HorizontalPodAutoscaler"), kind(PatchSchema.builder()
        .field("spec.metrics", atomic())
        .field("spec.behavior.scaleUp.policies", atomic())
        .field("spec.behavior.scaleDown.policies", atomic())
        .field("status.currentMetrics", atomic())
        .include("status", conditionsByType())).build("autoscaling", "v2", "HorizontalPodAutoscaler"));
    add(all, "autoscaling", "HorizontalPodAutoscaler", PatchSchema.builder());
    return java.util.Collections.unmodifiableMap(all);
  }

  private static void add(Map<String, PatchSchema> all, String group, String kind, PatchSchema.Builder body) {
    all.put(key(group, "v1", kind), kind(body).build(group, "v1", kind));
  }
}
