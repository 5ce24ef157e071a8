package io.listwatch.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.apiserver.printers.ConfigMapTableConvertor;
import io.listwatch.apiserver.printers.ControllerRevisionTableConvertor;
import io.listwatch.apiserver.printers.CronJobTableConvertor;
import io.listwatch.apiserver.printers.CSIDriverTableConvertor;
import io.listwatch.apiserver.printers.CSINodeTableConvertor;
import io.listwatch.apiserver.printers.CSIStorageCapacityTableConvertor;
import io.listwatch.apiserver.printers.DaemonSetTableConvertor;
import io.listwatch.apiserver.printers.DeploymentTableConvertor;
import io.listwatch.apiserver.printers.EndpointSliceTableConvertor;
import io.listwatch.apiserver.printers.EndpointsTableConvertor;
import io.listwatch.apiserver.printers.EventTableConvertor;
import io.listwatch.apiserver.printers.IngressClassTableConvertor;
import io.listwatch.apiserver.printers.FlowSchemaTableConvertor;
import io.listwatch.apiserver.printers.HorizontalPodAutoscalerTableConvertor;
import io.listwatch.apiserver.printers.IngressTableConvertor;
import io.listwatch.apiserver.printers.JobTableConvertor;
import io.listwatch.apiserver.printers.LeaseTableConvertor;
import io.listwatch.apiserver.printers.NamespaceTableConvertor;
import io.listwatch.apiserver.printers.NetworkPolicyTableConvertor;
import io.listwatch.apiserver.printers.NodeTableConvertor;
import io.listwatch.apiserver.printers.PersistentVolumeClaimTableConvertor;
import io.listwatch.apiserver.printers.PersistentVolumeTableConvertor;
import io.listwatch.apiserver.printers.PodDisruptionBudgetTableConvertor;
import io.listwatch.apiserver.printers.PodTableConvertor;
import io.listwatch.apiserver.printers.PodTemplateTableConvertor;
import io.listwatch.apiserver.printers.PriorityClassTableConvertor;
import io.listwatch.apiserver.printers.PriorityLevelConfigurationTableConvertor;
import io.listwatch.apiserver.printers.ReplicaSetTableConvertor;
import io.listwatch.apiserver.printers.ResourceQuotaTableConvertor;
import io.listwatch.apiserver.printers.RoleBindingTableConvertor;
import io.listwatch.apiserver.printers.RuntimeClassTableConvertor;
import io.listwatch.apiserver.printers.SecretTableConvertor;
import io.listwatch.apiserver.printers.ServiceAccountTableConvertor;
import io.listwatch.apiserver.printers.ServiceTableConvertor;
import io.listwatch.apiserver.printers.StatefulSetTableConvertor;
import io.listwatch.apiserver.printers.StorageClassTableConvertor;
import io.listwatch.apiserver.printers.VolumeAttachmentTableConvertor;
import io.listwatch.apiserver.printers.CertificateSigningRequestTableConvertor;
import io.listwatch.apiserver.printers.WebhookConfigurationTableConvertor;
import java.util.List;

/**
 * The built-in resources, as kube-apiserver 1.32 serves them. Adding a built-in resource is one
 * more entry here.
 *
 * <p>Sources for each setting: discovery ({@code /api/v1}, {@code /apis/apps/v1}) for short
 * names, categories and verbs; each type's REST storage for {@code ReturnDeletedObject}; each
 * type's strategy for generation tracking and name rule; each type's
 * {@code ToSelectableFields}/{@code GetAttrs} for selectable fields and their zero values.
 */
final class Builtins {

  private static final String CORE = "";

  private Builtins() {
  }

