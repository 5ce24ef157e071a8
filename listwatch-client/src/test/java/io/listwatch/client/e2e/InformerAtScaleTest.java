package io.listwatch.client.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.ListOptions;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.ResourceEventHandlerRegistration;
import io.listwatch.client.cache.SharedIndexInformer;
import io.listwatch.client.cache.SharedInformerFactory;
import io.listwatch.server.ApiServer;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An informer syncs 10,000 pods from the server, then follows adds, updates and deletes
 * and delivers each object's changes in the order the server made them.
 */
@Timeout(180)
class InformerAtScaleTest {

  private static final int PODS = 10_000;
  private static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void syncs10000Pods_thenDeliversEachObjectsChangesInOrder() throws Exception {
    try (ApiServer server = ApiServer.builder().build().start();
        KubeClient client = KubeClient.create(Config.forUrl(server.url()))) {
      client.dynamic(ResourceType.NAMESPACES).create(Pods.namespace("scale"));
      Pods.createMany(client, "scale", "pod", PODS);
      ResourceClient<DynamicObject> pods = client.dynamic(ResourceType.PODS);

      try (SharedInformerFactory factory = SharedInformerFactory.builder(client).build()) {
        SharedIndexInformer<DynamicObject> informer =
            factory.informerFor(ResourceType.PODS, DynamicObject.CODEC);
        Recorder<DynamicObject> recorder = new Recorder<>(DynamicObject.CODEC);
        ResourceEventHandlerRegistration registration = informer.addEventHandler(recorder);
        factory.start();

        assertThat(factory.waitForCacheSync(WAIT)).isTrue();
        assertThat(informer.getStore().listKeys()).hasSize(PODS);
        assertThat(recorder.awaitCount(e -> e.type().equals("ADD") && e.initial(), PODS, WAIT))
            .as("every pod delivered as an initial ADD").isTrue();
        assertThat(registration.hasSynced()).isTrue();
        assertThat(recorder.byKey()).hasSize(PODS)
            .allSatisfy((key, events) -> assertThat(events).hasSize(1));

        // 100 pods updated three times each, 100 deleted, 100 created, interleaved.
        for (int round = 1; round <= 3; round++) {
          for (int i = 0; i < 100; i++) {
            pods.mergePatch("scale", "pod-" + i, "{\"metadata\":{\"labels\":{\"gen\":\"" + round + "\"}}}");
            if (round == 2) {
              pods.delete("scale", "pod-" + (100 + i));
              pods.create(Pods.pod("scale", "new-" + i));
            }
          }
        }

        ListOptions all = ListOptions.builder().build();
        long serverRv = Long.parseLong(pods.list("scale", all).resourceVersion());
        assertThat(recorder.await(events -> events.stream().anyMatch(e -> e.rv() >= serverRv), WAIT))
            .as("the informer reached the server's resourceVersion").isTrue();

        Map<String, List<Recorder.Event>> byKey = recorder.byKey();
        for (int i = 0; i < 100; i++) {
          assertThat(byKey.get("scale/pod-" + i)).extracting(Recorder.Event::type)
              .containsExactly("ADD", "UPDATE", "UPDATE", "UPDATE");
          assertThat(byKey.get("scale/pod-" + (100 + i))).extracting(Recorder.Event::type)
              .containsExactly("ADD", "DELETE");
          assertThat(byKey.get("scale/new-" + i)).extracting(Recorder.Event::type)
              .containsExactly("ADD");
        }
        byKey.forEach((key, events) -> assertThat(events)
            .as("resourceVersions of %s only grow", key)
            .extracting(Recorder.Event::rv).isSorted());
        assertThat(informer.getIndexer().getByKey("scale/pod-7").orElseThrow().labels())
            .containsEntry("gen", "3");

        Set<String> serverKeys = pods.list("scale", all).items().stream()
            .map(p -> p.namespace() + "/" + p.name()).collect(Collectors.toSet());
        assertThat(new HashSet<>(informer.getStore().listKeys())).isEqualTo(serverKeys);
      }
    }
  }
}
