package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentList;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.PatchUtils;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Informers of the official Java client ({@code SharedInformerFactory}) against the server:
 * they list, sync, then follow a watch whose events its strict models parse; their handlers
 * see the adds, updates and deletes made through the API, and their listers serve the cache.
 * An error the informer meets (a list or watch that fails, or an event its model rejects) is
 * recorded by its exception handler and fails the test: the client would only log it and
 * retry.
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JavaClientInformerTest {

  /** How long to wait for a sync or an event that the server should deliver at once. */
  private static final long WAIT_SECONDS = 10;

  private static ApiClient client;
  /** The path and query of every GET the client sent, in order. */
  private static final Queue<String> gets = new ConcurrentLinkedQueue<>();
  private static CoreV1Api core;
  private static AppsV1Api apps;

  private SharedInformerFactory factory;
  private final Queue<Throwable> informerErrors = new ConcurrentLinkedQueue<>();

  @BeforeAll
  static void setUp(ApiServer server) {
    client = JavaClientTest.newClient(server.url());
    client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(chain -> {
      if (chain.request().method().equals("GET")) {
        gets.add(chain.request().url().encodedPath() + "?" + chain.request().url().encodedQuery());
      }
      return chain.proceed(chain.request());
    }).build());
    core = new CoreV1Api(client);
    apps = new AppsV1Api(client);
  }

  @BeforeEach
  void newFactory() {
    factory = new SharedInformerFactory(client);
  }

  @AfterEach
  void stopFactory() {
    // taken before the stop: a watch the stop closes may report "closed" on its way out
    List<Throwable> metWhileRunning = List.copyOf(informerErrors);
    factory.stopAllRegisteredInformers(true);
    assertThat(metWhileRunning).as("errors the informers met").isEmpty();
  }

  /** What a handler saw, one line per call: {@code ADD name}, {@code UPDATE name}, {@code DELETE name}. */
  private static <T extends KubernetesObject> ResourceEventHandler<T> recordTo(BlockingQueue<String> events,
      BlockingQueue<T> updates) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        events.add("ADD " + obj.getMetadata().getName());
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        events.add("UPDATE " + newObj.getMetadata().getName());
        updates.add(newObj);
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        events.add("DELETE " + obj.getMetadata().getName() + (deletedFinalStateUnknown ? " (final state unknown)" : ""));
      }
    };
  }

  private static <T> T poll(BlockingQueue<T> queue, String what) {
    try {
      T item = queue.poll(WAIT_SECONDS, TimeUnit.SECONDS);
      if (item == null) {
        fail("no %s within %d s", what, WAIT_SECONDS);
      }
      return item;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /**
   * The informer on {@code path} listed once and watched once: its watch was never broken off,
   * which would make it list again (and hide lost events behind a relist).
   */
  private static void assertListedAndWatchedOnce(String path) {
    List<String> informerGets = gets.stream().filter(g -> g.startsWith(path + "?")).toList();
    assertThat(informerGets).as("the informer's requests").hasSize(2);
    assertThat(informerGets.get(0)).doesNotContain("watch=true");
    assertThat(informerGets.get(1)).contains("watch=true");
  }

  private static List<String> names(List<? extends KubernetesObject> objects) {
    return objects.stream().map(o -> o.getMetadata().getName()).sorted().toList();
  }

  @Test
  void podInformer_syncsTheExistingPods_thenSeesAddUpdateDelete_andItsListerServesTheCache() throws ApiException {
    String ns = "jci-pods";
    JavaClientTest.createNamespace(core, ns);
    core.createNamespacedPod(ns, JavaClientTest.pod("a", Map.of("app", "web"), "node-1")).execute();
    core.createNamespacedPod(ns, JavaClientTest.pod("b", Map.of("app", "web"), "node-2")).execute();
    SharedIndexInformer<V1Pod> informer = factory.sharedIndexInformerFor(
        params -> core.listNamespacedPod(ns)
            .resourceVersion(params.resourceVersion)
            .timeoutSeconds(params.timeoutSeconds)
            .watch(params.watch)
            .buildCall(null),
        V1Pod.class, V1PodList.class, 0, (type, error) -> informerErrors.add(error));
    BlockingQueue<String> events = new LinkedBlockingQueue<>();
    BlockingQueue<V1Pod> updates = new LinkedBlockingQueue<>();
    informer.addEventHandler(recordTo(events, updates));
    Lister<V1Pod> lister = new Lister<>(informer.getIndexer()).namespace(ns);

    factory.startAllRegisteredInformers();

    Await.until("the informer has synced", Duration.ofSeconds(WAIT_SECONDS), informer::hasSynced);
    assertThat(names(lister.list())).containsExactly("a", "b");
    assertThat(List.of(poll(events, "add of a listed pod"), poll(events, "add of a listed pod")))
        .containsExactlyInAnyOrder("ADD a", "ADD b");

    core.createNamespacedPod(ns, JavaClientTest.pod("c", Map.of("app", "web"), "node-1")).execute();
    assertThat(poll(events, "add of c")).isEqualTo("ADD c");
    assertThat(lister.get("c")).isNotNull();

    V1Pod labelled = PatchUtils.patch(V1Pod.class,
        () -> core.patchNamespacedPod("c", ns, new V1Patch("{\"metadata\":{\"labels\":{\"tier\":\"front\"}}}"))
            .buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    assertThat(poll(events, "update of c")).isEqualTo("UPDATE c");
    V1Pod updated = poll(updates, "updated c");
    assertThat(updated.getMetadata().getLabels()).containsEntry("tier", "front");
    assertThat(updated.getMetadata().getResourceVersion()).isEqualTo(labelled.getMetadata().getResourceVersion());
    assertThat(lister.get("c").getMetadata().getLabels()).containsEntry("tier", "front");

    core.deleteNamespacedPod("a", ns).gracePeriodSeconds(0).execute();
    assertThat(poll(events, "delete of a")).isEqualTo("DELETE a");
    assertThat(names(lister.list())).containsExactly("b", "c");
    assertThat(events).as("no other events").isEmpty();
    assertListedAndWatchedOnce("/api/v1/namespaces/" + ns + "/pods");
  }

  @Test
  void deploymentInformer_acrossNamespaces_seesAddUpdateDelete() throws ApiException {
    String ns = "jci-deploy";
    String other = "jci-deploy-other";
    JavaClientTest.createNamespace(core, ns);
    JavaClientTest.createNamespace(core, other);
    apps.createNamespacedDeployment(ns, JavaClientTest.deployment("web")).execute();
    apps.createNamespacedDeployment(other, JavaClientTest.deployment("web")).execute();
    SharedIndexInformer<V1Deployment> informer = factory.sharedIndexInformerFor(
        params -> apps.listDeploymentForAllNamespaces()
            .resourceVersion(params.resourceVersion)
            .timeoutSeconds(params.timeoutSeconds)
            .watch(params.watch)
            .buildCall(null),
        V1Deployment.class, V1DeploymentList.class, 0, (type, error) -> informerErrors.add(error));
    BlockingQueue<String> events = new LinkedBlockingQueue<>();
    BlockingQueue<V1Deployment> updates = new LinkedBlockingQueue<>();
    informer.addEventHandler(recordTo(events, updates));
    Lister<V1Deployment> lister = new Lister<>(informer.getIndexer());

    factory.startAllRegisteredInformers();

    Await.until("the informer has synced", Duration.ofSeconds(WAIT_SECONDS), informer::hasSynced);
    assertThat(lister.namespace(ns).get("web")).isNotNull();
    assertThat(lister.namespace(other).get("web")).isNotNull();
    assertThat(List.of(poll(events, "add"), poll(events, "add"))).containsExactly("ADD web", "ADD web");

    apps.createNamespacedDeployment(ns, JavaClientTest.deployment("api")).execute();
    assertThat(poll(events, "add of api")).isEqualTo("ADD api");

    PatchUtils.patch(V1Deployment.class,
        () -> apps.patchNamespacedDeployment("web", ns, new V1Patch("""
            {"spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"app","image":"nginx:1.27"}]}}}}"""))
            .buildCall(null),
        V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, client);
    assertThat(poll(events, "update of web")).isEqualTo("UPDATE web");
    V1Deployment updated = poll(updates, "updated web");
    assertThat(updated.getMetadata().getNamespace()).isEqualTo(ns);
    assertThat(updated.getSpec().getReplicas()).isEqualTo(3);
    assertThat(updated.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo("nginx:1.27");
    assertThat(lister.namespace(ns).get("web").getSpec().getReplicas()).isEqualTo(3);
    assertThat(lister.namespace(other).get("web").getSpec().getReplicas()).isEqualTo(1);

    apps.deleteNamespacedDeployment("web", other).execute();
    assertThat(poll(events, "delete of web")).isEqualTo("DELETE web");
    assertThat(lister.namespace(other).get("web")).isNull();
    assertThat(names(lister.namespace(ns).list())).containsExactly("api", "web");
    assertListedAndWatchedOnce("/apis/apps/v1/deployments");
  }
}
