package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.AuthenticationV1Api;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreApi;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.DiscoveryV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.apis.NetworkingV1Api;
import io.kubernetes.client.openapi.apis.PolicyV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.apis.SchedulingV1Api;
import io.kubernetes.client.openapi.apis.StorageV1Api;
import io.kubernetes.client.openapi.apis.VersionApi;
import io.kubernetes.client.openapi.models.V1APIGroup;
import io.kubernetes.client.openapi.models.V1APIResource;
import io.kubernetes.client.openapi.models.V1APIResourceList;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReviewSpec;
import io.kubernetes.client.openapi.models.V1SelfSubjectReview;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
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

  @Test
  void discovery_andVersion_parse() throws ApiException {
    assertThat(new VersionApi(client).getCode().execute().getMajor()).isEqualTo("1");
    assertThat(new CoreApi(client).getAPIVersions().execute().getVersions()).containsExactly("v1");
    List<String> groups = new io.kubernetes.client.openapi.apis.ApisApi(client).getAPIVersions().execute()
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
    lists.put("endpointslices", () -> new DiscoveryV1Api(client).listEndpointSliceForAllNamespaces().execute());
    lists.put("events.k8s.io", () -> new EventsV1Api(client).listEventForAllNamespaces().execute());
    lists.put("priorityclasses", () -> new SchedulingV1Api(client).listPriorityClass().execute());
    lists.put("leases", () -> new CoordinationV1Api(client).listLeaseForAllNamespaces().execute());
    lists.put("clusterroles", () -> rbac.listClusterRole().execute());
    lists.put("clusterrolebindings", () -> rbac.listClusterRoleBinding().execute());
    lists.put("roles", () -> rbac.listRoleForAllNamespaces().execute());
    lists.put("rolebindings", () -> rbac.listRoleBindingForAllNamespaces().execute());

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
}
