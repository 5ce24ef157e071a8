package io.listwatch.client.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.ListOptions;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.ReflectorListener;
import io.listwatch.client.internal.HttpKubeClient;
import io.listwatch.client.cache.SharedIndexInformer;
import io.listwatch.client.cache.SharedInformerFactory;
import io.listwatch.server.ApiServer;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.ThreadDump;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The informer recovers from what goes wrong between it and the server: a restart, a
 * resourceVersion compacted away while it was disconnected, and a connection that dies
 * silently.
 */
@Timeout(120)
class InformerRecoveryTest {

  private static final Duration WAIT = Duration.ofSeconds(60);

  /** Records the reflector's lists and watches as "LIST rv reason" / "WATCH rv reason". */
  private static final class Activity implements ReflectorListener {
    final List<String> lines = new CopyOnWriteArrayList<>();

    @Override
    public void onList(String resourceVersion, String reason) {
      lines.add("LIST " + resourceVersion + " " + reason);
    }

    @Override
    public void onListed(String resourceVersion, int items) {
      lines.add("LISTED " + resourceVersion + " " + items);
    }

    @Override
    public void onWatch(String resourceVersion, String reason) {
      lines.add("WATCH " + resourceVersion + " " + reason);
    }
  }

  private static Set<String> serverKeys(ResourceClient<DynamicObject> pods, String ns) {
    return pods.list(ns, ListOptions.builder().build()).items().stream()
        .map(p -> p.namespace() + "/" + p.name()).collect(Collectors.toSet());
  }

  /**
   * Waits (bounded) for the factory's informers to sync; if they do not, fails with what the
   * reflector did, how many connections the proxy took, and every thread's stack (this wait
   * once failed in CI: through the proxy, the JDK client now and then loses an upgraded h2c
   * response's body, which the client's StalledBodyGuard now ends after the request timeout).
   */
  private static void assertSynced(SharedInformerFactory factory, Activity activity, TcpProxy proxy)
      throws InterruptedException {
    boolean synced = factory.waitForCacheSync(WAIT);
    assertThat(synced).as("synced within %s; reflector did %s; proxy accepted %s connections; threads:%n%s",
        WAIT, activity.lines, proxy.accepted(), synced ? "-" : ThreadDump.now()).isTrue();
  }

  /** Waits (bounded) until the informer's store holds exactly {@code expected}; returns its keys then. */
  private static Set<String> converged(SharedIndexInformer<DynamicObject> informer, Set<String> expected) {
    return Await.until("the informer converges to the server's " + expected.size() + " pods", WAIT,
        () -> new HashSet<>(informer.getStore().listKeys()), expected::equals);
  }

  @Test
  void serverRestartMidWatch_informerConvergesToTheServersState(@TempDir Path dataDir) throws Exception {
    ApiServer first = ApiServer.builder().dataDir(dataDir).build().start();
    int port = first.port();
    try (KubeClient client = KubeClient.create(Config.forUrl(first.url()))) {
      client.dynamic(ResourceType.NAMESPACES).create(Pods.namespace("r"));
      Pods.createMany(client, "r", "p", 20);
      try (SharedInformerFactory factory = SharedInformerFactory.builder(client).namespace("r").build()) {
        SharedIndexInformer<DynamicObject> informer = factory.informerFor(ResourceType.PODS, DynamicObject.CODEC);
        Recorder<DynamicObject> recorder = new Recorder<>(DynamicObject.CODEC);
        informer.addEventHandler(recorder);
        factory.start();
        assertThat(factory.waitForCacheSync(WAIT)).isTrue();

        first.close();
        try (ApiServer second = ApiServer.builder().dataDir(dataDir).port(port).build().start()) {
          ResourceClient<DynamicObject> pods = client.dynamic(ResourceType.PODS);
          pods.delete("r", "p-0");
          pods.delete("r", "p-1");
          pods.create(Pods.pod("r", "after-restart"));
          pods.mergePatch("r", "p-2", "{\"metadata\":{\"labels\":{\"gen\":\"9\"}}}");

          Set<String> onTheServer = serverKeys(pods, "r");
          assertThat(converged(informer, onTheServer)).isEqualTo(onTheServer);
          assertThat(recorder.await(events -> events.stream().anyMatch(
              e -> e.key().equals("r/p-2") && e.type().equals("UPDATE")), WAIT)).isTrue();
          assertThat(informer.getIndexer().getByKey("r/p-2").orElseThrow().labels())
              .containsEntry("gen", "9");
          assertThat(recorder.byKey().get("r/p-0")).extracting(Recorder.Event::type).endsWith("DELETE");
        }
      }
    } finally {
      first.close();
    }
  }

