package io.listwatch.controllers.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceType;
import io.listwatch.client.testing.Action;
import io.listwatch.client.testing.FakeClient;
import io.listwatch.client.testing.Reaction;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ClientEventRecorderTest {

  private static final Duration BOUND = Duration.ofSeconds(10);
  private static final Instant T0 = Instant.parse("2026-01-02T03:04:05.123456789Z");
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final FakeClock clock = new FakeClock(T0);
  private final FakeClient client = FakeClient.create();

  {
    client.server().addNamespaces("shop", "other");
  }
  private ClientEventRecorder recorder = new ClientEventRecorder(client, "replicaset-controller", clock);

  @AfterEach
  void tearDown() {
    recorder.close();
    client.close();
  }

  private static DynamicObject rs(String namespace, String name) {
    return DynamicObject.parse("{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"metadata\":{\"name\":\"" + name
        + "\",\"namespace\":\"" + namespace + "\",\"uid\":\"0b1e1a3c-0000-4000-8000-000000000001\","
        + "\"resourceVersion\":\"42\"}}");
  }

  private List<Action> writes() {
    return client.actions().stream().filter(a -> a.is(Action.CREATE, ResourceType.EVENTS)
        || a.is(Action.PATCH, ResourceType.EVENTS)).toList();
  }

  private void awaitWrites(int n) {
    Await.until(n + " event writes", BOUND, () -> writes().size() >= n);
  }

  @Test
  void event_isCreatedInTheInvolvedNamespace_namedAfterItWithHexNanos() throws Exception {
    recorder.event(rs("shop", "web"), EventRecorder.NORMAL, "SuccessfulCreate", "Created pod: web-abcde");
    awaitWrites(1);

    Action create = writes().getFirst();
    assertThat(create.toString()).startsWith("create events shop/");
    ObjectNode event = create.object(DynamicObject.class).toTree();
    long nanos = T0.getEpochSecond() * 1_000_000_000L + T0.getNano();
    assertThat(event.path("metadata").path("name").asText()).isEqualTo("web." + Long.toHexString(nanos));
    assertThat(event.path("involvedObject")).isEqualTo(MAPPER.readTree("{\"kind\":\"ReplicaSet\","
        + "\"namespace\":\"shop\",\"name\":\"web\",\"uid\":\"0b1e1a3c-0000-4000-8000-000000000001\","
        + "\"apiVersion\":\"apps/v1\",\"resourceVersion\":\"42\"}"));
    assertThat(event.path("type").asText()).isEqualTo("Normal");
    assertThat(event.path("reason").asText()).isEqualTo("SuccessfulCreate");
    assertThat(event.path("message").asText()).isEqualTo("Created pod: web-abcde");
    assertThat(event.path("source").path("component").asText()).isEqualTo("replicaset-controller");
    assertThat(event.path("count").asLong()).isEqualTo(1);
    assertThat(event.path("firstTimestamp").asText()).isEqualTo("2026-01-02T03:04:05Z");
    assertThat(event.path("lastTimestamp").asText()).isEqualTo("2026-01-02T03:04:05Z");
  }

  @Test
  void repeatedEvent_patchesCountAndLastTimestamp_ofTheFirstOne() throws Exception {
    DynamicObject web = rs("shop", "web");
    recorder.event(web, EventRecorder.WARNING, "FailedCreate", "Error creating: quota");
    awaitWrites(1);
    clock.advance(Duration.ofSeconds(30));
    recorder.event(web, EventRecorder.WARNING, "FailedCreate", "Error creating: quota");
    clock.advance(Duration.ofSeconds(30));
    recorder.event(web, EventRecorder.WARNING, "FailedCreate", "Error creating: quota");
    awaitWrites(3);

    List<Action> writes = writes();
    String name = writes.get(0).object(DynamicObject.class).name();
    assertThat(writes).extracting(Action::toString).containsExactly("create events shop/" + name,
        "patch events shop/" + name, "patch events shop/" + name);
    assertThat(MAPPER.readTree(writes.get(1).patch()).path("count").asLong()).isEqualTo(2);
    assertThat(MAPPER.readTree(writes.get(2).patch()).path("count").asLong()).isEqualTo(3);
    // an action is recorded as its request is sent: wait for the last answer
    Await.until("the second patch stored", BOUND, () -> client.server().get(ResourceType.EVENTS, "shop", name)
        .map(e -> e.path("count").asLong() == 3).orElse(false));
    JsonNode stored = client.server().get(ResourceType.EVENTS, "shop", name).orElseThrow();
    assertThat(stored.path("firstTimestamp").asText()).isEqualTo("2026-01-02T03:04:05Z");
    assertThat(stored.path("lastTimestamp").asText()).isEqualTo("2026-01-02T03:05:05Z");
  }

  @Test
  void eventsDifferingInMessageOrReasonOrObject_areSeparateEvents() throws Exception {
    recorder.event(rs("shop", "web"), EventRecorder.NORMAL, "SuccessfulCreate", "Created pod: web-1");
    recorder.event(rs("shop", "web"), EventRecorder.NORMAL, "SuccessfulCreate", "Created pod: web-2");
    recorder.event(rs("shop", "web"), EventRecorder.NORMAL, "SuccessfulDelete", "Created pod: web-2");
    recorder.event(rs("shop", "api"), EventRecorder.NORMAL, "SuccessfulCreate", "Created pod: web-2");
    awaitWrites(4);

    assertThat(writes()).extracting(Action::verb).containsOnly(Action.CREATE);
  }

  @Test
  void repeatOfAnEventDeletedMeanwhile_isCreatedAgain_withItsCount() throws Exception {
    DynamicObject web = rs("shop", "web");
    recorder.event(web, EventRecorder.NORMAL, "SuccessfulCreate", "Created pod: web-1");
    awaitWrites(1);
    String name = writes().getFirst().object(DynamicObject.class).name();
    // the action is recorded as the request is sent: wait for the server's answer
    Await.until("the event stored", BOUND, () -> client.server().get(ResourceType.EVENTS, "shop", name).isPresent());
    assertThat(client.server().delete(ResourceType.EVENTS, "shop", name)).isTrue();

    recorder.event(web, EventRecorder.NORMAL, "SuccessfulCreate", "Created pod: web-1");
    awaitWrites(3);

    assertThat(writes()).extracting(Action::verb).containsExactly(Action.CREATE, Action.PATCH, Action.CREATE);
    Await.until("the event stored again, with count 2", BOUND, () -> client.server()
        .get(ResourceType.EVENTS, "shop", name).map(stored -> stored.path("count").asLong() == 2).orElse(false));
  }

  @Test
  void clusterScopedObject_getsItsEventsInDefault() throws Exception {
    DynamicObject node = DynamicObject.parse(
        "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"uid\":\"u1\"}}");
    recorder.event(node, EventRecorder.NORMAL, "NodeReady", "Node n1 status is now: NodeReady");
    awaitWrites(1);

    ObjectNode event = writes().getFirst().object(DynamicObject.class).toTree();
    assertThat(event.path("metadata").path("namespace").asText()).isEqualTo("default");
    assertThat(event.path("involvedObject").has("namespace")).isFalse();
  }

  @Test
  void event_returnsAtOnce_whileTheWriterIsStuck_andDropsWhatDoesNotFitTheQueue() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    client.prependReactor(Action.CREATE, ResourceType.EVENTS, action -> {
      entered.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return Reaction.passThrough();
    });
    DynamicObject web = rs("shop", "web");
    recorder.event(web, EventRecorder.NORMAL, "Scaled", "first");
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

    int extra = 7;
    for (int i = 0; i < ClientEventRecorder.QUEUE_CAPACITY + extra; i++) {
      recorder.event(rs("shop", "web-" + i), EventRecorder.NORMAL, "Scaled", "event " + i);
    }

    assertThat(recorder.dropped()).isEqualTo(extra);
    release.countDown();
    awaitWrites(1 + ClientEventRecorder.QUEUE_CAPACITY);
    assertThat(writes()).hasSize(1 + ClientEventRecorder.QUEUE_CAPACITY);
  }

  @Test
  void eventTheServerRefuses_isDropped_andLaterEventsAreStillWritten() throws Exception {
    client.failNext(Action.CREATE, ResourceType.EVENTS,
        StatusException.badRequest("events \"web\" is invalid"));
    DynamicObject web = rs("shop", "web");
    recorder.event(web, EventRecorder.NORMAL, "SuccessfulCreate", "refused");
    recorder.event(web, EventRecorder.NORMAL, "SuccessfulCreate", "accepted");
    awaitWrites(2);

    recorder.close();
    assertThat(client.server().list(ResourceType.EVENTS, "shop"))
        .extracting(e -> e.path("message").asText()).containsExactly("accepted");
  }

  @Test
  void manyEventsAboutOneObject_areCombined_thenHeldBackByTheSpamFilter() throws Exception {
    DynamicObject web = rs("shop", "web");
    for (int i = 0; i < 40; i++) {
      recorder.event(web, EventRecorder.NORMAL, "SuccessfulCreate", "Created pod: web-" + i);
    }
    recorder.close();

    List<JsonNode> stored = List.copyOf(client.server().list(ResourceType.EVENTS, "shop"));
    assertThat(stored).hasSize(EventCorrelator.MAX_SIMILAR);
    JsonNode combined = stored.stream()
        .filter(e -> e.path("message").asText().startsWith(EventCorrelator.COMBINED_PREFIX)).findFirst().orElseThrow();
    assertThat(combined.path("count").asInt()).isEqualTo(EventCorrelator.SPAM_BURST - (EventCorrelator.MAX_SIMILAR - 1));
    assertThat(combined.path("message").asText()).isEqualTo(EventCorrelator.COMBINED_PREFIX + "Created pod: web-24");
    assertThat(recorder.dropped()).isEqualTo(40 - EventCorrelator.SPAM_BURST);
  }

  @Test
  void close_writesWhatIsQueued() throws Exception {
    for (int i = 0; i < 20; i++) {
      recorder.event(rs("shop", "web-" + i), EventRecorder.NORMAL, "Scaled", "event " + i);
    }
    recorder.close();

    assertThat(client.server().list(ResourceType.EVENTS, "shop")).hasSize(20);
    recorder.event(rs("shop", "web"), EventRecorder.NORMAL, "Scaled", "after close");
    assertThat(recorder.dropped()).isEqualTo(1);
  }
}
