package io.listwatch.controllers.replicaset;

import static io.listwatch.controllers.replicaset.ReplicaSetFixture.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.client.DynamicObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ActivePodsWithRanksTest {

  private final ReplicaSetFixture f = new ReplicaSetFixture();

  @AfterEach
  void tearDown() {
    f.close();
  }

  private static List<String> sorted(Map<DynamicObject, Integer> ranks, DynamicObject... pods) {
    List<DynamicObject> list = new ArrayList<>(List.of(pods));
    Collections.reverse(list);
    list.sort(new ActivePodsWithRanks(ranks, NOW));
    return list.stream().map(DynamicObject::name).toList();
  }

  @Test
  void unassignedThenPendingThenUnknownThenRunning() {
    DynamicObject running = f.pod("running").node("n").phase("Running").build();
    DynamicObject unknown = f.pod("unknown").node("n").phase("Unknown").build();
    DynamicObject pending = f.pod("pending").node("n").phase("Pending").build();
    DynamicObject unassigned = f.pod("unassigned").phase("Running").build();

    assertThat(sorted(Map.of(), running, unknown, pending, unassigned))
        .containsExactly("unassigned", "pending", "unknown", "running");
  }

  @Test
  void notReadyBeforeReady_thenLowerDeletionCostFirst() {
    DynamicObject ready = f.pod("ready").node("n").readySince(NOW.minusSeconds(60)).build();
    DynamicObject notReady = f.pod("not-ready").node("n").phase("Running").build();
    DynamicObject cheap = f.pod("cheap").node("n").readySince(NOW.minusSeconds(60)).deletionCost(-5).build();

    assertThat(sorted(Map.of(), ready, cheap, notReady)).containsExactly("not-ready", "cheap", "ready");
  }

  @Test
  void doubledUpNodeFirst_thenReadyMoreRecently_thenMoreRestarts_thenNewer() {
    DynamicObject alone = f.pod("alone").node("a").readySince(NOW.minusSeconds(60)).build();
    DynamicObject crowded = f.pod("crowded").node("b").readySince(NOW.minusSeconds(60)).build();
    DynamicObject fresh = f.pod("fresh").node("a").readySince(NOW.minusSeconds(10)).build();
    assertThat(sorted(Map.of(crowded, 3, alone, 1), alone, crowded)).containsExactly("crowded", "alone");
    assertThat(sorted(Map.of(), alone, fresh)).containsExactly("fresh", "alone");

    DynamicObject flaky = f.pod("flaky").node("a").phase("Running").restarts(4).build();
    DynamicObject steady = f.pod("steady").node("a").phase("Running").restarts(0).build();
    assertThat(sorted(Map.of(), steady, flaky)).containsExactly("flaky", "steady");

    DynamicObject older = f.pod("older").node("a").phase("Running").created(NOW.minusSeconds(600)).build();
    DynamicObject newer = f.pod("newer").node("a").phase("Running").created(NOW.minusSeconds(6)).build();
    assertThat(sorted(Map.of(), older, newer)).containsExactly("newer", "older");
  }
}
