package io.listwatch.client.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.leaderelection.LeaderElector;
import io.listwatch.api.leaderelection.ResourceLock;
import io.listwatch.api.leaderelection.LeaderElectionRecord;
import io.listwatch.api.leaderelection.LeaderCallbacks;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.client.ResourceType;
import io.listwatch.client.testing.Action;
import io.listwatch.client.testing.FakeClient;
import io.listwatch.client.testing.FakeApiServer;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The election algorithm on a fake clock and FakeClient: defaults (15 s lease, 10 s renew
 * deadline, 2 s retry, no jitter). Candidate "a" starts at t=0 and so wakes at even seconds;
 * "b" starts at t=1 and wakes at odd seconds, so each one-second step wakes exactly one.
 */
class LeaderElectorTest {

  private static final Duration ONE_SECOND = Duration.ofSeconds(1);
  private static final Duration BOUND = Duration.ofSeconds(10);

  private final FakeClock clock = new FakeClock();
  private final FakeApiServer server = FakeApiServer.create();
  /** Callbacks of every candidate, in the order they were made, e.g. "a started". */
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final AtomicInteger attempts = new AtomicInteger();
  private final List<LeaderElector> electors = new CopyOnWriteArrayList<>();

  @AfterEach
  void closeAll() {
    electors.forEach(LeaderElector::close);
    server.close();
  }

  @Test
  void firstCandidate_createsTheLease_andLeads() {
    LeaderElector a = start("a", FakeClient.create(server), true);
    awaitTrue(a::isLeader);

    ObjectNode spec = (ObjectNode) lease().get("spec");
    assertThat(spec.path("holderIdentity").asText()).isEqualTo("a");
    assertThat(spec.path("leaseDurationSeconds").asInt()).isEqualTo(15);
    assertThat(spec.path("leaseTransitions").asInt()).isZero();
    assertThat(spec.path("renewTime").asText()).isEqualTo("2026-01-01T00:00:00.000000Z");
    assertThat(events).containsExactly("a new-leader a", "a started");
  }

  @Test
  void leader_renewsEveryRetryPeriod_andTheStandbyNeverLeads() {
    LeaderElector a = start("a", FakeClient.create(server), true);
    awaitSleepers(1);
    clock.advance(ONE_SECOND);
    LeaderElector b = start("b", FakeClient.create(server), true);
    awaitSleepers(2);

    for (int t = 2; t <= 40; t++) {
      step(1, 2);
    }

    assertThat(a.isLeader()).isTrue();
    assertThat(b.isLeader()).isFalse();
    assertThat(b.leader()).contains("a");
    assertThat(lease().path("spec").path("renewTime").asText()).isEqualTo("2026-01-01T00:00:40.000000Z");
    assertThat(lease().path("spec").path("acquireTime").asText()).isEqualTo("2026-01-01T00:00:00.000000Z");
    assertThat(events).containsExactly("a new-leader a", "a started", "b new-leader a");
  }

  @Test
  void standby_takesOver_aLeaseDurationAfterItLastSawItChange_whenTheLeaderVanishesWithoutRelease() {
    LeaderElector a = start("a", FakeClient.create(server), false);
    awaitSleepers(1);
    clock.advance(ONE_SECOND);
    LeaderElector b = start("b", FakeClient.create(server), true);
    awaitSleepers(2);
    step(1, 2); // t=2: a renews

    a.close(); // as if killed: the lease still names a
    assertThat(lease().path("spec").path("holderIdentity").asText()).isEqualTo("a");
    // b sees a's last renewal (t=2) at t=3; it may take over from t=3+15=18, at its retry at 19
    for (int t = 3; t <= 18; t++) {
      step(t % 2, 1);
      assertThat(b.isLeader()).as("b leads at t=%d", t).isFalse();
    }
    step(1, 1); // t=19
    awaitTrue(b::isLeader);

    ObjectNode spec = (ObjectNode) lease().get("spec");
    assertThat(spec.path("holderIdentity").asText()).isEqualTo("b");
    assertThat(spec.path("leaseTransitions").asInt()).isEqualTo(1);
    assertThat(spec.path("acquireTime").asText()).isEqualTo("2026-01-01T00:00:19.000000Z");
    assertThat(events).containsSubsequence("a stopped", "b new-leader b", "b started");
  }

  @Test
  void close_releasesTheLease_soTheStandbyTakesOverAtItsNextRetry() {
    LeaderElector a = start("a", FakeClient.create(server), true);
    awaitSleepers(1);
    clock.advance(ONE_SECOND);
    LeaderElector b = start("b", FakeClient.create(server), true);
    awaitSleepers(2);

    a.close();
    assertThat(lease().path("spec").path("holderIdentity").asText()).isEmpty();
    assertThat(events).endsWith("a stopped");

    step(0, 1); // t=2
    step(1, 1); // t=3: b's next retry
    awaitTrue(b::isLeader);
    assertThat(lease().path("spec").path("holderIdentity").asText()).isEqualTo("b");
    assertThat(lease().path("spec").path("leaseTransitions").asInt()).isEqualTo(1);
  }

