package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Status;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The official Kubernetes Java client ({@code io.kubernetes:client-java}) against the server:
 * create, read, list with selectors, replace and delete through its typed APIs. Its generated
 * models are strict: a response with a field kube's model lacks, or without a field it
 * requires, throws while parsing, so every call here also checks that the server emits only
 * what kube would. Each test works in a namespace of its own on the class's shared server.
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JavaClientTest {

  private static ApiClient client;
  private static CoreV1Api core;
  private static AppsV1Api apps;

  @BeforeAll
  static void setUp(ApiServer server) {
    client = newClient(server.url());
    core = new CoreV1Api(client);
    apps = new AppsV1Api(client);
  }

  /**
   * A client for a plain-HTTP server, built on its URL alone (no kubeconfig or in-cluster
   * settings read). OkHttp's read timeout is off so that a watch waits for events as long as
   * the server keeps it open; calls are bounded by the tests' timeouts.
   */
  static ApiClient newClient(String url) {
    ApiClient c = new ApiClient().setBasePath(url);
    c.setHttpClient(c.getHttpClient().newBuilder()
        .connectTimeout(Duration.ofSeconds(5))
        .readTimeout(Duration.ZERO)
        .build());
    return c;
  }

  static V1Namespace createNamespace(CoreV1Api api, String name) throws ApiException {
    return api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name))).execute();
  }

  /** The Status an error response carries, parsed with the client's strict model. */
  static V1Status status(ApiException e) {
    return JSON.deserialize(e.getResponseBody(), V1Status.class);
  }

  static V1Pod pod(String name, Map<String, String> labels, String node) {
    return new V1Pod()
        .metadata(new V1ObjectMeta().name(name).labels(labels))
        .spec(new V1PodSpec().nodeName(node).addContainersItem(new V1Container().name("main").image("nginx:1.27")));
  }

  /** A deployment {@code name} with two containers, {@code app} (nginx:1.26) and {@code sidecar} (busybox:1.36). */
  static V1Deployment deployment(String name) {
    Map<String, String> labels = Map.of("app", name);
    return new V1Deployment()
        .metadata(new V1ObjectMeta().name(name).labels(labels))
        .spec(new V1DeploymentSpec()
            .replicas(1)
            .selector(new V1LabelSelector().matchLabels(labels))
            .template(new V1PodTemplateSpec()
                .metadata(new V1ObjectMeta().labels(labels))
                .spec(new V1PodSpec()
                    .addContainersItem(new V1Container().name("app").image("nginx:1.26"))
                    .addContainersItem(new V1Container().name("sidecar").image("busybox:1.36")))));
  }

  /** A read that may fail: what {@link #awaitNotFound} polls. */
  interface Read<T> {
    T read() throws ApiException;
  }

  /**
   * Reads until the object is gone (404 NotFound with a kube Status), at most 10 s, checking
   * each version read before that with {@code whileThere}.
   */
  static <T> void awaitNotFound(Read<T> read, Consumer<T> whileThere) {
    ApiException gone = Await.until("the object is gone", Duration.ofSeconds(10), () -> {
      try {
        whileThere.accept(read.read());
        return null;
      } catch (ApiException e) {
        return e;
      }
    }, Objects::nonNull);
    assertThat(gone.getCode()).isEqualTo(404);
    assertThat(status(gone).getReason()).isEqualTo("NotFound");
  }

  private static List<String> names(List<? extends KubernetesObject> objects) {
    return objects.stream().map(o -> o.getMetadata().getName()).toList();
  }

  @Test
  void namespace_createReadListDelete_throughStrictModels() throws ApiException {
    V1Namespace created = core.createNamespace(new V1Namespace()
        .metadata(new V1ObjectMeta().name("jc-ns").labels(Map.of("team", "jc")))).execute();

    assertThat(created.getMetadata().getUid()).isNotBlank();
    assertThat(created.getMetadata().getResourceVersion()).isNotBlank();
    assertThat(created.getStatus().getPhase()).isEqualTo("Active");
    assertThat(core.readNamespace("jc-ns").execute().getMetadata().getUid())
        .isEqualTo(created.getMetadata().getUid());
    assertThat(names(core.listNamespace().labelSelector("team=jc").execute().getItems())).containsExactly("jc-ns");
    assertThat(names(core.listNamespace().fieldSelector("metadata.name=jc-ns").execute().getItems()))
        .containsExactly("jc-ns");

    // kube answers the first DELETE of a namespace with the namespace itself (now Terminating),
    // where the client's generated API declares a V1Status: the call must still succeed
    core.deleteNamespace("jc-ns").execute();

    awaitNotFound(() -> core.readNamespace("jc-ns").execute(), ns -> assertThat(ns.getStatus().getPhase())
        .as("phase of the namespace while it is emptied").isEqualTo("Terminating"));
  }

  @Test
  void pod_create_returnsThePodWithServerSetMetadata_andReadReturnsTheSame() throws ApiException {
    createNamespace(core, "jc-pod-create");

    V1Pod created = core.createNamespacedPod("jc-pod-create", pod("web", Map.of("app", "web"), "node-1")).execute();
    V1Pod read = core.readNamespacedPod("web", "jc-pod-create").execute();

    assertThat(created.getApiVersion()).isEqualTo("v1");
    assertThat(created.getKind()).isEqualTo("Pod");
    assertThat(created.getMetadata().getNamespace()).isEqualTo("jc-pod-create");
    assertThat(created.getMetadata().getUid()).isNotBlank();
    assertThat(created.getMetadata().getCreationTimestamp()).isNotNull();
    assertThat(read.getMetadata().getResourceVersion()).isEqualTo(created.getMetadata().getResourceVersion());
    assertThat(read.getSpec().getContainers()).extracting(V1Container::getImage).containsExactly("nginx:1.27");
  }

  @Test
  void pod_list_filtersByLabelAndFieldSelectors() throws ApiException {
    String ns = "jc-pod-list";
    createNamespace(core, ns);
    core.createNamespacedPod(ns, pod("a1", Map.of("app", "a", "tier", "front"), "node-1")).execute();
    core.createNamespacedPod(ns, pod("a2", Map.of("app", "a", "tier", "back"), "node-2")).execute();
    core.createNamespacedPod(ns, pod("b1", Map.of("app", "b"), "node-1")).execute();

    assertThat(names(core.listNamespacedPod(ns).execute().getItems())).containsExactly("a1", "a2", "b1");
    assertThat(names(core.listNamespacedPod(ns).labelSelector("app=a").execute().getItems()))
        .containsExactly("a1", "a2");
    assertThat(names(core.listNamespacedPod(ns).labelSelector("app in (a,b),tier!=back").execute().getItems()))
        .containsExactly("a1", "b1");
    assertThat(names(core.listNamespacedPod(ns).fieldSelector("spec.nodeName=node-1").execute().getItems()))
        .containsExactly("a1", "b1");
    assertThat(names(core.listNamespacedPod(ns).labelSelector("app=a").fieldSelector("spec.nodeName=node-2")
        .execute().getItems())).containsExactly("a2");
    assertThat(names(core.listPodForAllNamespaces().fieldSelector("metadata.namespace=" + ns + ",metadata.name=b1")
        .execute().getItems())).containsExactly("b1");
  }

  @Test
  void pod_list_inPages_withLimitAndContinue() throws ApiException {
    String ns = "jc-pod-pages";
    createNamespace(core, ns);
    for (String name : List.of("p1", "p2", "p3")) {
      core.createNamespacedPod(ns, pod(name, Map.of("app", "web"), "node-1")).execute();
    }

    V1PodList first = core.listNamespacedPod(ns).limit(2).execute();
    V1PodList second = core.listNamespacedPod(ns).limit(2)._continue(first.getMetadata().getContinue()).execute();

    assertThat(names(first.getItems())).containsExactly("p1", "p2");
    assertThat(first.getMetadata().getRemainingItemCount()).isEqualTo(1);
    assertThat(names(second.getItems())).containsExactly("p3");
    assertThat(second.getMetadata().getContinue()).isNullOrEmpty();
    assertThat(second.getMetadata().getResourceVersion()).isEqualTo(first.getMetadata().getResourceVersion());
  }

  @Test
  void pod_deleteCollection_withALabelSelector_deletesOnlyTheMatchingPods() throws ApiException {
    String ns = "jc-pod-deletecollection";
    createNamespace(core, ns);
    core.createNamespacedPod(ns, pod("a1", Map.of("app", "a"), "node-1")).execute();
    core.createNamespacedPod(ns, pod("a2", Map.of("app", "a"), "node-1")).execute();
    core.createNamespacedPod(ns, pod("b1", Map.of("app", "b"), "node-1")).execute();

    core.deleteCollectionNamespacedPod(ns).labelSelector("app=a").gracePeriodSeconds(0).execute();

    assertThat(names(core.listNamespacedPod(ns).execute().getItems())).containsExactly("b1");
  }

  @Test
  void pod_replace_withCurrentResourceVersion_succeeds_andWithAStaleOne_is409Conflict() throws ApiException {
    String ns = "jc-pod-replace";
    createNamespace(core, ns);
    V1Pod created = core.createNamespacedPod(ns, pod("web", Map.of("app", "web"), "node-1")).execute();

    V1Pod current = core.readNamespacedPod("web", ns).execute();
    current.getMetadata().putLabelsItem("tier", "front");
    V1Pod replaced = core.replaceNamespacedPod("web", ns, current).execute();

    assertThat(replaced.getMetadata().getLabels()).containsEntry("tier", "front");
    assertThat(replaced.getMetadata().getResourceVersion()).isNotEqualTo(created.getMetadata().getResourceVersion());

    created.getMetadata().putLabelsItem("tier", "back"); // still carries the first resourceVersion
    ApiException e = catchThrowableOfType(ApiException.class,
        () -> core.replaceNamespacedPod("web", ns, created).execute());

    assertThat(e.getCode()).isEqualTo(409);
    V1Status status = status(e);
    assertThat(status.getReason()).isEqualTo("Conflict");
    assertThat(status.getCode()).isEqualTo(409);
    assertThat(status.getDetails().getName()).isEqualTo("web");
    assertThat(status.getDetails().getKind()).isEqualTo("pods");
    assertThat(core.readNamespacedPod("web", ns).execute().getMetadata().getLabels()).containsEntry("tier", "front");
  }

  @Test
  void pod_delete_returnsThePod_andAReadThenIs404NotFound() throws ApiException {
    String ns = "jc-pod-delete";
    createNamespace(core, ns);
    V1Pod created = core.createNamespacedPod(ns, pod("web", Map.of("app", "web"), "node-1")).execute();

    V1Pod deleted = core.deleteNamespacedPod("web", ns).gracePeriodSeconds(0).execute();

    assertThat(deleted.getMetadata().getUid()).isEqualTo(created.getMetadata().getUid());
    ApiException e = catchThrowableOfType(ApiException.class, () -> core.readNamespacedPod("web", ns).execute());
    assertThat(e.getCode()).isEqualTo(404);
    assertThat(status(e).getReason()).isEqualTo("NotFound");
    assertThat(core.listNamespacedPod(ns).execute().getItems()).isEmpty();
  }

  @Test
  void read_ofAMissingPod_is404_withAKubeStatusBody() throws ApiException {
    createNamespace(core, "jc-missing");

    ApiException e = catchThrowableOfType(ApiException.class,
        () -> core.readNamespacedPod("nothing-here", "jc-missing").execute());

    assertThat(e.getCode()).isEqualTo(404);
    V1Status status = status(e);
    assertThat(status.getKind()).isEqualTo("Status");
    assertThat(status.getStatus()).isEqualTo("Failure");
    assertThat(status.getReason()).isEqualTo("NotFound");
    assertThat(status.getCode()).isEqualTo(404);
    assertThat(status.getMessage()).isEqualTo("pods \"nothing-here\" not found");
    assertThat(status.getDetails().getName()).isEqualTo("nothing-here");
    assertThat(status.getDetails().getKind()).isEqualTo("pods");
  }

  @Test
  void deployment_createReadListReplaceDelete() throws ApiException {
    String ns = "jc-deploy";
    createNamespace(core, ns);
    V1Deployment created = apps.createNamespacedDeployment(ns, deployment("web")).execute();
    apps.createNamespacedDeployment(ns, deployment("api")).execute();

    assertThat(created.getKind()).isEqualTo("Deployment");
    assertThat(created.getApiVersion()).isEqualTo("apps/v1");
    assertThat(apps.readNamespacedDeployment("web", ns).execute().getSpec().getTemplate().getSpec().getContainers())
        .extracting(V1Container::getName).containsExactly("app", "sidecar");
    assertThat(names(apps.listNamespacedDeployment(ns).labelSelector("app=web").execute().getItems()))
        .containsExactly("web");
    assertThat(names(apps.listNamespacedDeployment(ns).fieldSelector("metadata.name=api").execute().getItems()))
        .containsExactly("api");

    V1Deployment current = apps.readNamespacedDeployment("web", ns).execute();
    current.getSpec().setReplicas(3);
    assertThat(apps.replaceNamespacedDeployment("web", ns, current).execute().getSpec().getReplicas()).isEqualTo(3);

    created.getSpec().setReplicas(5);
    ApiException stale = catchThrowableOfType(ApiException.class,
        () -> apps.replaceNamespacedDeployment("web", ns, created).execute());
    assertThat(stale.getCode()).isEqualTo(409);
    assertThat(status(stale).getReason()).isEqualTo("Conflict");
    assertThat(apps.readNamespacedDeployment("web", ns).execute().getSpec().getReplicas()).isEqualTo(3);

    V1Status deleted = apps.deleteNamespacedDeployment("web", ns).execute();
    assertThat(deleted.getStatus()).isEqualTo("Success");
    assertThat(deleted.getDetails().getName()).isEqualTo("web");
    assertThat(deleted.getDetails().getUid()).isEqualTo(created.getMetadata().getUid());
    assertThat(names(apps.listNamespacedDeployment(ns).execute().getItems())).containsExactly("api");
  }

  @Test
  void configMap_createReadListReplaceDelete() throws ApiException {
    String ns = "jc-cm";
    createNamespace(core, ns);
    V1ConfigMap created = core.createNamespacedConfigMap(ns, new V1ConfigMap()
        .metadata(new V1ObjectMeta().name("settings").labels(Map.of("app", "web")))
        .data(Map.of("mode", "prod"))).execute();
    core.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(new V1ObjectMeta().name("other"))).execute();

    assertThat(core.readNamespacedConfigMap("settings", ns).execute().getData()).containsExactly(Map.entry("mode", "prod"));
    assertThat(names(core.listNamespacedConfigMap(ns).labelSelector("app=web").execute().getItems()))
        .containsExactly("settings");
    assertThat(names(core.listNamespacedConfigMap(ns).fieldSelector("metadata.name!=settings").execute().getItems()))
        .containsExactly("other");

    V1ConfigMap current = core.readNamespacedConfigMap("settings", ns).execute();
    current.putDataItem("level", "debug");
    assertThat(core.replaceNamespacedConfigMap("settings", ns, current).execute().getData())
        .containsEntry("level", "debug").containsEntry("mode", "prod");

    created.putDataItem("mode", "test");
    ApiException stale = catchThrowableOfType(ApiException.class,
        () -> core.replaceNamespacedConfigMap("settings", ns, created).execute());
    assertThat(stale.getCode()).isEqualTo(409);
    assertThat(status(stale).getReason()).isEqualTo("Conflict");

    V1Status deleted = core.deleteNamespacedConfigMap("settings", ns).execute();
    assertThat(deleted.getStatus()).isEqualTo("Success");
    assertThat(deleted.getDetails().getKind()).isEqualTo("configmaps");
    ApiException gone = catchThrowableOfType(ApiException.class,
        () -> core.readNamespacedConfigMap("settings", ns).execute());
    assertThat(gone.getCode()).isEqualTo(404);
    assertThat(status(gone).getReason()).isEqualTo("NotFound");
  }
}