  /**
   * Every built-in: core first (alphabetically, as {@code /api/v1} lists them), then the groups
   * in kube's {@code /apis} order: apps, events, authentication, authorization, batch, networking,
   * policy, rbac, storage, scheduling, coordination, discovery.
   *
   * <p>Status subresources, short names and categories follow kube 1.32's discovery; types whose
   * strategy drops the client's status on create say {@code clearsStatusOnCreate}; types whose
   * strategy sets {@code metadata.generation} say {@code tracksGeneration}. None of the newer
   * types below selects on more than {@code metadata.name}/{@code metadata.namespace} in kube,
   * except jobs ({@code status.successful}).
   */
  static List<ResourceDefinition> definitions() {
    List<ResourceDefinition> all = new java.util.ArrayList<>(List.of(
        bindings(), componentStatuses(), configMaps(), endpoints(), events(), limitRanges(), namespaces(), nodes(), persistentVolumeClaims(),
        persistentVolumes(), pods(), podTemplates(), replicationControllers(), resourceQuotas(), secrets(),
        serviceAccounts(), services()));
    all.add(apiServices());
    all.addAll(apps());
    all.add(eventsV1());
    all.add(tokenReviews());
    all.add(selfSubjectReviews());
    all.addAll(authorization());
    all.addAll(autoscaling());
    all.addAll(batch());
    all.addAll(networking());
    all.add(podDisruptionBudgets());
    all.addAll(rbac());
    all.addAll(csiStorage());
    all.add(storageClasses());
    all.add(volumeAttachments());
    all.add(certificateSigningRequests());
    all.addAll(webhookConfigurations());
    all.addAll(validatingAdmissionPolicies());
    all.add(customResourceDefinitions());
    all.add(priorityClasses());
    all.add(leases());
    all.add(runtimeClasses());
    all.add(endpointSlices());
    all.add(flowSchemas());
    all.add(priorityLevelConfigurations());
    return List.copyOf(all);
  }

  /**
   * authorization.k8s.io/v1: the access reviews, virtual and create-only. Only
   * LocalSubjectAccessReview is namespaced.
   */
  static List<ResourceDefinition> authorization() {
    String group = "authorization.k8s.io";
    return List.of(
        ResourceDefinition.builder(group, "v1", "LocalSubjectAccessReview", "localsubjectaccessreviews")
            .notStored().build(),
        ResourceDefinition.builder(group, "v1", "SelfSubjectAccessReview", "selfsubjectaccessreviews")
            .clusterScoped().notStored().build(),
        ResourceDefinition.builder(group, "v1", "SelfSubjectRulesReview", "selfsubjectrulesreviews")
            .clusterScoped().notStored().build(),
        ResourceDefinition.builder(group, "v1", "SubjectAccessReview", "subjectaccessreviews")
            .clusterScoped().notStored().build());
  }

  /**
   * autoscaling: HorizontalPodAutoscalers in v2 (the preferred and storage version, so listed
   * first) and v1, over one storage ({@link HorizontalPodAutoscalerConversion}); short name
   * {@code hpa}, category {@code all}, a status subresource.
   */
  static List<ResourceDefinition> autoscaling() {
    return List.of(horizontalPodAutoscalers("v2", HorizontalPodAutoscalerConversion.V2, o -> o),
        horizontalPodAutoscalers("v1", HorizontalPodAutoscalerConversion.V1, HorizontalPodAutoscalerConversion::toV2));
  }

  private static ResourceDefinition horizontalPodAutoscalers(String version, VersionConversion conversion,
      java.util.function.UnaryOperator<com.fasterxml.jackson.databind.node.ObjectNode> toV2) {
    return ResourceDefinition.builder("autoscaling", version, "HorizontalPodAutoscaler", "horizontalpodautoscalers")
        .shortNames("hpa").categories("all").hasStatus().clearsStatusOnCreate()
        .tableConvertor(new HorizontalPodAutoscalerTableConvertor(toV2))
        .conversion(conversion).build();
  }

