package io.listwatch.apiserver.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ResourceRegistryTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final ResourceRegistry REGISTRY = ResourceRegistry.builtins();

  private static JsonNode json(String s) {
    try {
      return MAPPER.readTree(s);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static ResourceDefinition get(String group, String plural) {
    return REGISTRY.find(group, "v1", plural).orElseThrow();
  }

  @Test
  void builtins_serveExactlyTheListedResources() {
    assertThat(REGISTRY.all()).extracting(d -> d.groupVersion() + "/" + d.plural()).containsExactly(
        "v1/bindings", "v1/componentstatuses", "v1/configmaps", "v1/endpoints", "v1/events", "v1/limitranges", "v1/namespaces", "v1/nodes",
        "v1/persistentvolumeclaims", "v1/persistentvolumes", "v1/pods", "v1/podtemplates", "v1/replicationcontrollers",
        "v1/resourcequotas", "v1/secrets",
        "v1/serviceaccounts", "v1/services", "apiregistration.k8s.io/v1/apiservices",
        "apps/v1/controllerrevisions", "apps/v1/daemonsets", "apps/v1/deployments", "apps/v1/replicasets",
        "apps/v1/statefulsets", "events.k8s.io/v1/events",
        "authentication.k8s.io/v1/tokenreviews", "authentication.k8s.io/v1/selfsubjectreviews",
        "authorization.k8s.io/v1/localsubjectaccessreviews", "authorization.k8s.io/v1/selfsubjectaccessreviews",
        "authorization.k8s.io/v1/selfsubjectrulesreviews", "authorization.k8s.io/v1/subjectaccessreviews",
        "autoscaling/v2/horizontalpodautoscalers", "autoscaling/v1/horizontalpodautoscalers",
        "batch/v1/cronjobs", "batch/v1/jobs", "networking.k8s.io/v1/ingressclasses", "networking.k8s.io/v1/ingresses",
        "networking.k8s.io/v1/networkpolicies", "policy/v1/poddisruptionbudgets",
        "rbac.authorization.k8s.io/v1/clusterrolebindings", "rbac.authorization.k8s.io/v1/clusterroles",
        "rbac.authorization.k8s.io/v1/rolebindings", "rbac.authorization.k8s.io/v1/roles",
        "storage.k8s.io/v1/csidrivers", "storage.k8s.io/v1/csinodes", "storage.k8s.io/v1/csistoragecapacities",
        "storage.k8s.io/v1/storageclasses", "storage.k8s.io/v1/volumeattachments",
        "certificates.k8s.io/v1/certificatesigningrequests",
        "admissionregistration.k8s.io/v1/mutatingwebhookconfigurations",
        "admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
        "admissionregistration.k8s.io/v1/validatingadmissionpolicies",
        "admissionregistration.k8s.io/v1/validatingadmissionpolicybindings",
        "apiextensions.k8s.io/v1/customresourcedefinitions",
        "scheduling.k8s.io/v1/priorityclasses",
        "coordination.k8s.io/v1/leases", "node.k8s.io/v1/runtimeclasses", "discovery.k8s.io/v1/endpointslices",
        "flowcontrol.apiserver.k8s.io/v1/flowschemas", "flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations");
  }

  @Test
  void builtins_isTheSameInstanceEachTime() {
    assertThat(ResourceRegistry.builtins()).isSameAs(REGISTRY);
  }

  @Test
  void builtins_kindsAndSingulars_matchKube() {
    assertThat(REGISTRY.all()).extracting(ResourceDefinition::kind).containsExactly(
        "Binding", "ComponentStatus", "ConfigMap", "Endpoints", "Event", "LimitRange", "Namespace", "Node", "PersistentVolumeClaim",
        "PersistentVolume", "Pod", "PodTemplate", "ReplicationController", "ResourceQuota", "Secret", "ServiceAccount", "Service",
        "APIService", "ControllerRevision", "DaemonSet", "Deployment", "ReplicaSet", "StatefulSet", "Event",
        "TokenReview", "SelfSubjectReview", "LocalSubjectAccessReview",
        "SelfSubjectAccessReview", "SelfSubjectRulesReview", "SubjectAccessReview",
        "HorizontalPodAutoscaler", "HorizontalPodAutoscaler", "CronJob", "Job", "IngressClass", "Ingress",
        "NetworkPolicy", "PodDisruptionBudget", "ClusterRoleBinding", "ClusterRole",
        "RoleBinding", "Role", "CSIDriver", "CSINode", "CSIStorageCapacity", "StorageClass", "VolumeAttachment",
        "CertificateSigningRequest", "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration",
        "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
        "CustomResourceDefinition", "PriorityClass", "Lease", "RuntimeClass", "EndpointSlice",
        "FlowSchema", "PriorityLevelConfiguration");
    assertThat(REGISTRY.all()).allSatisfy(d -> {
      assertThat(d.listKind()).isEqualTo(d.kind() + "List");
      assertThat(d.singular()).isEqualTo(d.kind().toLowerCase());
    });
  }

  @Test
  void builtins_shortNames_matchKubeDiscovery() {
    Map<String, List<String>> expected = Map.ofEntries(
        Map.entry("configmaps", List.of("cm")), Map.entry("events", List.of("ev")),
        Map.entry("namespaces", List.of("ns")), Map.entry("nodes", List.of("no")),
        Map.entry("pods", List.of("po")), Map.entry("secrets", List.of()),
        Map.entry("serviceaccounts", List.of("sa")), Map.entry("services", List.of("svc")),
        Map.entry("deployments", List.of("deploy")), Map.entry("replicasets", List.of("rs")),
        Map.entry("leases", List.of()), Map.entry("tokenreviews", List.of()), Map.entry("bindings", List.of()), Map.entry("componentstatuses", List.of("cs")),
        Map.entry("selfsubjectreviews", List.of()), Map.entry("localsubjectaccessreviews", List.of()),
        Map.entry("selfsubjectaccessreviews", List.of()), Map.entry("selfsubjectrulesreviews", List.of()),
        Map.entry("subjectaccessreviews", List.of()), Map.entry("clusterrolebindings", List.of()),
        Map.entry("clusterroles", List.of()), Map.entry("rolebindings", List.of()), Map.entry("roles", List.of()),
        Map.entry("endpoints", List.of("ep")), Map.entry("limitranges", List.of("limits")),
        Map.entry("persistentvolumeclaims", List.of("pvc")), Map.entry("persistentvolumes", List.of("pv")),
        Map.entry("resourcequotas", List.of("quota")), Map.entry("controllerrevisions", List.of()),
        Map.entry("daemonsets", List.of("ds")), Map.entry("statefulsets", List.of("sts")),
        Map.entry("cronjobs", List.of("cj")), Map.entry("jobs", List.of()), Map.entry("ingresses", List.of("ing")),
        Map.entry("networkpolicies", List.of("netpol")), Map.entry("poddisruptionbudgets", List.of("pdb")),
        Map.entry("storageclasses", List.of("sc")), Map.entry("priorityclasses", List.of("pc")),
        Map.entry("customresourcedefinitions", List.of("crd", "crds")),
        Map.entry("endpointslices", List.of()),
        Map.entry("ingressclasses", List.of()), Map.entry("runtimeclasses", List.of()),
        Map.entry("podtemplates", List.of()), Map.entry("replicationcontrollers", List.of("rc")),
        Map.entry("horizontalpodautoscalers", List.of("hpa")),
        Map.entry("csidrivers", List.of()), Map.entry("csinodes", List.of()),
        Map.entry("csistoragecapacities", List.of()), Map.entry("volumeattachments", List.of()),
        Map.entry("certificatesigningrequests", List.of("csr")),
        Map.entry("prioritylevelconfigurations", List.of()), Map.entry("flowschemas", List.of()),
        Map.entry("mutatingwebhookconfigurations", List.of()), Map.entry("validatingwebhookconfigurations", List.of()),
        Map.entry("validatingadmissionpolicies", List.of()), Map.entry("validatingadmissionpolicybindings", List.of()),
        Map.entry("apiservices", List.of()));
    assertThat(REGISTRY.all()).allSatisfy(d ->
        assertThat(d.shortNames()).as(d.plural()).isEqualTo(expected.get(d.plural())));
  }

  @Test
  void builtins_categoryAll_isPodsServicesDeploymentsReplicaSets() {
    assertThat(REGISTRY.all()).filteredOn(d -> d.categories().contains("all"))
        .extracting(ResourceDefinition::plural)
        .containsExactlyInAnyOrder("pods", "services", "deployments", "replicasets", "daemonsets", "statefulsets",
            "cronjobs", "jobs", "replicationcontrollers", "horizontalpodautoscalers", "horizontalpodautoscalers");
  }

  @Test
  void builtins_scope_clusterScopedAsInKube() {
    assertThat(REGISTRY.all()).filteredOn(d -> !d.namespaced())
        .extracting(ResourceDefinition::plural).containsExactlyInAnyOrder("namespaces", "nodes", "componentstatuses", "tokenreviews", "selfsubjectreviews",
            "selfsubjectaccessreviews", "selfsubjectrulesreviews", "subjectaccessreviews", "clusterrolebindings",
            "clusterroles", "persistentvolumes", "storageclasses", "priorityclasses", "customresourcedefinitions",
            "ingressclasses", "runtimeclasses", "csidrivers", "csinodes", "volumeattachments",
            "prioritylevelconfigurations", "flowschemas", "certificatesigningrequests",
            "mutatingwebhookconfigurations", "validatingwebhookconfigurations",
            "validatingadmissionpolicies", "validatingadmissionpolicybindings",
            "apiservices");
  }

  @Test
  void builtins_statusSubresource_onlyWhereKubeHasOne() {
    assertThat(REGISTRY.all()).filteredOn(ResourceDefinition::hasStatus)
        .extracting(ResourceDefinition::plural)
        .containsExactlyInAnyOrder("namespaces", "nodes", "pods", "services", "deployments", "replicasets",
            "daemonsets", "statefulsets", "cronjobs", "jobs", "ingresses", "poddisruptionbudgets",
            "persistentvolumeclaims", "persistentvolumes", "resourcequotas", "customresourcedefinitions",
            "replicationcontrollers", "volumeattachments", "prioritylevelconfigurations", "flowschemas",
            "certificatesigningrequests", "horizontalpodautoscalers", "horizontalpodautoscalers",
            "validatingadmissionpolicies", "apiservices");
  }

  @Test
  void builtins_generationTracking_onlyWhereKubesStrategySetsIt() {
    assertThat(REGISTRY.all()).filteredOn(ResourceDefinition::tracksGeneration)
        .extracting(ResourceDefinition::plural).containsExactlyInAnyOrder("deployments", "replicasets",
            "daemonsets", "statefulsets", "cronjobs", "jobs", "ingresses", "networkpolicies", "poddisruptionbudgets",
            "customresourcedefinitions", "replicationcontrollers", "prioritylevelconfigurations", "flowschemas",
            "validatingadmissionpolicies", "validatingadmissionpolicybindings");
  }

  @Test
  void builtins_returnDeletedObject_forPodsServicesServiceAccountsNamespaces() {
    assertThat(REGISTRY.all()).filteredOn(ResourceDefinition::returnsDeletedObject)
        .extracting(ResourceDefinition::plural)
        .containsExactlyInAnyOrder("pods", "services", "serviceaccounts", "namespaces");
  }

  @Test
  void builtins_verbs_allButDeleteCollectionOnNamespaces_onlyCreateOnReviews() {
    assertThat(get("", "namespaces").verbs())
        .containsExactly("create", "delete", "get", "list", "patch", "update", "watch");
    assertThat(REGISTRY.all()).filteredOn(d -> d.group().equals("authorization.k8s.io"))
        .allSatisfy(d -> assertThat(d.verbs()).containsExactly("create"));
    assertThat(REGISTRY.all()).filteredOn(d -> !d.plural().equals("namespaces") && d.stored())
        .allSatisfy(d -> assertThat(d.verbs()).isEqualTo(ResourceDefinition.ALL_VERBS));
    assertThat(REGISTRY.all()).filteredOn(d -> !d.stored() && !d.plural().equals("componentstatuses"))
        .allSatisfy(d -> assertThat(d.verbs()).containsExactly("create"));
    assertThat(get("", "componentstatuses").verbs()).containsExactly("get", "list");
  }

  @Test
  void builtins_nameRules_followEachTypesValidation() {
    assertThat(get("", "namespaces").nameValidation()).isEqualTo(NameValidation.DNS1123_LABEL);
    assertThat(get("", "services").nameValidation()).isEqualTo(NameValidation.DNS1035_LABEL);
    assertThat(get("", "events").nameValidation()).isEqualTo(NameValidation.PATH_SEGMENT);
    assertThat(get("apps", "statefulsets").nameValidation()).isEqualTo(NameValidation.DNS1123_LABEL);
    // kube 1.32 checks a CSIDriver's name as a CSI driver name (its strategy, at path "name"), then as a path segment
    assertThat(get("storage.k8s.io", "csidrivers").nameValidation()).isEqualTo(NameValidation.PATH_SEGMENT);
    // kube 1.32's ValidateCertificateRequestName accepts any name
    assertThat(get("certificates.k8s.io", "certificatesigningrequests").nameValidation())
        .isEqualTo(NameValidation.PATH_SEGMENT);
    assertThat(REGISTRY.all()).filteredOn(d -> d.group().equals("rbac.authorization.k8s.io"))
        .allSatisfy(d -> assertThat(d.nameValidation()).isEqualTo(NameValidation.PATH_SEGMENT));
    // kube-aggregator's ValidateAPIService: a path segment named <version>.<group> (the strategy)
    assertThat(get("apiregistration.k8s.io", "apiservices").nameValidation()).isEqualTo(NameValidation.PATH_SEGMENT);
    assertThat(REGISTRY.all())
        .filteredOn(d -> !Set.of("namespaces", "services", "events", "statefulsets", "csidrivers",
            "certificatesigningrequests", "apiservices").contains(d.plural())
            && !d.group().equals("rbac.authorization.k8s.io"))
        .allSatisfy(d -> assertThat(d.nameValidation()).isEqualTo(NameValidation.DNS1123_SUBDOMAIN));
  }

  @Test
  void builtins_selectableFields_matchKubeFieldLabelConversions() {
    assertThat(get("", "pods").selectableFieldNames()).containsExactly(
        "metadata.name", "metadata.namespace", "spec.nodeName", "spec.restartPolicy",
        "spec.schedulerName", "spec.serviceAccountName", "spec.hostNetwork", "status.phase",
        "status.podIP", "status.podIPs", "status.nominatedNodeName");
    assertThat(get("", "events").selectableFieldNames()).containsExactly(
        "metadata.name", "metadata.namespace", "involvedObject.kind", "involvedObject.namespace",
        "involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion",
        "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason",
        "reportingComponent", "source", "type");
    assertThat(get("", "namespaces").selectableFieldNames()).containsExactly("metadata.name", "status.phase");
    assertThat(get("", "nodes").selectableFieldNames()).containsExactly("metadata.name", "spec.unschedulable");
    assertThat(get("", "secrets").selectableFieldNames())
        .containsExactly("metadata.name", "metadata.namespace", "type");
    assertThat(get("", "services").selectableFieldNames())
        .containsExactly("metadata.name", "metadata.namespace", "spec.clusterIP", "spec.type");
    assertThat(get("apps", "replicasets").selectableFieldNames())
        .containsExactly("metadata.name", "metadata.namespace", "status.replicas");
    for (String plain : List.of("configmaps", "serviceaccounts")) {
      assertThat(get("", plain).selectableFieldNames()).containsExactly("metadata.name", "metadata.namespace");
    }
    assertThat(get("apps", "deployments").selectableFieldNames())
        .containsExactly("metadata.name", "metadata.namespace");
    assertThat(get("coordination.k8s.io", "leases").selectableFieldNames())
        .containsExactly("metadata.name", "metadata.namespace");
    assertThat(get("batch", "jobs").selectableFieldNames())
        .containsExactly("metadata.name", "metadata.namespace", "status.successful");
    assertThat(get("batch", "jobs").selectableFieldValues(json("{\"status\":{\"succeeded\":2}}")))
        .containsEntry("status.successful", "2");
    assertThat(get("", "persistentvolumes").selectableFieldNames()).containsExactly("metadata.name");
  }

  @Test
  void pods_selectableFieldValues_followKubeToSelectableFields() {
    JsonNode pod = json("""
        {"metadata":{"name":"web","namespace":"default"},
         "spec":{"nodeName":"n1","restartPolicy":"Always","schedulerName":"default-scheduler",
                 "serviceAccountName":"sa","hostNetwork":true},
         "status":{"phase":"Running","podIP":"10.0.0.9",
                   "podIPs":[{"ip":"10.0.0.1"},{"ip":"fd00::1"}],"nominatedNodeName":"n2"}}""");
    assertThat(get("", "pods").selectableFieldValues(pod)).containsExactly(
        Map.entry("metadata.name", "web"), Map.entry("metadata.namespace", "default"),
        Map.entry("spec.nodeName", "n1"), Map.entry("spec.restartPolicy", "Always"),
        Map.entry("spec.schedulerName", "default-scheduler"),
        Map.entry("spec.serviceAccountName", "sa"), Map.entry("spec.hostNetwork", "true"),
        Map.entry("status.phase", "Running"),
        Map.entry("status.podIP", "10.0.0.1"),
        Map.entry("status.podIPs", ""),
        Map.entry("status.nominatedNodeName", "n2"));
  }

  @Test
  void pods_emptyPod_hasKubeZeroValues() {
    assertThat(get("", "pods").selectableFieldValues(json("{\"metadata\":{\"name\":\"p\"}}")))
        .containsEntry("spec.hostNetwork", "false")
        .containsEntry("spec.nodeName", "")
        .containsEntry("status.podIP", "")
        .containsEntry("status.podIPs", "");
  }

  @Test
  void pods_podIP_fallsBackToStatusPodIP_whenPodIPsMissing() {
    assertThat(get("", "pods").selectableFieldValues(json("{\"status\":{\"podIP\":\"10.1.1.1\"}}")))
        .containsEntry("status.podIP", "10.1.1.1");
  }

  @Test
  void events_source_fallsBackToReportingComponent() {
    ResourceDefinition events = get("", "events");
    assertThat(events.selectableFieldValues(json("{\"source\":{\"component\":\"kubelet\"},\"reportingComponent\":\"rc\"}")))
        .containsEntry("source", "kubelet").containsEntry("reportingComponent", "rc");
    assertThat(events.selectableFieldValues(json("{\"reportingComponent\":\"rc\"}")))
        .containsEntry("source", "rc");
  }

  @Test
  void events_involvedObjectFields_areRead() {
    JsonNode event = json("""
        {"involvedObject":{"kind":"Pod","namespace":"default","name":"web","uid":"u1",
          "apiVersion":"v1","resourceVersion":"42","fieldPath":"spec.containers{app}"},
         "reason":"Started","type":"Normal"}""");
    assertThat(get("", "events").selectableFieldValues(event))
        .containsEntry("involvedObject.kind", "Pod")
        .containsEntry("involvedObject.namespace", "default")
        .containsEntry("involvedObject.name", "web")
        .containsEntry("involvedObject.uid", "u1")
        .containsEntry("involvedObject.apiVersion", "v1")
        .containsEntry("involvedObject.resourceVersion", "42")
        .containsEntry("involvedObject.fieldPath", "spec.containers{app}")
        .containsEntry("reason", "Started")
        .containsEntry("type", "Normal");
  }

  @Test
  void nodes_unschedulable_isFalseWhenUnset() {
    assertThat(get("", "nodes").selectableFieldValues(json("{\"metadata\":{\"name\":\"n\"}}")))
        .containsExactly(Map.entry("metadata.name", "n"), Map.entry("spec.unschedulable", "false"));
    assertThat(get("", "nodes").selectableFieldValues(json("{\"spec\":{\"unschedulable\":true}}")))
        .containsEntry("spec.unschedulable", "true");
  }

  @Test
  void replicaSets_statusReplicas_isZeroWhenUnset() {
    ResourceDefinition rs = get("apps", "replicasets");
    assertThat(rs.selectableFieldValues(json("{}"))).containsEntry("status.replicas", "0");
    assertThat(rs.selectableFieldValues(json("{\"status\":{\"replicas\":3}}")))
        .containsEntry("status.replicas", "3");
  }

  @Test
  void find_returnsEmpty_forUnknownGroupVersionOrPlural() {
    assertThat(REGISTRY.find("", "v1", "pods")).isPresent();
    assertThat(REGISTRY.find("", "v2", "pods")).isEmpty();
    assertThat(REGISTRY.find("apps", "v1", "pods")).isEmpty();
    assertThat(REGISTRY.find("", "v1", "Pods")).isEmpty();
    assertThat(REGISTRY.find("", "v1", "pod")).isEmpty();
    assertThat(REGISTRY.find("apps", "v1", "deployments")).isPresent();
  }

  @Test
  void groups_listNonCoreGroupsOnce_inFirstAppearanceOrder() {
    assertThat(REGISTRY.groups()).containsExactly("apiregistration.k8s.io", "apps", "events.k8s.io", "authentication.k8s.io",
        "authorization.k8s.io", "autoscaling", "batch", "networking.k8s.io", "policy", "rbac.authorization.k8s.io",
        "storage.k8s.io", "certificates.k8s.io", "admissionregistration.k8s.io", "apiextensions.k8s.io", "scheduling.k8s.io", "coordination.k8s.io", "node.k8s.io",
        "discovery.k8s.io", "flowcontrol.apiserver.k8s.io");
  }

  @Test
  void versions_listServedVersionsOfAGroup() {
    assertThat(REGISTRY.versions("")).containsExactly("v1");
    assertThat(REGISTRY.versions("apps")).containsExactly("v1");
    assertThat(REGISTRY.versions("batch")).containsExactly("v1");
    assertThat(REGISTRY.versions("autoscaling")).containsExactly("v2", "v1");
    assertThat(REGISTRY.versions("example.com")).isEmpty();
  }

  @Test
  void forGroupVersion_listsThatGroupVersionsResources() {
    assertThat(REGISTRY.forGroupVersion("apps", "v1")).extracting(ResourceDefinition::plural)
        .containsExactly("controllerrevisions", "daemonsets", "deployments", "replicasets", "statefulsets");
    assertThat(REGISTRY.forGroupVersion("", "v1")).hasSize(17);
    assertThat(REGISTRY.forGroupVersion("apps", "v2")).isEmpty();
  }

  @Test
  void storagePrefixes_areDistinctPerResource_andNoneIsAPrefixOfAnother() {
    Set<String> prefixes = new HashSet<>();
    Set<String> resources = new HashSet<>();
    for (ResourceDefinition d : REGISTRY.all()) {
      // the versions of one resource share its storage (HorizontalPodAutoscalers: autoscaling/v2 and v1)
      if (resources.add(d.group() + "/" + d.plural())) {
        assertThat(prefixes.add(d.storagePrefix())).as(d.storagePrefix()).isTrue();
      }
    }
    for (String a : prefixes) {
      for (String b : prefixes) {
        if (!a.equals(b)) {
          assertThat(a.startsWith(b)).as(a + " under " + b).isFalse();
        }
      }
    }
  }

  @Test
  void with_appendsNewResource_withoutChangingOriginal() {
    ResourceDefinition widgets = ResourceDefinition.builder("example.com", "v1", "Widget", "widgets").build();
    ResourceRegistry next = REGISTRY.with(widgets);
    assertThat(next.find("example.com", "v1", "widgets")).containsSame(widgets);
    assertThat(next.all()).hasSize(REGISTRY.all().size() + 1).endsWith(widgets);
    assertThat(next.groups()).endsWith("flowcontrol.apiserver.k8s.io", "example.com");
    assertThat(REGISTRY.find("example.com", "v1", "widgets")).isEmpty();
    assertThat(REGISTRY.groups()).doesNotContain("example.com");
  }

  @Test
  void with_replacesSameGroupVersionPlural_inPlace() {
    ResourceDefinition v1 = ResourceDefinition.builder("example.com", "v1", "Widget", "widgets").build();
    ResourceDefinition v1b = ResourceDefinition.builder("example.com", "v1", "Widget", "widgets")
        .hasStatus().build();
    ResourceDefinition other = ResourceDefinition.builder("example.com", "v1", "Gadget", "gadgets").build();
    ResourceRegistry r = ResourceRegistry.empty().with(v1).with(other).with(v1b);
    assertThat(r.all()).containsExactly(v1b, other);
    assertThat(r.find("example.com", "v1", "widgets")).containsSame(v1b);
  }

  @Test
  void with_addsSecondVersionOfAGroup() {
    ResourceDefinition v1 = ResourceDefinition.builder("example.com", "v1", "Widget", "widgets").build();
    ResourceDefinition v2 = ResourceDefinition.builder("example.com", "v2", "Widget", "widgets").build();
    ResourceRegistry r = ResourceRegistry.empty().with(v1).with(v2);
    assertThat(r.versions("example.com")).containsExactly("v1", "v2");
    assertThat(r.forGroupVersion("example.com", "v2")).containsExactly(v2);
    assertThat(r.groups()).containsExactly("example.com");
  }

  @Test
  void forKind_findsBuiltinAndCustomKinds_byGroupVersionAndKind_untilUnserved() {
    assertThat(REGISTRY.forKind("", "v1", "ConfigMap")).containsSame(REGISTRY.find("", "v1", "configmaps").orElseThrow());
    ResourceDefinition v1 = ResourceDefinition.builder("rules.example.com", "v1", "ReplicaLimit", "replicalimits").build();
    ResourceRegistry r = REGISTRY.with(v1);
    assertThat(REGISTRY.forKind("rules.example.com", "v1", "ReplicaLimit")).isEmpty();
    assertThat(r.forKind("rules.example.com", "v1", "ReplicaLimit")).containsSame(v1);
    assertThat(r.forKind("rules.example.com", "v2", "ReplicaLimit")).isEmpty();
    assertThat(r.forKind("rules.example.com", "v1", "replicalimits")).isEmpty();
    assertThat(r.without(v1).forKind("rules.example.com", "v1", "ReplicaLimit")).isEmpty();
  }

  @Test
  void with_rejectsSecondResourceOfSameKindInAGroupVersion() {
    ResourceDefinition other = ResourceDefinition.builder("", "v1", "Pod", "pods2").build();
    assertThatThrownBy(() -> REGISTRY.with(other))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Pod");
  }

  @Test
  void empty_servesNothing() {
    ResourceRegistry empty = ResourceRegistry.empty();
    assertThat(empty.all()).isEmpty();
    assertThat(empty.groups()).isEmpty();
    assertThat(empty.find("", "v1", "pods")).isEmpty();
  }

  @Test
  void all_isUnmodifiable() {
    assertThatThrownBy(() -> REGISTRY.all().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> REGISTRY.groups().clear()).isInstanceOf(UnsupportedOperationException.class);
  }
}
