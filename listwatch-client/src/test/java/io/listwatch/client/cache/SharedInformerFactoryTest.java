package io.listwatch.client.cache;

import static io.listwatch.client.cache.InformerTestObject.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.LabelSelector;
import io.listwatch.client.ResourceType;
import io.listwatch.api.clock.FakeClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class SharedInformerFactoryTest {

  private final FakeClock clock = new FakeClock();
  private final InformerTestClient client = new InformerTestClient();
  private final SharedInformerFactory factory = SharedInformerFactory.builder(client)
      .namespace("team-a")
      .tweakListOptions(o -> o.toBuilder().labelSelector(LabelSelector.parse("app=web")).build())
      .clock(clock)
      .build();

  @AfterEach
  void close() {
    factory.close();
  }

  @Test
  void informerFor_returnsOneInformerPerResource_withOneWatch() throws Exception {
    SharedIndexInformer<InformerTestObject> pods =
        factory.informerFor(ResourceType.PODS, InformerTestObject.CODEC);
    SharedIndexInformer<InformerTestObject> again =
        factory.informerFor(ResourceType.PODS, InformerTestObject.CODEC);
    SharedIndexInformer<InformerTestObject> nodes =
        factory.informerFor(ResourceType.NODES, InformerTestObject.CODEC);
    assertThat(again).isSameAs(pods);
    assertThat(nodes).isNotSameAs(pods);
    assertThat(client.resourceCalls).containsExactly(ResourceType.PODS, ResourceType.NODES);

    factory.start();
    assertThat(factory.waitForCacheSync(Duration.ofMinutes(1))).isTrue();
    client.server(ResourceType.PODS).awaitWatch();
    client.server(ResourceType.NODES).awaitWatch();
    assertThat(client.requests).containsExactlyInAnyOrder(
        "list pods in team-a", "watch pods in team-a", "list nodes in ", "watch nodes in ");
    assertThat(client.server(ResourceType.PODS).awaitList().labelSelector().toString())
        .isEqualTo("app=web");
  }

  @Test
  void start_isIdempotent_andStartsInformersRequestedSinceTheLastStart() throws Exception {
    SharedIndexInformer<InformerTestObject> pods =
        factory.informerFor(ResourceType.PODS, InformerTestObject.CODEC);
    factory.start();
    factory.start();
    assertThat(pods.isRunning()).isTrue();

    SharedIndexInformer<InformerTestObject> services =
        factory.informerFor(ResourceType.SERVICES, InformerTestObject.CODEC);
    assertThat(services.isRunning()).as("requested after start").isFalse();
    factory.start();
    assertThat(services.isRunning()).isTrue();
    assertThat(factory.waitForCacheSync(Duration.ofMinutes(1))).isTrue();
    assertThat(pods.hasSynced()).isTrue();
    assertThat(services.hasSynced()).isTrue();
  }

  @Test
  void waitForCacheSync_isTrueOnceTheFirstListIsCached() throws Exception {
    client.server(ResourceType.PODS).setList(5, obj("team-a", "a", 1), obj("team-a", "b", 2));
    SharedIndexInformer<InformerTestObject> pods =
        factory.informerFor(ResourceType.PODS, InformerTestObject.CODEC);
    factory.start();
    assertThat(factory.waitForCacheSync(Duration.ofMinutes(1))).isTrue();
    assertThat(pods.getStore().listKeys()).containsExactlyInAnyOrder("team-a/a", "team-a/b");
  }

  @Test
  void waitForCacheSync_isFalseOnTimeout_whenTheServerNeverAnswers() throws Exception {
    client.server(ResourceType.PODS).neverAnswerLists();
    SharedIndexInformer<InformerTestObject> pods =
        factory.informerFor(ResourceType.PODS, InformerTestObject.CODEC);
    factory.start();
    client.server(ResourceType.PODS).awaitList();

    CompletableFuture<Boolean> synced = CompletableFuture.supplyAsync(() -> {
      try {
        return factory.waitForCacheSync(Duration.ofSeconds(30));
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    // The only thing waiting on the clock is the timeout: the reflector is stuck in list().
    assertThat(clock.awaitWaiters(1, Duration.ofSeconds(10))).isTrue();
    clock.advance(Duration.ofSeconds(29));
    assertThat(clock.nextDue()).as("the timeout is still pending, due in 1 s").isEqualTo(Duration.ofSeconds(1));
    assertThat(synced).isNotDone();
    clock.advance(Duration.ofSeconds(1));
    assertThat(synced.get(10, TimeUnit.SECONDS)).isFalse();
    assertThat(pods.hasSynced()).isFalse();
  }

  @Test
  void transformAndResync_areAppliedPerResource() throws Exception {
    InformerTestClient otherClient = new InformerTestClient();
    otherClient.server(ResourceType.PODS).setList(5, obj("ns", "a", 1, "fat"));
    otherClient.server(ResourceType.CONFIGMAPS).setList(5, obj("ns", "c", 1, "fat"));
    try (SharedInformerFactory f = SharedInformerFactory.builder(otherClient)
        .clock(clock)
        .resync(ResourceType.PODS, Duration.ofSeconds(10))
        .transform(ResourceType.PODS, InformerTestObject.class, o -> o.withValue("slim"))
        .build()) {
      SharedIndexInformer<InformerTestObject> pods =
          f.informerFor(ResourceType.PODS, InformerTestObject.CODEC);
      SharedIndexInformer<InformerTestObject> configMaps =
          f.informerFor(ResourceType.CONFIGMAPS, InformerTestObject.CODEC);
      InformerTestHandler podHandler = new InformerTestHandler();
      InformerTestHandler configMapHandler = new InformerTestHandler();
      pods.addEventHandler(podHandler);
      configMaps.addEventHandler(configMapHandler);
      f.start();
      assertThat(f.waitForCacheSync(Duration.ofMinutes(1))).isTrue();
      assertThat(podHandler.next().object().value()).isEqualTo("slim");
      assertThat(configMapHandler.next().object().value()).isEqualTo("fat");

      clock.advance(Duration.ofSeconds(10));
      assertThat(podHandler.next().toString()).isEqualTo("update ns/a@1->1");
      otherClient.server(ResourceType.CONFIGMAPS).awaitWatch().modified(obj("ns", "c", 6));
      assertThat(configMapHandler.next().toString())
          .as("no resync for configmaps came before the change").isEqualTo("update ns/c@1->6");
    }
  }

  @Test
  void close_closesEveryInformer_andRefusesMore() throws Exception {
    SharedIndexInformer<InformerTestObject> pods =
        factory.informerFor(ResourceType.PODS, InformerTestObject.CODEC);
    factory.start();
    SharedIndexInformer<InformerTestObject> notStarted = factory.informerFor(ResourceType.NODES, InformerTestObject.CODEC);
    assertThat(factory.waitForCacheSync(Duration.ofMinutes(1))).isTrue();
    client.server(ResourceType.PODS).awaitWatch();
    Thread reflector = client.server(ResourceType.PODS).requestThread;

    factory.close();
    factory.close();
    assertThat(pods.isRunning()).isFalse();
    assertThat(reflector.isAlive()).isFalse();
    assertThatThrownBy(notStarted::start).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> factory.informerFor(ResourceType.PODS, InformerTestObject.CODEC))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(factory::start).isInstanceOf(IllegalStateException.class);
  }
}