  /**
   * rbac.authorization.k8s.io/v1, in kube's discovery order; no short names or categories. Names
   * follow kube's RBAC rule: any path segment.
   */
  static List<ResourceDefinition> rbac() {
    String group = "rbac.authorization.k8s.io";
    return List.of(
        ResourceDefinition.builder(group, "v1", "ClusterRoleBinding", "clusterrolebindings")
            .tableConvertor(new RoleBindingTableConvertor())
            .clusterScoped().nameValidation(NameValidation.PATH_SEGMENT).build(),
        ResourceDefinition.builder(group, "v1", "ClusterRole", "clusterroles")
            .clusterScoped().nameValidation(NameValidation.PATH_SEGMENT).build(),
        ResourceDefinition.builder(group, "v1", "RoleBinding", "rolebindings")
            .tableConvertor(new RoleBindingTableConvertor())
            .nameValidation(NameValidation.PATH_SEGMENT).build(),
        ResourceDefinition.builder(group, "v1", "Role", "roles")
            .nameValidation(NameValidation.PATH_SEGMENT).build());
  }

  static ResourceDefinition configMaps() {
    return ResourceDefinition.builder(CORE, "v1", "ConfigMap", "configmaps")
        .shortNames("cm")
        .tableConvertor(new ConfigMapTableConvertor())
        .build();
  }

  /**
   * core/v1 Events. kube's v1 event validation checks no name syntax (only the generic
   * path-segment rule). {@code source} is {@code source.component}, falling back to
   * {@code reportingComponent}, as in kube's {@code ToSelectableFields}.
   */
  static ResourceDefinition events() {
    return ResourceDefinition.builder(CORE, "v1", "Event", "events")
        .shortNames("ev")
        .tableConvertor(EventTableConvertor.core())
        .nameValidation(NameValidation.PATH_SEGMENT)
        .selectableField("involvedObject.kind", FieldExtractor.string("involvedObject.kind"))
        .selectableField("involvedObject.namespace", FieldExtractor.string("involvedObject.namespace"))
        .selectableField("involvedObject.name", FieldExtractor.string("involvedObject.name"))
        .selectableField("involvedObject.uid", FieldExtractor.string("involvedObject.uid"))
        .selectableField("involvedObject.apiVersion", FieldExtractor.string("involvedObject.apiVersion"))
        .selectableField("involvedObject.resourceVersion",
            FieldExtractor.string("involvedObject.resourceVersion"))
        .selectableField("involvedObject.fieldPath", FieldExtractor.string("involvedObject.fieldPath"))
        .selectableField("reason", FieldExtractor.string("reason"))
        .selectableField("reportingComponent", FieldExtractor.string("reportingComponent"))
        .selectableField("source",
            FieldExtractor.string("source.component").orElse(FieldExtractor.string("reportingComponent")))
        .selectableField("type", FieldExtractor.string("type"))
        .build();
  }

  /**
   * Namespaces: DNS-1123 label names; no deletecollection (as in kube's discovery). kube's
   * field set also carries a legacy {@code name} key, but its field-label conversion rejects
   * {@code name}, so it is not selectable and is left out.
   */
  static ResourceDefinition namespaces() {
    return ResourceDefinition.builder(CORE, "v1", "Namespace", "namespaces")
        .clusterScoped()
        .shortNames("ns")
        .tableConvertor(new NamespaceTableConvertor())
        .hasStatus()
        .subresource("finalize", "", "v1", "Namespace", "update")
        .returnsDeletedObject()
        .nameValidation(NameValidation.DNS1123_LABEL)
        .verbs("create", "delete", "get", "list", "patch", "update", "watch")
        .selectableField("status.phase", FieldExtractor.string("status.phase"))
        .build();
  }

  static ResourceDefinition nodes() {
    return ResourceDefinition.builder(CORE, "v1", "Node", "nodes")
        .clusterScoped()
        .shortNames("no")
        .tableConvertor(new NodeTableConvertor())
        .hasStatus()
        .selectableField("spec.unschedulable", FieldExtractor.bool("spec.unschedulable"))
        .build();
  }

