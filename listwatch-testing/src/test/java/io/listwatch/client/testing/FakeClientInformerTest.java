package io.listwatch.client.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.ResourceEventHandler;
import io.listwatch.client.cache.SharedIndexInformer;
import io.listwatch.client.cache.SharedInformerFactory;
import java.time.Duration;
import io.listwatch.api.StatusException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a controller's test does with the fake: run real informers against it, drive changes,
 * simulate a dropped watch with compacted history, and assert the controller's actions.
 */
@Timeout(60)
class FakeClientInformerTest {

  private static DynamicObject pod(String name) {
    return DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
        + name + "\",\"namespace\":\"default\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}");
  }

  private static String next(BlockingQueue<String> events) throws InterruptedException {
    String e = events.poll(30, TimeUnit.SECONDS);
    assertThat(e).as("a notification within 30 s").isNotNull();
    return e;
  }

  @Test
  void informer_syncsFromTheFake_followsItsWatch_andRelistsAfterCompaction() throws Exception {
    try (FakeClient client = FakeClient.withObjects(ResourceType.PODS, DynamicObject.CODEC, pod("a"), pod("b"));
        SharedInformerFactory factory = SharedInformerFactory.builder(client).build()) {
      SharedIndexInformer<DynamicObject> informer = factory.informerFor(ResourceType.PODS, DynamicObject.CODEC);
      BlockingQueue<String> events = new LinkedBlockingQueue<>();
      informer.addEventHandler(new ResourceEventHandler<>() {
        @Override
        public void onAdd(DynamicObject o, boolean initial) {
          events.add("add " + o.name() + (initial ? " initial" : ""));
        }

        @Override
        public void onDelete(DynamicObject o, boolean unknown) {
          events.add("delete " + o.name() + (unknown ? " DeletedFinalStateUnknown" : ""));
        }
      });
      factory.start();
      assertThat(factory.waitForCacheSync(Duration.ofSeconds(30))).isTrue();
      assertThat(List.of(next(events), next(events))).containsExactlyInAnyOrder("add a initial", "add b initial");
      assertThat(client.server().awaitWatches(ResourceType.PODS, 1, Duration.ofSeconds(30))).isTrue();

      ResourceClient<DynamicObject> pods = client.dynamic(ResourceType.PODS);
      pods.create(pod("c"));
      assertThat(next(events)).isEqualTo("add c");

      // The watch drops and cannot come back while "b" is deleted, "d" created and history
      // compacted (the watch cache keeps only the latest change, d's): only a relist can tell.
      AtomicBoolean serverDown = new AtomicBoolean(true);
      client.prependReactor(Action.WATCH, ResourceType.PODS, action -> {
        if (serverDown.get()) {
          throw StatusException.unavailable("the fake is down");
        }
        return Reaction.passThrough();
      });
      client.server().closeAllWatches();
      client.server().delete(ResourceType.PODS, "default", "b");
      client.server().create(ResourceType.PODS, pod("d").toTree());
      client.server().compact();
      serverDown.set(false);
      assertThat(List.of(next(events), next(events)))
          .containsExactlyInAnyOrder("delete b DeletedFinalStateUnknown", "add d");
      assertThat(informer.getStore().listKeys()).containsExactlyInAnyOrder("default/a", "default/c", "default/d");

      assertThat(client.actionsFor(Action.CREATE, ResourceType.PODS)).hasSize(1);
      assertThat(client.actionsFor(Action.LIST, ResourceType.PODS)).hasSizeGreaterThanOrEqualTo(2);
    }
  }
}