  @Test
  void leaderThatCannotRenew_stopsLeadingAtTheRenewDeadline_beforeTheStandbyTakesOver() {
    FakeClient aClient = FakeClient.create(server);
    LeaderElector a = start("a", aClient, true);
    awaitSleepers(1);
    aClient.prependReactor(Action.UPDATE, ResourceType.LEASES, action -> {
      throw StatusException.unavailable("etcd is unreachable");
    });
    clock.advance(ONE_SECOND);
    LeaderElector b = start("b", FakeClient.create(server), true);
    awaitSleepers(2);

    for (int t = 2; t <= 9; t++) {
      step(1, 2); // a's renewals fail; b waits
    }
    assertThat(a.isLeader()).isTrue();
    clock.advance(ONE_SECOND); // t=10: a has not renewed since t=0
    a.done().orTimeout(BOUND.toSeconds(), TimeUnit.SECONDS).join();
    assertThat(a.isLeader()).isFalse();
    assertThat(events).endsWith("a stopped");
    awaitSleepers(1);

    for (int t = 11; t <= 16; t++) {
      step(t % 2, 1);
      assertThat(b.isLeader()).as("b leads at t=%d", t).isFalse();
    }
    step(1, 1); // t=17: b first saw the record at t=1; 1+15=16, and b retries at odd seconds
    awaitTrue(b::isLeader);
    assertThat(events).containsSubsequence("a started", "a stopped", "b started");
  }

  @Test
  void candidate_keepsTrying_whenTheServerFails() {
    FakeClient client = FakeClient.create(server);
    client.failNext(Action.GET, ResourceType.LEASES, StatusException.internal("boom"));
    LeaderElector a = start("a", client, true);
    awaitSleepers(1);
    assertThat(a.isLeader()).isFalse();

    clock.advance(Duration.ofSeconds(2));
    awaitTrue(a::isLeader);
  }

  @Test
  void builder_refusesTimingsThatCannotBeSafe() {
    ResourceLock lock = new LeaseLock(FakeClient.create(server), "kube-system", "x", "a");
    LeaderCallbacks none = new Recorder("a");
    assertThatThrownBy(() -> LeaderElector.builder(lock, none).leaseDuration(Duration.ofSeconds(10)).build())
        .hasMessageContaining("leaseDuration must be greater than renewDeadline");
    assertThatThrownBy(() -> LeaderElector.builder(lock, none).retryPeriod(Duration.ofSeconds(9)).build())
        .hasMessageContaining("renewDeadline must be greater");
    assertThatThrownBy(() -> LeaderElector.builder(lock, none).retryPeriod(Duration.ZERO).build())
        .hasMessageContaining("retryPeriod");
  }

  // ---- harness ------------------------------------------------------------------------

  private LeaderElector start(String id, FakeClient client, boolean releaseOnCancel) {
    ResourceLock lock = new CountingLock(new LeaseLock(client, "kube-system", "controllers", id));
    LeaderElector elector = LeaderElector.builder(lock, new Recorder(id))
        .clock(clock).jitterFactor(0).releaseOnCancel(releaseOnCancel).build();
    electors.add(elector);
    int before = attempts.get();
    elector.start();
    awaitTrue(() -> attempts.get() > before);
    return elector;
  }

  /**
   * Advances one second, waits until {@code wakers} candidates have made their attempt and
   * {@code sleepers} threads are asleep again.
   */
  private void step(int wakers, int sleepers) {
    int before = attempts.get();
    clock.advance(ONE_SECOND);
    awaitTrue(() -> attempts.get() >= before + wakers);
    awaitSleepers(sleepers);
  }

  private void awaitSleepers(int n) {
    awaitTrue(() -> clock.sleepers() == n);
  }

  private ObjectNode lease() {
    Optional<ObjectNode> lease = server.get(ResourceType.LEASES, "kube-system", "controllers");
    assertThat(lease).isPresent();
    return lease.get();
  }

  /** Waits, in real time with a bound, for something the elector's thread will do. */
  private static void awaitTrue(Await.Condition condition) {
    Await.until("the elector's thread brings the condition about", BOUND, condition);
  }

  private final class Recorder implements LeaderCallbacks {
    private final String id;

    Recorder(String id) {
      this.id = id;
    }

    @Override
    public void onStartedLeading() {
      events.add(id + " started");
    }

    @Override
    public void onStoppedLeading() {
      events.add(id + " stopped");
    }

    @Override
    public void onNewLeader(String identity) {
      events.add(id + " new-leader " + identity);
    }
  }

  /** Counts attempts (each begins with a read), so the test knows when a candidate has acted. */
  private final class CountingLock implements ResourceLock {
    private final ResourceLock delegate;

    CountingLock(ResourceLock delegate) {
      this.delegate = delegate;
    }

    @Override
    public Optional<LeaderElectionRecord> get() {
      try {
        return delegate.get();
      } finally {
        attempts.incrementAndGet();
      }
    }

    @Override
    public void create(LeaderElectionRecord record) {
      delegate.create(record);
    }

    @Override
    public void update(LeaderElectionRecord record) {
      delegate.update(record);
    }

    @Override
    public String identity() {
      return delegate.identity();
    }

    @Override
    public String describe() {
      return delegate.describe();
    }
  }
}
