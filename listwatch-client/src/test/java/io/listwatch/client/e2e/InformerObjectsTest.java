package io.listwatch.client.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.JacksonCodec;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ObjectCodec;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.ReflectorListener;
import io.listwatch.client.cache.ResourceEventHandler;
import io.listwatch.client.cache.ResourceEventHandlerRegistration;
import io.listwatch.client.cache.SharedIndexInformer;
import io.listwatch.client.cache.SharedInformerFactory;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The same informer code works with fabric8's model classes and with dynamic objects, a
 * stalled handler does not hold up another one, and a watch-list syncs without a list.
 */
@ExtendWith(ApiServerExtension.class)
@Timeout(120)
class InformerObjectsTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private KubeClient client;

  @BeforeEach
  void connect(ApiServer server) {
    client = KubeClient.create(Config.forUrl(server.url()));
  }

  @AfterEach
  void disconnect() {
    client.close();
  }

  /** Runs one informer of {@code codec}'s type through add, update, delete; returns what it saw. */
  private <T> List<String> followPods(String namespace, ObjectCodec<T> codec) throws Exception {
    client.dynamic(ResourceType.NAMESPACES).create(Pods.namespace(namespace));
    Pods.createMany(client, namespace, "p", 3);
    Pods.awaitCached(client, namespace, 3); // so that the informer's "0" list has them all
    ResourceClient<DynamicObject> pods = client.dynamic(ResourceType.PODS);
    try (SharedInformerFactory factory = SharedInformerFactory.builder(client).namespace(namespace).build()) {
      SharedIndexInformer<T> informer = factory.informerFor(ResourceType.PODS, codec);
      Recorder<T> recorder = new Recorder<>(codec);
      informer.addEventHandler(recorder);
      factory.start();
      assertThat(factory.waitForCacheSync(WAIT)).isTrue();
      pods.mergePatch(namespace, "p-1", "{\"metadata\":{\"labels\":{\"gen\":\"1\"}}}");
      pods.delete(namespace, "p-2");
      assertThat(recorder.awaitCount(e -> !e.type().equals("ADD"), 2, WAIT)).isTrue();
      return recorder.events().stream()
          .map(e -> e.type() + " " + e.key() + (e.initial() ? " initial" : "")).sorted().toList();
    }
  }

  @Test
  void sameInformerCode_worksWithFabric8Pods_andWithDynamicObjects() throws Exception {
    List<String> typed = followPods("typed", JacksonCodec.of(Pod.class));
    List<String> dynamic = followPods("dynamic", DynamicObject.CODEC);

    List<String> expected = List.of("ADD %s/p-0 initial", "ADD %s/p-1 initial",
        "ADD %s/p-2 initial", "DELETE %s/p-2", "UPDATE %s/p-1");
    assertThat(typed).containsExactlyElementsOf(expected.stream().map(s -> s.formatted("typed")).toList());
    assertThat(dynamic).containsExactlyElementsOf(expected.stream().map(s -> s.formatted("dynamic")).toList());
  }

  @Test
  void fabric8Pods_inTheCache_areFullyDecoded() throws Exception {
    client.dynamic(ResourceType.NAMESPACES).create(Pods.namespace("models"));
    Pods.createMany(client, "models", "p", 2);
    Pods.awaitCached(client, "models", 2);
    try (SharedInformerFactory factory = SharedInformerFactory.builder(client).namespace("models").build()) {
      SharedIndexInformer<Pod> informer = factory.informerFor(ResourceType.PODS, JacksonCodec.of(Pod.class));
      factory.start();
      assertThat(factory.waitForCacheSync(WAIT)).isTrue();
      Pod pod = informer.getIndexer().getByKey("models/p-0").orElseThrow();
      assertThat(pod.getSpec().getContainers().get(0).getImage()).isEqualTo("registry.example.com/app/web:1.2.3");
      // the server's pod strategy: a new pod is Pending, with the QoS class of its resources
      assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
      assertThat(pod.getStatus().getQosClass()).isEqualTo("Burstable");
      assertThat(pod.getMetadata().getResourceVersion()).isNotEmpty();
    }
  }

  @Test
  void stalledHandler_doesNotDelayAnotherHandler() throws Exception {
    client.dynamic(ResourceType.NAMESPACES).create(Pods.namespace("stall"));
    try (SharedInformerFactory factory = SharedInformerFactory.builder(client).namespace("stall").build()) {
      SharedIndexInformer<DynamicObject> informer = factory.informerFor(ResourceType.PODS, DynamicObject.CODEC);
      CountDownLatch release = new CountDownLatch(1);
      CountDownLatch stalled = new CountDownLatch(1);
      ResourceEventHandlerRegistration slow = informer.addEventHandler(new ResourceEventHandler<>() {
        @Override
        public void onAdd(DynamicObject object, boolean isInInitialList) {
          stalled.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      });
      Recorder<DynamicObject> fast = new Recorder<>(DynamicObject.CODEC);
      informer.addEventHandler(fast);
      factory.start();
      assertThat(factory.waitForCacheSync(WAIT)).isTrue();

      Pods.createMany(client, "stall", "p", 300);
      assertThat(stalled.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(fast.awaitCount(e -> e.type().equals("ADD"), 300, WAIT))
          .as("the fast handler gets all 300 while the slow one is stuck on its first").isTrue();
      assertThat(slow.metrics().backlog()).isGreaterThan(0);
      assertThat(informer.getStore().listKeys()).hasSize(300);

      release.countDown();
      Await.until("the slow handler's backlog drains", WAIT, () -> slow.metrics().delivered(), d -> d >= 300);
      assertThat(slow.metrics().delivered()).isEqualTo(300);
    }
  }

  @Test
  void watchList_syncsFromTheInitialEvents_withoutFallingBackToAList() throws Exception {
    client.dynamic(ResourceType.NAMESPACES).create(Pods.namespace("wl"));
    Pods.createMany(client, "wl", "p", 50);
    List<String> activity = new CopyOnWriteArrayList<>();
    List<Throwable> errors = new CopyOnWriteArrayList<>();
    try (SharedInformerFactory factory = SharedInformerFactory.builder(client).namespace("wl")
        .useWatchList(true).build()) {
      SharedIndexInformer<DynamicObject> informer = factory.informerFor(ResourceType.PODS, DynamicObject.CODEC);
      informer.setReflectorListener(new ReflectorListener() {
        @Override
        public void onList(String resourceVersion, String reason) {
          activity.add("LIST " + reason);
        }

        @Override
        public void onListed(String resourceVersion, int items) {
          activity.add("LISTED " + items);
        }
      });
      informer.setWatchErrorHandler((name, error) -> errors.add(error));
      Recorder<DynamicObject> recorder = new Recorder<>(DynamicObject.CODEC);
      informer.addEventHandler(recorder);
      factory.start();
      assertThat(factory.waitForCacheSync(WAIT)).isTrue();
      assertThat(recorder.awaitCount(e -> e.type().equals("ADD") && e.initial(), 50, WAIT)).isTrue();

      client.dynamic(ResourceType.PODS).delete("wl", "p-7");
      assertThat(recorder.awaitCount(e -> e.type().equals("DELETE") && !e.deletedFinalStateUnknown(), 1, WAIT))
          .isTrue();
      assertThat(activity).containsExactly("LIST initial", "LISTED 50");
      assertThat(errors).as("no watch-list rejection, no fallback").isEmpty();
    }
  }
}