  @Test
  void watchFromCompactedResourceVersion_relists_andHandlersSeeDeletedFinalStateUnknown() throws Exception {
    CacherConfig smallHistory = new CacherConfig(20, Duration.ofMinutes(5), 1_024,
        Duration.ofMinutes(1), Duration.ofSeconds(3));
    try (ApiServer server = ApiServer.builder().cacherConfig(smallHistory).build().start();
        TcpProxy proxy = new TcpProxy(server.port());
        KubeClient direct = KubeClient.create(Config.forUrl(server.url()));
        KubeClient viaProxy = KubeClient.create(Config.forUrl(proxy.url()))) {
      direct.dynamic(ResourceType.NAMESPACES).create(Pods.namespace("c"));
      Pods.createMany(direct, "c", "p", 10);
      ResourceClient<DynamicObject> pods = direct.dynamic(ResourceType.PODS);
      Activity activity = new Activity();
      try (SharedInformerFactory factory = SharedInformerFactory.builder(viaProxy).namespace("c").build()) {
        SharedIndexInformer<DynamicObject> informer = factory.informerFor(ResourceType.PODS, DynamicObject.CODEC);
        informer.setReflectorListener(activity);
        Recorder<DynamicObject> recorder = new Recorder<>(DynamicObject.CODEC);
        informer.addEventHandler(recorder);
        factory.start();
        assertSynced(factory, activity, proxy);

        // Cut the informer off, then change more than the history holds.
        proxy.pause();
        pods.delete("c", "p-0");
        pods.delete("c", "p-1");
        for (int i = 0; i < 30; i++) {
          pods.mergePatch("c", "p-5", "{\"metadata\":{\"labels\":{\"gen\":\"" + (i + 1) + "\"}}}");
        }
        proxy.resume();

        assertThat(recorder.awaitCount(e -> e.type().equals("DELETE"), 2, WAIT))
            .as("two deletes; reflector did %s; handler saw %s", activity.lines, recorder.events().size())
            .isTrue();
        List<Recorder.Event> deletes = recorder.events().stream()
            .filter(e -> e.type().equals("DELETE")).toList();
        assertThat(deletes).extracting(Recorder.Event::key).containsExactlyInAnyOrder("c/p-0", "c/p-1");
        assertThat(deletes).allMatch(Recorder.Event::deletedFinalStateUnknown);
        Set<String> onTheServer = serverKeys(pods, "c");
        assertThat(converged(informer, onTheServer)).isEqualTo(onTheServer);
        assertThat(recorder.await(events -> informer.getIndexer().getByKey("c/p-5")
            .map(p -> "30".equals(p.labels().get("gen"))).orElse(false), WAIT)).isTrue();
        assertThat(activity.lines).anyMatch(l -> l.startsWith("LIST ") && l.contains("410"));
      }
    }
  }

  @Test
  void silentlyDroppedConnection_isDetected_andTheInformerRecovers() throws Exception {
    CacherConfig fastBookmarks = new CacherConfig(102_400, Duration.ofMinutes(5), 1_024,
        Duration.ofSeconds(1), Duration.ofSeconds(3));
    try (ApiServer server = ApiServer.builder().cacherConfig(fastBookmarks).build().start();
        TcpProxy proxy = new TcpProxy(server.port());
        KubeClient direct = KubeClient.create(Config.forUrl(server.url()));
        KubeClient viaProxy = KubeClient.create(Config.builder(proxy.url())
            .requestTimeout(Duration.ofSeconds(3)).build())) {
      direct.dynamic(ResourceType.NAMESPACES).create(Pods.namespace("d"));
      Pods.createMany(direct, "d", "p", 5);
      Activity activity = new Activity();
      try (SharedInformerFactory factory = SharedInformerFactory.builder(viaProxy).namespace("d")
          .bookmarkInterval(Duration.ofSeconds(1)).build()) {
        SharedIndexInformer<DynamicObject> informer = factory.informerFor(ResourceType.PODS, DynamicObject.CODEC);
        informer.setReflectorListener(activity);
        Recorder<DynamicObject> recorder = new Recorder<>(DynamicObject.CODEC);
        informer.addEventHandler(recorder);
        factory.start();
        assertSynced(factory, activity, proxy);
        // Make sure the watch is established (its response has begun) before the drop.
        direct.dynamic(ResourceType.PODS).create(Pods.pod("d", "before-drop"));
        assertThat(recorder.await(events -> events.stream().anyMatch(
            e -> e.key().equals("d/before-drop")), WAIT)).isTrue();
        int connectionsBefore = proxy.accepted();

        proxy.blackholeExisting();
        direct.dynamic(ResourceType.PODS).create(Pods.pod("d", "after-drop"));

        assertThat(recorder.await(events -> events.stream().anyMatch(
            e -> e.key().equals("d/after-drop") && e.type().equals("ADD")), WAIT))
            .as("the pod created after the drop reaches the handler").isTrue();
        assertThat(activity.lines).anyMatch(l -> l.startsWith("WATCH ") && l.contains("silent"));
        assertThat(proxy.accepted()).as("a new connection was opened").isGreaterThan(connectionsBefore);
        assertThat(((HttpKubeClient) viaProxy).connectionReplacements())
            .as("the re-watch timed out on the dead HTTP/2 connection, which was replaced")
            .isPositive();
      }
    }
  }
}