  /**
   * Pods. Field values follow kube's {@code ToSelectableFields}: {@code spec.hostNetwork} is
   * {@code "false"} when unset; {@code status.podIP} is {@code status.podIPs[0].ip}, falling
   * back to {@code status.podIP}. {@code status.podIPs} is accepted by kube's field-label
   * conversion but never put in the field set, so in kube it always compares as {@code ""}
   * ({@code status.podIPs=} matches every pod, any IP matches none); this mirrors that rather
   * than inventing a format.
   */
  static ResourceDefinition pods() {
    FieldExtractor firstPodIp = object -> {
      JsonNode ip = object.at("/status/podIPs/0/ip");
      return ip.isTextual() ? ip.textValue() : "";
    };
    return ResourceDefinition.builder(CORE, "v1", "Pod", "pods")
        .shortNames("po")
        .tableConvertor(new PodTableConvertor())
        .categories("all")
        .hasStatus()
        .returnsDeletedObject()
        .subresource("binding", "", "v1", "Binding", "create")
        // served by the pods' own handler, with the pod strategy's subresource strategy
        .subresource("ephemeralcontainers", "", "v1", "Pod", "get", "patch", "update")
        .subresource("eviction", "policy", "v1", "Eviction", "create")
        .selectableField("spec.nodeName", FieldExtractor.string("spec.nodeName"))
        .selectableField("spec.restartPolicy", FieldExtractor.string("spec.restartPolicy"))
        .selectableField("spec.schedulerName", FieldExtractor.string("spec.schedulerName"))
        .selectableField("spec.serviceAccountName", FieldExtractor.string("spec.serviceAccountName"))
        .selectableField("spec.hostNetwork", FieldExtractor.bool("spec.hostNetwork"))
        .selectableField("status.phase", FieldExtractor.string("status.phase"))
        .selectableField("status.podIP", firstPodIp.orElse(FieldExtractor.string("status.podIP")))
        .selectableField("status.podIPs", object -> "")
        .selectableField("status.nominatedNodeName", FieldExtractor.string("status.nominatedNodeName"))
        .build();
  }

  static ResourceDefinition podTemplates() {
    return ResourceDefinition.builder(CORE, "v1", "PodTemplate", "podtemplates")
        .tableConvertor(new PodTemplateTableConvertor())
        .build();
  }

  /** ReplicationControllers: selectable on {@code status.replicas}, as kube's field set. */
  static ResourceDefinition replicationControllers() {
    return ResourceDefinition.builder(CORE, "v1", "ReplicationController", "replicationcontrollers")
        .shortNames("rc")
        .tableConvertor(ReplicaSetTableConvertor.forReplicationControllers())
        .categories("all")
        .hasStatus()
        .tracksGeneration()
        .clearsStatusOnCreate()
        .subresource("scale", "autoscaling", "v1", "Scale", "get", "patch", "update")
        .selectableField("status.replicas", FieldExtractor.integer("status.replicas"))
        .build();
  }

  static ResourceDefinition secrets() {
    return ResourceDefinition.builder(CORE, "v1", "Secret", "secrets")
        .tableConvertor(new SecretTableConvertor())
        .selectableField("type", FieldExtractor.string("type"))
        .build();
  }

  static ResourceDefinition serviceAccounts() {
    return ResourceDefinition.builder(CORE, "v1", "ServiceAccount", "serviceaccounts")
        .shortNames("sa")
        .tableConvertor(new ServiceAccountTableConvertor())
        .returnsDeletedObject()
        .subresource("token", "authentication.k8s.io", "v1", "TokenRequest", "create")
        .build();
  }

