package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.listwatch.server.ApiServer;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.EndToEnd;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The fabric8 Kubernetes client (7.x, Vert.x HTTP backend) against the server: typed CRUD,
 * watches (fabric8 opens them as WebSockets; the tests check on the server that they really
 * run over WebSocket, as fabric8 would silently fall back to a plain HTTP watch on a 200 or
 * 503 answer), informers, and the 410 of a watch from a compacted resourceVersion. Each test
 * works in a namespace of its own on the class's shared server.
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS) // a backstop: every wait below is bounded more tightly
class Fabric8Test {

  /** How long to wait for an event, a watch start or an informer sync that the server should deliver at once. */
  private static final long WAIT_SECONDS = 10;

  private static ApiServer server;
  private static KubernetesClient client;

  @BeforeAll
  static void setUp(ApiServer s) {
    server = s;
    client = newClient(s.url());
  }

  @AfterAll
  static void tearDown() {
    if (client != null) {
      client.close();
    }
  }

  /** A client for a plain-HTTP server, with no kubeconfig, service account or env settings read. */
  static KubernetesClient newClient(String url) {
    Config config = new ConfigBuilder(Config.empty())
        .withMasterUrl(url)
        .withNamespace("default")
        .withRequestTimeout(10_000)
        .withConnectionTimeout(5_000)
        .withWatchReconnectInterval(100)
        .withRequestRetryBackoffLimit(0)
        .build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  static void createNamespace(KubernetesClient c, String name) {
    c.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
  }

  private static Pod pod(String name, Map<String, String> labels) {
    return new PodBuilder()
        .withNewMetadata().withName(name).withLabels(labels).endMetadata()
        .withNewSpec().withNodeName("node-1").addNewContainer().withName("main").withImage("nginx:1.27").endContainer()
        .endSpec()
        .build();
  }

  /** Reads the pod and writes it back (PUT, with its resourceVersion) with one more label. */
  private static Pod addLabel(KubernetesClient c, String namespace, String name, String key, String value) {
    Pod current = c.pods().inNamespace(namespace).withName(name).get();
    return c.pods().inNamespace(namespace)
        .resource(new PodBuilder(current).editMetadata().addToLabels(key, value).endMetadata().build())
        .update();
  }

  /**
   * Starts a watch, waiting at most {@link #WAIT_SECONDS}: fabric8's {@code watch()} itself
   * waits without a bound for the watch to start (its WebSocket handshake). A watch that
   * starts after the timeout is closed.
   */
  private static Watch startWatch(Supplier<Watch> watch) {
    CompletableFuture<Watch> started = CompletableFuture.supplyAsync(watch);
    try {
      return started.get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      started.thenAccept(Watch::close);
      throw new AssertionError("fabric8 watch() did not return within " + WAIT_SECONDS + " s: its WebSocket "
          + "handshake got no usable answer", e);
    } catch (ExecutionException e) {
      throw new AssertionError("fabric8 watch() failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
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
   * The server serves a watch on {@code path} over WebSocket right now. fabric8 returns from
   * {@code watch()} (and an informer from {@code start()}) once its WebSocket is open.
   */
  private static void assertServedOverWebSocket(String path) {
    assertThat(server.webSocketWatches()).as("watches served over WebSocket")
        .anySatisfy(p -> assertThat(p).startsWith(path + "?"));
  }

  @Test
  void create_returnsThePodWithServerSetMetadata() {
    createNamespace(client, "f8-create");

    Pod created = client.pods().inNamespace("f8-create").resource(pod("web", Map.of("app", "web"))).create();

    assertThat(created.getMetadata().getName()).isEqualTo("web");
    assertThat(created.getMetadata().getNamespace()).isEqualTo("f8-create");
    assertThat(created.getMetadata().getUid()).isNotBlank();
    assertThat(created.getMetadata().getResourceVersion()).isNotBlank();
    assertThat(created.getMetadata().getCreationTimestamp()).isNotBlank();
    assertThat(created.getSpec().getContainers()).extracting(c -> c.getImage()).containsExactly("nginx:1.27");
  }

  @Test
  void get_returnsThePod_andNullWhenMissing() {
    createNamespace(client, "f8-get");
    Pod created = client.pods().inNamespace("f8-get").resource(pod("web", Map.of("app", "web"))).create();

    Pod got = client.pods().inNamespace("f8-get").withName("web").get();
    Pod missing = client.pods().inNamespace("f8-get").withName("nope").get();

    assertThat(got.getMetadata().getUid()).isEqualTo(created.getMetadata().getUid());
    assertThat(got.getMetadata().getResourceVersion()).isEqualTo(created.getMetadata().getResourceVersion());
    assertThat(missing).isNull();
  }

  @Test
  void list_returnsPodsOfTheNamespace_filteredByLabelSelector() {
    createNamespace(client, "f8-list");
    client.pods().inNamespace("f8-list").resource(pod("web", Map.of("app", "web"))).create();
    client.pods().inNamespace("f8-list").resource(pod("db", Map.of("app", "db"))).create();

    PodList all = client.pods().inNamespace("f8-list").list();
    PodList web = client.pods().inNamespace("f8-list").withLabel("app", "web").list();
    PodList notDb = client.pods().inNamespace("f8-list").withLabelNotIn("app", "db").list();
    PodList none = client.pods().inNamespace("f8-list").withLabel("app", "cache").list();

    assertThat(all.getMetadata().getResourceVersion()).isNotBlank();
    assertThat(all.getItems()).extracting(p -> p.getMetadata().getName()).containsExactlyInAnyOrder("web", "db");
    assertThat(web.getItems()).extracting(p -> p.getMetadata().getName()).containsExactly("web");
    assertThat(notDb.getItems()).extracting(p -> p.getMetadata().getName()).containsExactly("web");
    assertThat(none.getItems()).isEmpty();
  }

  @Test
  void delete_removesThePod() {
    createNamespace(client, "f8-delete");
    client.pods().inNamespace("f8-delete").resource(pod("web", Map.of("app", "web"))).create();

    List<StatusDetails> deleted = client.pods().inNamespace("f8-delete").withName("web").withGracePeriod(0).delete();

    // a pod DELETE answers with the pod (kube's ReturnDeletedObject), which fabric8 turns into details
    assertThat(deleted).singleElement().satisfies(d -> {
      assertThat(d.getName()).isEqualTo("web");
      assertThat(d.getKind()).isEqualTo("Pod");
    });
    assertThat(client.pods().inNamespace("f8-delete").withName("web").get()).isNull();
    assertThat(client.pods().inNamespace("f8-delete").withName("web").withGracePeriod(0).delete()).isEmpty();
  }

  @Test
  void update_withCurrentResourceVersion_succeeds_andWithStaleOneConflicts() {
    createNamespace(client, "f8-update");
    Pod created = client.pods().inNamespace("f8-update").resource(pod("web", Map.of("app", "web"))).create();

    Pod updated = addLabel(client, "f8-update", "web", "tier", "frontend");
    KubernetesClientException stale = catchThrowableOfType(KubernetesClientException.class,
        () -> client.pods().inNamespace("f8-update")
            .resource(new PodBuilder(created).editMetadata().addToLabels("tier", "backend").endMetadata().build())
            .update());

    assertThat(updated.getMetadata().getLabels()).containsEntry("tier", "frontend");
    assertThat(Long.parseLong(updated.getMetadata().getResourceVersion()))
        .isGreaterThan(Long.parseLong(created.getMetadata().getResourceVersion()));
    assertThat(stale.getCode()).isEqualTo(409);
    assertThat(stale.getStatus().getReason()).isEqualTo("Conflict");
  }

  /** What a {@link Watcher} saw, in order. */
  private record Event(Watcher.Action action, Pod pod) {
    String describe() {
      return action + " " + pod.getMetadata().getName() + " " + pod.getMetadata().getLabels();
    }
  }

  private static final class QueueingWatcher implements Watcher<Pod> {
    final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    /** The exception onClose got, or a marker for a normal close. */
    final BlockingQueue<Object> closed = new LinkedBlockingQueue<>();
    static final Object NORMAL = new Object();

    @Override
    public void eventReceived(Action action, Pod pod) {
      events.add(new Event(action, pod));
    }

    @Override
    public void onClose(WatcherException cause) {
      closed.add(cause);
    }

    @Override
    public void onClose() {
      closed.add(NORMAL);
    }
  }

  @Test
  void watch_runsOverWebSocket_andDeliversAddedModifiedDeleted() {
    createNamespace(client, "f8-watch");
    String listRv = client.pods().inNamespace("f8-watch").list().getMetadata().getResourceVersion();
    QueueingWatcher watcher = new QueueingWatcher();

    try (Watch ignored = startWatch(() ->
        client.pods().inNamespace("f8-watch").withResourceVersion(listRv).watch(watcher))) {
      assertServedOverWebSocket("/api/v1/namespaces/f8-watch/pods");
      Pod created = client.pods().inNamespace("f8-watch").resource(pod("web", Map.of("app", "web"))).create();
      addLabel(client, "f8-watch", "web", "tier", "frontend");
      client.pods().inNamespace("f8-watch").withName("web").withGracePeriod(0).delete();

      Event added = poll(watcher.events, "ADDED event");
      Event modified = poll(watcher.events, "MODIFIED event");
      Event deleted = poll(watcher.events, "DELETED event");
      assertThat(List.of(added, modified, deleted)).extracting(Event::action)
          .as("%s", List.of(added.describe(), modified.describe(), deleted.describe()))
          .containsExactly(Watcher.Action.ADDED, Watcher.Action.MODIFIED, Watcher.Action.DELETED);
      assertThat(added.pod().getMetadata().getUid()).isEqualTo(created.getMetadata().getUid());
      assertThat(modified.pod().getMetadata().getLabels()).containsEntry("tier", "frontend");
      assertThat(deleted.pod().getMetadata().getName()).isEqualTo("web");
      assertThat(Long.parseLong(deleted.pod().getMetadata().getResourceVersion()))
          .isGreaterThan(Long.parseLong(modified.pod().getMetadata().getResourceVersion()));
      assertThat(watcher.closed).as("the watch must still be open").isEmpty();
    }
  }

  @Test
  void watch_withoutResourceVersion_startsWithTheCurrentPods() {
    createNamespace(client, "f8-watch-current");
    client.pods().inNamespace("f8-watch-current").resource(pod("web", Map.of("app", "web"))).create();
    client.pods().inNamespace("f8-watch-current").resource(pod("db", Map.of("app", "db"))).create();
    QueueingWatcher watcher = new QueueingWatcher();

    try (Watch ignored = startWatch(() ->
        client.pods().inNamespace("f8-watch-current").withLabel("app", "web").watch(watcher))) {
      Event first = poll(watcher.events, "synthetic ADDED event");
      assertThat(first.describe()).isEqualTo("ADDED web {app=web}");

      client.pods().inNamespace("f8-watch-current").resource(pod("web2", Map.of("app", "web"))).create();
      assertThat(poll(watcher.events, "ADDED event for web2").describe()).isEqualTo("ADDED web2 {app=web}");
    }
  }

  @Test
  void informer_syncsExistingPods_andSeesAddsUpdatesAndDeletes() throws Exception {
    createNamespace(client, "f8-informer");
    client.pods().inNamespace("f8-informer").resource(pod("existing", Map.of("app", "web"))).create();
    BlockingQueue<String> seen = new LinkedBlockingQueue<>();
    ResourceEventHandler<Pod> handler = new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod pod) {
        seen.add("add " + pod.getMetadata().getName());
      }

      @Override
      public void onUpdate(Pod oldPod, Pod newPod) {
        if (!oldPod.getMetadata().getResourceVersion().equals(newPod.getMetadata().getResourceVersion())) {
          seen.add("update " + newPod.getMetadata().getName() + " " + newPod.getMetadata().getLabels());
        }
      }

      @Override
      public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
        seen.add("delete " + pod.getMetadata().getName() + (deletedFinalStateUnknown ? " (final state unknown)" : ""));
      }
    };

    SharedIndexInformer<Pod> informer = client.pods().inNamespace("f8-informer").runnableInformer(0);
    try {
      informer.addEventHandler(handler);
      try {
        // fabric8 completes start() once the initial list is stored and the watch has started
        informer.start().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        throw new AssertionError("the informer did not sync and start its watch within " + WAIT_SECONDS + " s", e);
      }

      assertThat(informer.hasSynced()).isTrue();
      assertServedOverWebSocket("/api/v1/namespaces/f8-informer/pods");
      assertThat(informer.getStore().list()).extracting(p -> p.getMetadata().getName()).containsExactly("existing");
      assertThat(poll(seen, "add from the initial list")).isEqualTo("add existing");

      client.pods().inNamespace("f8-informer").resource(pod("added", Map.of("app", "db"))).create();
      assertThat(poll(seen, "add from the watch")).isEqualTo("add added");

      addLabel(client, "f8-informer", "existing", "tier", "frontend");
      assertThat(poll(seen, "update")).isEqualTo("update existing {app=web, tier=frontend}");

      client.pods().inNamespace("f8-informer").withName("added").withGracePeriod(0).delete();
      assertThat(poll(seen, "delete")).isEqualTo("delete added");

      assertThat(informer.getStore().list()).extracting(p -> p.getMetadata().getName()).containsExactly("existing");
      assertThat(informer.getStore().getByKey("f8-informer/existing").getMetadata().getLabels())
          .containsEntry("tier", "frontend");
    } finally {
      informer.close();
    }
  }

  @Test
  void watch_fromACompactedResourceVersion_closesWithHttpGone() {
    CacherConfig tinyHistory = new CacherConfig(10, Duration.ofMinutes(5), 1024, Duration.ofMinutes(1),
        Duration.ofSeconds(3));
    try (ApiServer server = ApiServer.builder().cacherConfig(tinyHistory).build().start();
        KubernetesClient c = newClient(server.url())) {
      createNamespace(c, "f8-gone");
      String oldRv = c.pods().inNamespace("f8-gone").resource(pod("web", Map.of("app", "web"))).create()
          .getMetadata().getResourceVersion();
      for (int i = 0; i < 15; i++) {
        addLabel(c, "f8-gone", "web", "n", Integer.toString(i));
      }
      QueueingWatcher watcher = new QueueingWatcher();

      try (Watch ignored = startWatch(() ->
          c.pods().inNamespace("f8-gone").withResourceVersion(oldRv).watch(watcher))) {
        Object closed = poll(watcher.closed, "onClose");
        assertThat(closed).as("onClose(WatcherException), not a normal close")
            .isInstanceOf(WatcherException.class);
        WatcherException e = (WatcherException) closed;
        assertThat(e.isHttpGone()).as("isHttpGone of %s", e).isTrue();
        assertThat(e.asClientException().getCode()).isEqualTo(410);
        assertThat(watcher.events).as("no events from a watch that starts too far back").isEmpty();
      }
    }
  }
}
