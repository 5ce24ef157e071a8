package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.ApisApi;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.AuthenticationV1Api;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreApi;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.DiscoveryV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.apis.FlowcontrolApiserverV1Api;
import io.kubernetes.client.openapi.apis.NetworkingV1Api;
import io.kubernetes.client.openapi.apis.PolicyV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.apis.SchedulingV1Api;
import io.kubernetes.client.openapi.apis.StorageV1Api;
import io.kubernetes.client.openapi.apis.VersionApi;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1APIGroup;
import io.kubernetes.client.openapi.models.V1APIResource;
import io.kubernetes.client.openapi.models.V1APIResourceList;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1CronJob;
import io.kubernetes.client.openapi.models.V1CronJobSpec;
import io.kubernetes.client.openapi.models.V1HostPathVolumeSource;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobSpec;
import io.kubernetes.client.openapi.models.V1JobTemplateSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimSpec;
import io.kubernetes.client.openapi.models.V1PersistentVolumeSpec;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReviewSpec;
import io.kubernetes.client.openapi.models.V1SelfSubjectReview;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1StatefulSetSpec;
import io.kubernetes.client.openapi.models.V1VolumeResourceRequirements;
import io.kubernetes.client.util.PatchUtils;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.EndToEnd;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the server writes by itself, read through the official Java client's strict models:
 * discovery documents, the version, the objects it creates at start (namespaces, RBAC
 * bootstrap policy), lists of every built-in kind it serves, and the reviews it answers.
 * A field kube's model lacks, or a required field missing, throws while the client parses.
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JavaClientModelsTest {

  private static ApiClient client;

  @BeforeAll
  static void setUp(ApiServer server) {
    client = JavaClientTest.newClient(server.url());
  }

  /** A list call, named for the assertion message. */
  private interface ListCall {
    KubernetesListObject list() throws ApiException;
  }

  /** The premise of these tests: if the client ever parsed leniently, they would check nothing. */
  @Test
  void theClientsModels_rejectAFieldKubesSchemaLacks() {
    assertThatThrownBy(() -> JSON.deserialize("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"extra\":1}}",
        V1Pod.class)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("`extra`");
  }

  @Test
  void discovery_andVersion_parse() throws ApiException {
    assertThat(new VersionApi(client).getCode().execute().getMajor()).isEqualTo("1");
    assertThat(new CoreApi(client).getAPIVersions().execute().getVersions()).containsExactly("v1");
    List<String> groups = new ApisApi(client).getAPIVersions().execute()
        .getGroups().stream().map(V1APIGroup::getName).toList();
    assertThat(groups).contains("apps", "batch", "rbac.authorization.k8s.io", "coordination.k8s.io");

    V1APIResourceList core = new CoreV1Api(client).getAPIResources().execute();
    assertThat(core.getResources()).extracting(V1APIResource::getName).contains("pods", "pods/status", "namespaces");
    assertThat(new AppsV1Api(client).getAPIResources().execute().getResources())
        .extracting(V1APIResource::getName).contains("deployments", "deployments/scale");
  }

  @Test
  void listsOfEveryServedKind_parse() throws ApiException {
    CoreV1Api core = new CoreV1Api(client);
    AppsV1Api apps = new AppsV1Api(client);
    BatchV1Api batch = new BatchV1Api(client);
    NetworkingV1Api networking = new NetworkingV1Api(client);
    RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(client);
    Map<String, ListCall> lists = new LinkedHashMap<>();
    lists.put("namespaces", () -> core.listNamespace().execute());
    lists.put("nodes", () -> core.listNode().execute());
    lists.put("pods", () -> core.listPodForAllNamespaces().execute());
    lists.put("configmaps", () -> core.listConfigMapForAllNamespaces().execute());
    lists.put("secrets", () -> core.listSecretForAllNamespaces().execute());
    lists.put("serviceaccounts", () -> core.listServiceAccountForAllNamespaces().execute());
    lists.put("services", () -> core.listServiceForAllNamespaces().execute());
    lists.put("events", () -> core.listEventForAllNamespaces().execute());
    lists.put("endpoints", () -> core.listEndpointsForAllNamespaces().execute());
    lists.put("limitranges", () -> core.listLimitRangeForAllNamespaces().execute());
    lists.put("resourcequotas", () -> core.listResourceQuotaForAllNamespaces().execute());
    lists.put("persistentvolumes", () -> core.listPersistentVolume().execute());
    lists.put("persistentvolumeclaims", () -> core.listPersistentVolumeClaimForAllNamespaces().execute());
    lists.put("deployments", () -> apps.listDeploymentForAllNamespaces().execute());
    lists.put("replicasets", () -> apps.listReplicaSetForAllNamespaces().execute());
    lists.put("statefulsets", () -> apps.listStatefulSetForAllNamespaces().execute());
    lists.put("daemonsets", () -> apps.listDaemonSetForAllNamespaces().execute());
    lists.put("controllerrevisions", () -> apps.listControllerRevisionForAllNamespaces().execute());
    lists.put("jobs", () -> batch.listJobForAllNamespaces().execute());
    lists.put("cronjobs", () -> batch.listCronJobForAllNamespaces().execute());
    lists.put("ingresses", () -> networking.listIngressForAllNamespaces().execute());
    lists.put("networkpolicies", () -> networking.listNetworkPolicyForAllNamespaces().execute());
    lists.put("poddisruptionbudgets", () -> new PolicyV1Api(client).listPodDisruptionBudgetForAllNamespaces().execute());
    lists.put("storageclasses", () -> new StorageV1Api(client).listStorageClass().execute());
    lists.put("csidrivers", () -> new StorageV1Api(client).listCSIDriver().execute());
    lists.put("csinodes", () -> new StorageV1Api(client).listCSINode().execute());
    lists.put("csistoragecapacities", () -> new StorageV1Api(client).listCSIStorageCapacityForAllNamespaces().execute());
    lists.put("volumeattachments", () -> new StorageV1Api(client).listVolumeAttachment().execute());
    lists.put("certificatesigningrequests",
        () -> new io.kubernetes.client.openapi.apis.CertificatesV1Api(client).listCertificateSigningRequest().execute());
    lists.put("validatingadmissionpolicies", () -> new io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api(client)
        .listValidatingAdmissionPolicy().execute());
    lists.put("validatingadmissionpolicybindings", () -> new io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api(
        client).listValidatingAdmissionPolicyBinding().execute());
    lists.put("endpointslices", () -> new DiscoveryV1Api(client).listEndpointSliceForAllNamespaces().execute());
    lists.put("events.k8s.io", () -> new EventsV1Api(client).listEventForAllNamespaces().execute());
    lists.put("priorityclasses", () -> new SchedulingV1Api(client).listPriorityClass().execute());
    lists.put("leases", () -> new CoordinationV1Api(client).listLeaseForAllNamespaces().execute());
    lists.put("podtemplates", () -> core.listPodTemplateForAllNamespaces().execute());
    lists.put("replicationcontrollers", () -> core.listReplicationControllerForAllNamespaces().execute());
    lists.put("ingressclasses", () -> networking.listIngressClass().execute());
    lists.put("runtimeclasses",
        () -> new io.kubernetes.client.openapi.apis.NodeV1Api(client).listRuntimeClass().execute());
    lists.put("flowschemas", () -> new FlowcontrolApiserverV1Api(client).listFlowSchema().execute());
    lists.put("prioritylevelconfigurations",
        () -> new FlowcontrolApiserverV1Api(client).listPriorityLevelConfiguration().execute());
    lists.put("mutatingwebhookconfigurations", () -> new io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api(client)
        .listMutatingWebhookConfiguration().execute());
    lists.put("validatingwebhookconfigurations", () -> new io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api(client)
        .listValidatingWebhookConfiguration().execute());
    lists.put("clusterroles", () -> rbac.listClusterRole().execute());
    lists.put("clusterrolebindings", () -> rbac.listClusterRoleBinding().execute());
    lists.put("roles", () -> rbac.listRoleForAllNamespaces().execute());
    lists.put("rolebindings", () -> rbac.listRoleBindingForAllNamespaces().execute());
    lists.put("horizontalpodautoscalers", () -> new io.kubernetes.client.openapi.apis.AutoscalingV2Api(client)
        .listHorizontalPodAutoscalerForAllNamespaces().execute());
    lists.put("horizontalpodautoscalers.v1", () -> new io.kubernetes.client.openapi.apis.AutoscalingV1Api(client)
        .listHorizontalPodAutoscalerForAllNamespaces().execute());

    for (var list : lists.entrySet()) {
      KubernetesListObject parsed = list.getValue().list();
      assertThat(parsed.getMetadata().getResourceVersion()).as(list.getKey()).isNotBlank();
    }
  }

  @Test
  void bootstrapObjects_parse() throws ApiException {
    List<? extends KubernetesObject> namespaces = new CoreV1Api(client).listNamespace().execute().getItems();
    assertThat(namespaces).extracting(n -> n.getMetadata().getName()).contains("default", "kube-system");
    RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(client);
    assertThat(rbac.readClusterRole("cluster-admin").execute().getRules()).isNotEmpty();
    assertThat(rbac.readClusterRoleBinding("cluster-admin").execute().getSubjects()).isNotEmpty();
  }

  @Test
  void reviews_theServerAnswers_parse() throws ApiException {
    V1SelfSubjectReview whoAmI = new AuthenticationV1Api(client)
        .createSelfSubjectReview(new V1SelfSubjectReview()).execute();
    assertThat(whoAmI.getStatus().getUserInfo().getUsername()).isNotBlank();

    V1SelfSubjectAccessReview review = new AuthorizationV1Api(client).createSelfSubjectAccessReview(
        new V1SelfSubjectAccessReview().spec(new V1SelfSubjectAccessReviewSpec()
            .resourceAttributes(new V1ResourceAttributes().verb("list").resource("pods").namespace("default"))))
        .execute();
    assertThat(review.getStatus().getAllowed()).isTrue();
  }

  private static V1ObjectMeta meta(String name) {
    return new V1ObjectMeta().name(name).labels(Map.of("app", name));
  }

  private static V1PodTemplateSpec template(String app, String restartPolicy) {
    return new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(Map.of("app", app)))
        .spec(new V1PodSpec().restartPolicy(restartPolicy)
            .addContainersItem(new V1Container().name("main").image("busybox:1.36")));
  }

  @Test
  void objectsOfMoreKinds_comeBackAsTheStrictModelsExpect_withWhatTheServerSets() throws ApiException {
    String ns = "jcm-kinds";
    CoreV1Api core = new CoreV1Api(client);
    JavaClientTest.createNamespace(core, ns);

    V1Service service = core.createNamespacedService(ns, new V1Service().metadata(meta("web"))
        .spec(new V1ServiceSpec().selector(Map.of("app", "web"))
            .addPortsItem(new V1ServicePort().port(80).targetPort(new IntOrString(8080))))).execute();
    assertThat(service.getSpec().getPorts()).singleElement()
        .satisfies(p -> assertThat(p.getTargetPort().getIntValue()).isEqualTo(8080));
    V1Secret secret = core.createNamespacedSecret(ns, new V1Secret().metadata(meta("creds"))
        .stringData(Map.of("password", "s3cret"))).execute();
    assertThat(new String(secret.getData().get("password"), StandardCharsets.UTF_8))
        .isEqualTo("s3cret");
    assertThat(secret.getStringData()).as("stringData is write-only").isNullOrEmpty();
    V1Secret patchedSecret = PatchUtils.patch(V1Secret.class,
        () -> core.patchNamespacedSecret("creds", ns,
            new V1Patch("{\"stringData\":{\"password\":\"n3w\"}}")).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    assertThat(new String(patchedSecret.getData().get("password"), StandardCharsets.UTF_8))
        .isEqualTo("n3w");
    assertThat(core.createNamespacedServiceAccount(ns, new V1ServiceAccount().metadata(meta("robot"))).execute()
        .getMetadata().getUid()).isNotBlank();
    assertThat(core.createNamespacedEvent(ns, new CoreV1Event().metadata(meta("web.1"))
        .involvedObject(new V1ObjectReference().kind("Pod").name("web").namespace(ns))
        .reason("Started").message("started").type("Normal")).execute().getReason()).isEqualTo("Started");
    V1PersistentVolumeClaim claim = core.createNamespacedPersistentVolumeClaim(ns, new V1PersistentVolumeClaim()
        .metadata(meta("data")).spec(new V1PersistentVolumeClaimSpec().addAccessModesItem("ReadWriteOnce")
            .resources(new V1VolumeResourceRequirements().requests(Map.of("storage", new Quantity("1Gi"))))))
        .execute();
    assertThat(claim.getSpec().getResources().getRequests().get("storage").toSuffixedString()).isEqualTo("1Gi");
    V1PersistentVolume volume = core.createPersistentVolume(new V1PersistentVolume().metadata(meta("jcm-pv"))
        .spec(new V1PersistentVolumeSpec().addAccessModesItem("ReadWriteOnce")
            .capacity(Map.of("storage", new Quantity("1Gi")))
            .hostPath(new V1HostPathVolumeSource().path("/tmp/jcm-pv")))).execute();
    assertThat(volume.getStatus().getPhase()).isEqualTo("Pending");

    V1Job job = new BatchV1Api(client).createNamespacedJob(ns, new V1Job().metadata(meta("once"))
        .spec(new V1JobSpec().template(template("once", "Never")))).execute();
    assertThat(job.getSpec().getTemplate().getSpec().getContainers()).hasSize(1);
    V1CronJob cronJob = new BatchV1Api(client).createNamespacedCronJob(ns, new V1CronJob().metadata(meta("nightly"))
        .spec(new V1CronJobSpec().schedule("0 3 * * *").jobTemplate(new V1JobTemplateSpec()
            .spec(new V1JobSpec().template(template("nightly", "OnFailure")))))).execute();
    assertThat(cronJob.getSpec().getSchedule()).isEqualTo("0 3 * * *");
    V1StatefulSet statefulSet = new AppsV1Api(client).createNamespacedStatefulSet(ns, new V1StatefulSet()
        .metadata(meta("db")).spec(new V1StatefulSetSpec().serviceName("db").replicas(1)
            .selector(new V1LabelSelector().matchLabels(Map.of("app", "db"))).template(template("db", "Always"))))
        .execute();
    assertThat(statefulSet.getSpec().getServiceName()).isEqualTo("db");
    assertThat(new CoordinationV1Api(client).createNamespacedLease(ns, new V1Lease().metadata(meta("leader"))
        .spec(new V1LeaseSpec().holderIdentity("a").leaseDurationSeconds(15))).execute().getSpec()
        .getHolderIdentity()).isEqualTo("a");
    assertThat(new SchedulingV1Api(client).createPriorityClass(new V1PriorityClass().metadata(meta("jcm-high"))
        .value(1000)).execute().getValue()).isEqualTo(1000);

    // and read back through the lists of their kinds
    assertThat(core.listNamespacedService(ns).execute().getItems()).hasSize(1);
    assertThat(new BatchV1Api(client).listNamespacedJob(ns).execute().getItems()).hasSize(1);
    assertThat(new AppsV1Api(client).listNamespacedStatefulSet(ns).execute().getItems()).hasSize(1);
  }
}
