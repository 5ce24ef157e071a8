package io.listwatch.apiserver.strategy;

import io.listwatch.apiserver.registry.ResourceDefinition;
import java.util.Map;

/**
 * The one lookup from a resource to its {@link RestStrategy}: the built-in kinds that have
 * rules, by group and plural (or group, version and plural for a kind whose versions differ); every other resource gets {@link #NONE}, whose hooks do nothing.
 * Immutable and thread-safe.
 */
public final class BuiltinStrategies {

  /** The strategy of a kind without rules of its own. */
  public static final RestStrategy NONE = new RestStrategy() {
  };

  private static final Map<String, RestStrategy> BY_RESOURCE = Map.ofEntries(
      Map.entry("/namespaces", new NamespaceStrategy()),
      Map.entry("/pods", new PodStrategy()),
      Map.entry("/podtemplates", new PodTemplateStrategy()),
      Map.entry("/replicationcontrollers", new ReplicationControllerStrategy()),
      Map.entry("/services", new ServiceStrategy()),
      Map.entry("/endpoints", new EndpointsStrategy()),
      Map.entry("discovery.k8s.io/endpointslices", new EndpointSliceStrategy()),
      Map.entry("/secrets", new SecretStrategy()),
      Map.entry("/persistentvolumes", new PersistentVolumeStrategy()),
      Map.entry("/persistentvolumeclaims", new PersistentVolumeClaimStrategy()),
      Map.entry("/configmaps", new ConfigMapStrategy()),
      Map.entry("/nodes", new NodeStrategy()),
      Map.entry("/serviceaccounts", new ServiceAccountStrategy()),
      Map.entry("/limitranges", new LimitRangeStrategy()),
      Map.entry("/resourcequotas", new ResourceQuotaStrategy()),
      Map.entry("/events", EventStrategy.CORE),
      Map.entry("events.k8s.io/events", EventStrategy.EVENTS_V1),
      Map.entry("apps/deployments", new DeploymentStrategy()),
      Map.entry("apps/replicasets", new ReplicaSetStrategy()),
      Map.entry("apps/statefulsets", new StatefulSetStrategy()),
      Map.entry("apps/daemonsets", new DaemonSetStrategy()),
      Map.entry("apps/controllerrevisions", new ControllerRevisionStrategy()),
      Map.entry("batch/jobs", new JobStrategy()),
      Map.entry("batch/cronjobs", new CronJobStrategy()),
      Map.entry("scheduling.k8s.io/priorityclasses", new PriorityClassStrategy()),
      Map.entry("policy/poddisruptionbudgets", new PodDisruptionBudgetStrategy()),
      Map.entry("networking.k8s.io/ingresses", new IngressStrategy()),
      Map.entry("networking.k8s.io/ingressclasses", new IngressClassStrategy()),
      Map.entry("node.k8s.io/runtimeclasses", new RuntimeClassStrategy()),
      Map.entry("networking.k8s.io/networkpolicies", new NetworkPolicyStrategy()),
      Map.entry("coordination.k8s.io/leases", new LeaseStrategy()),
      Map.entry("flowcontrol.apiserver.k8s.io/prioritylevelconfigurations", new PriorityLevelConfigurationStrategy()),
      Map.entry("flowcontrol.apiserver.k8s.io/flowschemas", new FlowSchemaStrategy()),
      Map.entry("storage.k8s.io/storageclasses", new StorageClassStrategy()),
      Map.entry("storage.k8s.io/csidrivers", new CSIDriverStrategy()),
      Map.entry("storage.k8s.io/csinodes", new CSINodeStrategy()),
      Map.entry("storage.k8s.io/csistoragecapacities", new CSIStorageCapacityStrategy()),
      Map.entry("storage.k8s.io/volumeattachments", new VolumeAttachmentStrategy()),
      Map.entry("certificates.k8s.io/certificatesigningrequests", new CertificateSigningRequestStrategy()),
      Map.entry("admissionregistration.k8s.io/validatingadmissionpolicies", new ValidatingAdmissionPolicyStrategy()),
      Map.entry("admissionregistration.k8s.io/validatingadmissionpolicybindings",
          new ValidatingAdmissionPolicyBindingStrategy()),
      Map.entry("rbac.authorization.k8s.io/roles", new RoleStrategy()),
      Map.entry("rbac.authorization.k8s.io/clusterroles", new ClusterRoleStrategy()),
      Map.entry("rbac.authorization.k8s.io/rolebindings", new RoleBindingStrategy()),
      Map.entry("rbac.authorization.k8s.io/clusterrolebindings", new ClusterRoleBindingStrategy()),
      Map.entry("admissionregistration.k8s.io/mutatingwebhookconfigurations", WebhookConfigurationStrategy.MUTATING),
      Map.entry("admissionregistration.k8s.io/validatingwebhookconfigurations", WebhookConfigurationStrategy.VALIDATING),
      Map.entry("apiextensions.k8s.io/customresourcedefinitions", new CustomResourceDefinitionStrategy()),
      Map.entry("autoscaling/horizontalpodautoscalers", HorizontalPodAutoscalerStrategy.V2),
      Map.entry("autoscaling/v1/horizontalpodautoscalers", HorizontalPodAutoscalerStrategy.V1),
      Map.entry("apiregistration.k8s.io/apiservices", new APIServiceStrategy()));

  private BuiltinStrategies() {
  }

  /**
   * The strategy of {@code def}'s kind, by its group and plural (any version): its own, or
   * {@link #NONE}.
   */
  public static RestStrategy forResource(ResourceDefinition def) {
    RestStrategy versioned = BY_RESOURCE.get(def.group() + "/" + def.version() + "/" + def.plural()); // a kind served in several versions
    return versioned != null ? versioned : BY_RESOURCE.getOrDefault(def.group() + "/" + def.plural(), NONE);
  }
}