  /**
   * Services: DNS-1035 label names. kube 1.32 also selects on {@code spec.clusterIP} and
   * {@code spec.type}.
   */
  static ResourceDefinition services() {
    return ResourceDefinition.builder(CORE, "v1", "Service", "services")
        .shortNames("svc")
        .tableConvertor(new ServiceTableConvertor())
        .categories("all")
        .hasStatus()
        .returnsDeletedObject()
        .nameValidation(NameValidation.DNS1035_LABEL)
        .selectableField("spec.clusterIP", FieldExtractor.string("spec.clusterIP"))
        .selectableField("spec.type", FieldExtractor.string("spec.type"))
        .build();
  }

  /** apps/v1, in kube's discovery order. */
  static List<ResourceDefinition> apps() {
    return List.of(
        ResourceDefinition.builder("apps", "v1", "ControllerRevision", "controllerrevisions")
            .tableConvertor(new ControllerRevisionTableConvertor()).build(),
        ResourceDefinition.builder("apps", "v1", "DaemonSet", "daemonsets")
            .tableConvertor(new DaemonSetTableConvertor())
            .shortNames("ds").categories("all").hasStatus().tracksGeneration().clearsStatusOnCreate().build(),
        deployments(), replicaSets(),
        // StatefulSet names become pod names and hostnames: a DNS-1123 label, as kube's ValidateStatefulSetName
        ResourceDefinition.builder("apps", "v1", "StatefulSet", "statefulsets")
            .tableConvertor(new StatefulSetTableConvertor())
            .shortNames("sts").categories("all").hasStatus().tracksGeneration().clearsStatusOnCreate()
            .nameValidation(NameValidation.DNS1123_LABEL)
            .subresource("scale", "autoscaling", "v1", "Scale", "get", "patch", "update").build());
  }

  static ResourceDefinition deployments() {
    return ResourceDefinition.builder("apps", "v1", "Deployment", "deployments")
        .shortNames("deploy")
        .tableConvertor(new DeploymentTableConvertor())
        .categories("all")
        .hasStatus()
        .tracksGeneration()
        .subresource("scale", "autoscaling", "v1", "Scale", "get", "patch", "update")
        .build();
  }

  static ResourceDefinition replicaSets() {
    return ResourceDefinition.builder("apps", "v1", "ReplicaSet", "replicasets")
        .shortNames("rs")
        .tableConvertor(new ReplicaSetTableConvertor())
        .categories("all")
        .hasStatus()
        .tracksGeneration()
        .subresource("scale", "autoscaling", "v1", "Scale", "get", "patch", "update")
        .selectableField("status.replicas", FieldExtractor.integer("status.replicas"))
        .build();
  }

  /** core/v1 Endpoints: no status, no generation; kube's field set is the metadata only. */
  static ResourceDefinition endpoints() {
    return ResourceDefinition.builder(CORE, "v1", "Endpoints", "endpoints")
        .singular("endpoints").shortNames("ep")
        .tableConvertor(new EndpointsTableConvertor())
        .build();
  }

  static ResourceDefinition limitRanges() {
    return ResourceDefinition.builder(CORE, "v1", "LimitRange", "limitranges").shortNames("limits").build();
  }

  static ResourceDefinition persistentVolumeClaims() {
    return ResourceDefinition.builder(CORE, "v1", "PersistentVolumeClaim", "persistentvolumeclaims")
        .tableConvertor(new PersistentVolumeClaimTableConvertor())
        .shortNames("pvc").hasStatus().clearsStatusOnCreate().build();
  }

  /** Cluster-scoped; a new volume starts Pending (see the server's strategies). */
  static ResourceDefinition persistentVolumes() {
    return ResourceDefinition.builder(CORE, "v1", "PersistentVolume", "persistentvolumes")
        .tableConvertor(new PersistentVolumeTableConvertor())
        .clusterScoped().shortNames("pv").hasStatus().clearsStatusOnCreate().build();
  }

  static ResourceDefinition resourceQuotas() {
    return ResourceDefinition.builder(CORE, "v1", "ResourceQuota", "resourcequotas")
        .tableConvertor(new ResourceQuotaTableConvertor())
        .shortNames("quota").hasStatus().clearsStatusOnCreate().build();
  }

