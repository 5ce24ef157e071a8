package io.listwatch.controllers.replicaset;

import static io.listwatch.controllers.replicaset.ReplicaSetFixture.NOW;
import static io.listwatch.controllers.replicaset.ReplicaSetFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.client.ResourceType;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The controller running its workers over a FakeClient: handlers, queue and syncs together. */
class ReplicaSetControllerRunTest {

  private static final Duration BOUND = Duration.ofSeconds(10);
  private final ReplicaSetFixture f = new ReplicaSetFixture();

  @AfterEach
  void tearDown() {
    f.close();
  }

  private JsonNode awaitStatus(String what, Predicate<JsonNode> done) {
    return Await.until("the ReplicaSet's status shows " + what, BOUND,
        () -> f.client.server().get(ResourceType.REPLICASETS, NS, "web").orElseThrow().path("status"), done);
  }

  @Test
  void podReadyRecently_becomesAvailable_whenMinReadySecondsHavePassed() throws Exception {
    f.replicaSet("web", 1, 10);
    f.pod("p").labels(Map.of("app", "web", "tier", "front")).ownedBy("web").node("n1").readySince(NOW).seed();
    f.start();
    f.controller.run(1);

    awaitStatus("ready 1, available 0", s -> s.path("readyReplicas").asInt() == 1);
    assertThat(f.client.server().get(ResourceType.REPLICASETS, NS, "web").orElseThrow()
        .path("status").path("availableReplicas").asInt()).isZero();
    assertThat(f.clock.awaitWaiters(1, BOUND)).as("the ReplicaSet is queued again for later").isTrue();

    f.clock.advance(Duration.ofSeconds(10));

    awaitStatus("available 1", s -> s.path("availableReplicas").asInt() == 1);
  }

  @Test
  void deletedPod_isReplaced_byTheRunningController() throws Exception {
    f.replicaSet("web", 2, 0);
    f.start();
    f.controller.run(2);
    awaitStatus("2 replicas", s -> s.path("replicas").asInt() == 2);

    String victim = f.client.server().list(ResourceType.PODS, NS).getFirst().path("metadata").path("name").asText();
    f.client.dynamic(ResourceType.PODS).delete(NS, victim);

    Await.until("a replacement pod", BOUND, () -> f.client.server().list(ResourceType.PODS, NS).size() == 2);
    assertThat(f.client.server().list(ResourceType.PODS, NS))
        .extracting(p -> p.path("metadata").path("name").asText()).doesNotContain(victim);
  }
}
