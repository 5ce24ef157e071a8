package io.listwatch.controllers.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.clock.Clock;
import io.listwatch.client.Config;
import io.listwatch.client.KubeClient;
import io.listwatch.client.leaderelection.LeaseLock;
import io.listwatch.controllers.RecordingController;
import io.listwatch.controllers.events.EventRecorder;
import io.listwatch.controllers.manager.ControllerSet;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two controller "processes" with leader election against the in-process server: only the
 * leader runs its controllers, and the standby runs them once the leader has stopped.
 */
class LeaderElectedControllersTest {

  /** How long an election may take (leases of 2 s, retried every 250 ms). */
  private static final Duration BOUND = Duration.ofSeconds(10);

  private static ApiServer server;
  private static KubeClient client;

  @BeforeAll
  static void startServer() {
    server = ApiServer.builder().build().start();
    client = KubeClient.create(Config.forUrl(server.url()));
  }

  @AfterAll
  static void stopServer() {
    client.close();
    server.close();
  }

  @Test
  void onlyTheLeaderRunsItsControllers_andTheStandbyTakesOverAfterTheLeaderStops() {
    List<String> log = new CopyOnWriteArrayList<>();
    try (LeaderElectedControllers a = candidate("a", log); LeaderElectedControllers b = candidate("b", log)) {
      Await.until("one of them leads", BOUND, () -> a.isLeader() || b.isLeader());
      LeaderElectedControllers leader = a.isLeader() ? a : b;
      LeaderElectedControllers standby = leader == a ? b : a;
      String leaderId = leader.elector().identity();
      String standbyId = standby.elector().identity();
      Await.until("the standby sees the leader", BOUND, () -> standby.elector().leader().isPresent());
      assertThat(log).containsExactly(leaderId + " run 1");

      leader.close(); // stops its controllers, then releases the lease
      Await.until("the standby leads", BOUND, standby::isLeader);
      Await.until("three entries in the log", BOUND, () -> log.size() == 3);
      assertThat(log).containsExactly(leaderId + " run 1", leaderId + " closed", standbyId + " run 1");
      assertThat(leader.lost()).isNotDone(); // closed, not lost
    }
  }

  private static LeaderElectedControllers candidate(String id, List<String> log) {
    List<ControllerSet.Entry> entries = List.of(new ControllerSet.Entry(id, 1, ctx -> new RecordingController(id, log)));
    return new LeaderElectedControllers(client, entries, EventRecorder.DISCARD, Clock.system(),
        new LeaseLock(client, "default", "controllers", id),
        b -> b.leaseDuration(Duration.ofSeconds(2)).renewDeadline(Duration.ofMillis(1500))
            .retryPeriod(Duration.ofMillis(250))).start();
  }

}