  /** batch/v1: jobs select on {@code status.successful} (kube's {@code status.succeeded}, "0" when unset). */
  static List<ResourceDefinition> batch() {
    return List.of(
        ResourceDefinition.builder("batch", "v1", "CronJob", "cronjobs")
            .tableConvertor(new CronJobTableConvertor())
            .shortNames("cj").categories("all").hasStatus().tracksGeneration().clearsStatusOnCreate().build(),
        ResourceDefinition.builder("batch", "v1", "Job", "jobs")
            .tableConvertor(new JobTableConvertor())
            .categories("all").hasStatus().tracksGeneration().clearsStatusOnCreate()
            .selectableField("status.successful", FieldExtractor.integer("status.succeeded")).build());
  }

  /** networking.k8s.io/v1: ingressclasses, ingresses (with status) and networkpolicies, in kube's discovery order. */
  static List<ResourceDefinition> networking() {
    return List.of(
        ResourceDefinition.builder("networking.k8s.io", "v1", "IngressClass", "ingressclasses")
            .tableConvertor(new IngressClassTableConvertor()).clusterScoped().build(),
        ResourceDefinition.builder("networking.k8s.io", "v1", "Ingress", "ingresses")
            .tableConvertor(new IngressTableConvertor())
            .shortNames("ing").hasStatus().tracksGeneration().clearsStatusOnCreate().build(),
        ResourceDefinition.builder("networking.k8s.io", "v1", "NetworkPolicy", "networkpolicies")
            .tableConvertor(new NetworkPolicyTableConvertor())
            .shortNames("netpol").tracksGeneration().build());
  }

  static ResourceDefinition podDisruptionBudgets() {
    return ResourceDefinition.builder("policy", "v1", "PodDisruptionBudget", "poddisruptionbudgets")
        .tableConvertor(new PodDisruptionBudgetTableConvertor())
        .shortNames("pdb").hasStatus().tracksGeneration().clearsStatusOnCreate().build();
  }

  static ResourceDefinition storageClasses() {
    return ResourceDefinition.builder("storage.k8s.io", "v1", "StorageClass", "storageclasses")
        .tableConvertor(new StorageClassTableConvertor())
        .clusterScoped().shortNames("sc").build();
  }

  /**
   * storage.k8s.io/v1's CSI kinds listed before StorageClasses in kube's discovery: CSIDrivers
   * (cluster-scoped; kube checks their names as CSI driver names, see the strategy, and then
   * as path segments), CSINodes (cluster-scoped, named as their node), CSIStorageCapacities (namespaced).
   */
  static List<ResourceDefinition> csiStorage() {
    String group = "storage.k8s.io";
    return List.of(
        ResourceDefinition.builder(group, "v1", "CSIDriver", "csidrivers")
            .tableConvertor(new CSIDriverTableConvertor())
            .clusterScoped().nameValidation(NameValidation.PATH_SEGMENT).build(),
        ResourceDefinition.builder(group, "v1", "CSINode", "csinodes")
            .tableConvertor(new CSINodeTableConvertor())
            .clusterScoped().build(),
        ResourceDefinition.builder(group, "v1", "CSIStorageCapacity", "csistoragecapacities")
            .tableConvertor(new CSIStorageCapacityTableConvertor())
            .build());
  }

  /** storage.k8s.io/v1 VolumeAttachments: cluster-scoped, with a status kube drops on create. */
  static ResourceDefinition volumeAttachments() {
    return ResourceDefinition.builder("storage.k8s.io", "v1", "VolumeAttachment", "volumeattachments")
        .tableConvertor(new VolumeAttachmentTableConvertor())
        .clusterScoped().hasStatus().clearsStatusOnCreate().build();
  }

