package io.listwatch.client.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.leaderelection.LeaderElector;
import io.listwatch.api.leaderelection.LeaderCallbacks;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceType;
import io.listwatch.server.ApiServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two electors against the in-process server over HTTP, with short timings (2 s lease, 1.5 s
 * renew deadline, 250 ms retry): one leads at a time, and the standby takes over when the
 * leader goes away.
 */
class LeaderElectionServerTest {

  private static ApiServer server;
  private static KubeClient client;

  private final AtomicInteger leading = new AtomicInteger();
  private final AtomicInteger maxLeading = new AtomicInteger();
  private final List<LeaderElector> electors = new ArrayList<>();

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

  @AfterEach
  void closeElectors() {
    electors.forEach(LeaderElector::close);
  }

  @Test
  void twoCandidates_exactlyOneLeads_andTheOtherSeesIt() throws Exception {
    Candidate a = candidate("one", "a", true);
    Candidate b = candidate("one", "b", true);
    assertThat(anyStarted(a, b)).isTrue();
    Candidate leader = a.elector.isLeader() ? a : b;
    Candidate standby = leader == a ? b : a;

    // several renew periods go by; the standby learns who leads and never leads itself
    assertThat(standby.sawLeader.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(standby.elector.leader()).contains(leader.elector.identity());
    assertThat(standby.elector.isLeader()).isFalse();
    DynamicObject lease = client.dynamic(ResourceType.LEASES).get("default", "one").orElseThrow();
    assertThat(lease.get("spec", "holderIdentity").orElseThrow().asText()).isEqualTo(leader.elector.identity());
    assertThat(maxLeading.get()).isEqualTo(1);
  }

  @Test
  void standby_takesOver_whenTheLeaderStopsWithoutRelease() throws Exception {
    Candidate a = candidate("two", "a", false);
    assertThat(a.started.await(10, TimeUnit.SECONDS)).isTrue();
    Candidate b = candidate("two", "b", false);
    assertThat(b.sawLeader.await(10, TimeUnit.SECONDS)).isTrue();

    a.elector.close(); // stops renewing; the lease still names a until it expires
    assertThat(b.started.await(10, TimeUnit.SECONDS)).isTrue();

    DynamicObject lease = client.dynamic(ResourceType.LEASES).get("default", "two").orElseThrow();
    assertThat(lease.get("spec", "holderIdentity").orElseThrow().asText()).isEqualTo("b");
    assertThat(lease.get("spec", "leaseTransitions").orElseThrow().asInt()).isEqualTo(1);
    assertThat(maxLeading.get()).isEqualTo(1);
  }

  @Test
  void standby_takesOver_afterTheLeaderReleasesOnClose() throws Exception {
    Candidate a = candidate("three", "a", true);
    assertThat(a.started.await(10, TimeUnit.SECONDS)).isTrue();
    Candidate b = candidate("three", "b", true);
    assertThat(b.sawLeader.await(10, TimeUnit.SECONDS)).isTrue();

    a.elector.close();
    assertThat(a.elector.isLeader()).isFalse();
    assertThat(b.started.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(maxLeading.get()).isEqualTo(1);
  }

  private boolean anyStarted(Candidate a, Candidate b) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (a.started.await(50, TimeUnit.MILLISECONDS) || b.started.getCount() == 0) {
        return true;
      }
    }
    return false;
  }

  private Candidate candidate(String leaseName, String id, boolean releaseOnCancel) {
    Candidate c = new Candidate();
    c.elector = LeaderElector.builder(new LeaseLock(client, "default", leaseName, id), c)
        .leaseDuration(Duration.ofSeconds(2))
        .renewDeadline(Duration.ofMillis(1500))
        .retryPeriod(Duration.ofMillis(250))
        .releaseOnCancel(releaseOnCancel)
        .build();
    electors.add(c.elector);
    c.elector.start();
    return c;
  }

  private final class Candidate implements LeaderCallbacks {
    LeaderElector elector;
    final CountDownLatch started = new CountDownLatch(1);
    final CountDownLatch sawLeader = new CountDownLatch(1);

    @Override
    public void onStartedLeading() {
      maxLeading.accumulateAndGet(leading.incrementAndGet(), Math::max);
      started.countDown();
    }

    @Override
    public void onStoppedLeading() {
      leading.decrementAndGet();
    }

    @Override
    public void onNewLeader(String identity) {
      if (!identity.equals(elector.identity())) {
        sawLeader.countDown();
      }
    }
  }
}