  /** certificates.k8s.io/v1 CertificateSigningRequests: cluster-scoped, any name (a path segment). */
  static ResourceDefinition certificateSigningRequests() {
    return ResourceDefinition.builder("certificates.k8s.io", "v1", "CertificateSigningRequest", "certificatesigningrequests")
        .shortNames("csr").tableConvertor(new CertificateSigningRequestTableConvertor())
        .subresource("approval", "certificates.k8s.io", "v1", "CertificateSigningRequest", "get", "patch", "update")
        .clusterScoped().hasStatus().clearsStatusOnCreate().nameValidation(NameValidation.PATH_SEGMENT).build();
  }

  static ResourceDefinition endpointSlices() {
    return ResourceDefinition.builder("discovery.k8s.io", "v1", "EndpointSlice", "endpointslices")
        .tableConvertor(new EndpointSliceTableConvertor())
        .build();
  }

  /**
   * events.k8s.io/v1 Events. kube keeps them in the same storage as core/v1 Events and converts
   * between the two shapes; here they are stored apart (an event written through one group is
   * not listed through the other). Names: kube's events.k8s.io validation checks a DNS-1123
   * subdomain.
   */
  static ResourceDefinition eventsV1() {
    return ResourceDefinition.builder("events.k8s.io", "v1", "Event", "events").shortNames("ev")
        .tableConvertor(EventTableConvertor.eventsV1())
        .build();
  }

  /**
   * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicies (with {@code status}, which kube
   * resets on create and keeps on update) and their bindings; cluster-scoped, category
   * {@code api-extensions}, as kube's discovery lists them. The policies are enforced by the
   * {@code ValidatingAdmissionPolicy} admission plug-in.
   */
  static List<ResourceDefinition> validatingAdmissionPolicies() {
    String group = "admissionregistration.k8s.io";
    return List.of(
        ResourceDefinition.builder(group, "v1", "ValidatingAdmissionPolicy", "validatingadmissionpolicies")
            .tableConvertor(new io.listwatch.apiserver.printers.ValidatingAdmissionPolicyTableConvertor())
            .clusterScoped().categories("api-extensions").hasStatus().tracksGeneration().clearsStatusOnCreate()
            .build(),
        ResourceDefinition.builder(group, "v1", "ValidatingAdmissionPolicyBinding",
                "validatingadmissionpolicybindings")
            .tableConvertor(new io.listwatch.apiserver.printers.ValidatingAdmissionPolicyBindingTableConvertor())
            .clusterScoped().categories("api-extensions").tracksGeneration().build());
  }

  static ResourceDefinition priorityClasses() {
    return ResourceDefinition.builder("scheduling.k8s.io", "v1", "PriorityClass", "priorityclasses")
        .tableConvertor(new PriorityClassTableConvertor())
        .clusterScoped().shortNames("pc").build();
  }

  /**
   * admissionregistration.k8s.io/v1's webhook configurations, in kube's discovery order:
   * cluster-scoped, category {@code api-extensions}, no short names, no status; kube's strategy
   * sets the generation (WebhookConfigurationStrategy), so they do not say tracksGeneration.
   */
  static List<ResourceDefinition> webhookConfigurations() {
    String group = "admissionregistration.k8s.io";
    return List.of(
        ResourceDefinition.builder(group, "v1", "MutatingWebhookConfiguration", "mutatingwebhookconfigurations")
            .tableConvertor(new WebhookConfigurationTableConvertor())
            .clusterScoped().categories("api-extensions").build(),
        ResourceDefinition.builder(group, "v1", "ValidatingWebhookConfiguration", "validatingwebhookconfigurations")
            .tableConvertor(new WebhookConfigurationTableConvertor())
            .clusterScoped().categories("api-extensions").build());
  }

  /**
   * apiextensions.k8s.io/v1 CustomResourceDefinition: stored, with kube's defaults and
   * validation (server/apiextensions); the custom resources it declares are served by
   * controllers.CustomResourceDefinitionController.
   */
  static ResourceDefinition customResourceDefinitions() {
    return ResourceDefinition.builder("apiextensions.k8s.io", "v1", "CustomResourceDefinition",
            "customresourcedefinitions")
        .clusterScoped().shortNames("crd", "crds").categories("api-extensions")
        .hasStatus().tracksGeneration().build();
  }

  /**
   * apiregistration.k8s.io/v1 APIService: cluster-scoped, with /status; served by this server
   * ({@code Local}) or proxied to a Service (the {@code aggregator} package). Names are
   * {@code <version>.<group>} (the strategy), so only the path-segment rule here.
   */
  static ResourceDefinition apiServices() {
    return ResourceDefinition.builder("apiregistration.k8s.io", "v1", "APIService", "apiservices")
        .tableConvertor(new io.listwatch.apiserver.printers.APIServiceTableConvertor())
        .clusterScoped().categories("api-extensions").hasStatus().clearsStatusOnCreate()
        .nameValidation(NameValidation.PATH_SEGMENT).build();
  }

  /**
   * v1 Binding ({@code POST /api/v1/namespaces/{ns}/bindings}): binds the pod the Binding names
   * to a node, as {@code pods/binding} does; create only, nothing stored of its own.
   */
  static ResourceDefinition bindings() {
    return ResourceDefinition.builder("", "v1", "Binding", "bindings").notStored().build();
  }

  /**
   * v1 ComponentStatus ({@code kubectl get cs}), deprecated in kube: read-only (get, list), each
   * component probed on request; nothing stored.
   */
  static ResourceDefinition componentStatuses() {
    return ResourceDefinition.builder("", "v1", "ComponentStatus", "componentstatuses")
        .clusterScoped().shortNames("cs").notStored().verbs("get", "list")
        .tableConvertor(new io.listwatch.apiserver.printers.ComponentStatusTableConvertor()).build();
  }

  /** TokenReview: who a bearer token names; create only, nothing stored. */
  static ResourceDefinition tokenReviews() {
    return ResourceDefinition.builder("authentication.k8s.io", "v1", "TokenReview", "tokenreviews")
        .clusterScoped()
        .notStored()
        .build();
  }

  /** SelfSubjectReview ({@code kubectl auth whoami}): who the caller is; create only, nothing stored. */
  static ResourceDefinition selfSubjectReviews() {
    return ResourceDefinition.builder("authentication.k8s.io", "v1", "SelfSubjectReview", "selfsubjectreviews")
        .clusterScoped()
        .notStored()
        .build();
  }

  /** node.k8s.io/v1 RuntimeClasses: cluster-scoped, no short names; kube's group comes after coordination. */
  static ResourceDefinition runtimeClasses() {
    return ResourceDefinition.builder("node.k8s.io", "v1", "RuntimeClass", "runtimeclasses")
        .tableConvertor(new RuntimeClassTableConvertor())
        .clusterScoped().build();
  }

  static ResourceDefinition leases() {
    return ResourceDefinition.builder("coordination.k8s.io", "v1", "Lease", "leases")
        .tableConvertor(new LeaseTableConvertor())
        .build();
  }

  /** flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration (API Priority and Fairness), with /status. */
  static ResourceDefinition priorityLevelConfigurations() {
    return ResourceDefinition.builder("flowcontrol.apiserver.k8s.io", "v1", "PriorityLevelConfiguration",
            "prioritylevelconfigurations")
        .tableConvertor(new PriorityLevelConfigurationTableConvertor())
        .clusterScoped().hasStatus().tracksGeneration().clearsStatusOnCreate().build();
  }

  /** flowcontrol.apiserver.k8s.io/v1 FlowSchema (API Priority and Fairness), with /status. */
  static ResourceDefinition flowSchemas() {
    return ResourceDefinition.builder("flowcontrol.apiserver.k8s.io", "v1", "FlowSchema", "flowschemas")
        .tableConvertor(new FlowSchemaTableConvertor())
        .clusterScoped().hasStatus().tracksGeneration().clearsStatusOnCreate().build();
  }
}
