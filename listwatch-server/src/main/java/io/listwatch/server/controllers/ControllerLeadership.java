package io.listwatch.server.controllers;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.clock.Clock;
import io.listwatch.api.leaderelection.LeaderCallbacks;
import io.listwatch.api.leaderelection.LeaderElector;
import io.listwatch.apiserver.rest.ResourceStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this server may run the controllers kube-controller-manager would run (garbage
 * collector, namespace controller, service accounts controller). Several servers over one etcd
 * elect one of them through a Lease, as kube-controller-manager's replicas do: only the
 * leader's controllers act; the others keep their caches and queues warm and act once they
 * lead. A server alone on its store leads from the start ({@link #always()}).
 *
 * <p>Elected mode runs client-go's algorithm ({@link LeaderElector}) over a Lease read and
 * written straight through storage ({@link StoreLeaseLock}). A leader that cannot renew within
 * the renew deadline stops leading and campaigns again, where kube-controller-manager would
 * exit and be restarted. On {@link #close()} a leader releases the Lease, so another server
 * leads at its next retry. A controller's item already running when leadership is lost
 * completes; the controllers' writes are guarded and idempotent, so a second server redoing it
 * gets 404 or 409 and moves on.
 *
 * <p>Thread-safe. Listeners added by {@link #onChange} run on the elector's thread and must
 * not block.
 */
public final class ControllerLeadership implements AutoCloseable, io.listwatch.apiserver.controller.ControllerQueue.Gate {

  /** The Lease the servers compete for, in {@code kube-system}. */
  public static final String LEASE_NAME = "listwatch-controller-manager";
  public static final String LEASE_NAMESPACE = "kube-system";

  private static final Logger LOG = LoggerFactory.getLogger(ControllerLeadership.class);

  /**
   * The election's timings: kube-controller-manager's defaults are 15 s, 10 s and 2 s.
   *
   * @param leaseDuration how long a standby waits after the Lease last changed
   * @param renewDeadline how long a leader keeps acting without renewing
   * @param retryPeriod how often candidates try, and the leader renews
   */
  public record Timing(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {

    /** @throws IllegalArgumentException for timings {@link LeaderElector} refuses */
    public Timing {
      LeaderElector.checkTiming(leaseDuration, renewDeadline, retryPeriod, LeaderElector.DEFAULT_JITTER_FACTOR);
    }

    public static final Timing DEFAULTS = new Timing(Duration.ofSeconds(15), Duration.ofSeconds(10),
        Duration.ofSeconds(2));
  }

  private final ResourceStore leases;
  private final String identity;
  private final Clock clock;
  private final Timing timing;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private volatile boolean leading;
  private volatile boolean closed;
  /** The current campaign. */
  @GuardedBy("this")
  private LeaderElector elector;

  private ControllerLeadership(ResourceStore leases, String identity, Clock clock, Timing timing) {
    this.leases = leases;
    this.identity = identity;
    this.clock = clock;
    this.timing = timing;
  }

  /** Leads from the start and for good: a server alone on its store. */
  public static ControllerLeadership always() {
    ControllerLeadership l = new ControllerLeadership(null, "", Clock.system(), Timing.DEFAULTS);
    l.leading = true;
    return l;
  }

  /**
   * Competes for {@value #LEASE_NAMESPACE}/{@value #LEASE_NAME} in {@code leases} as
   * {@code identity}; call {@link #start()} to begin.
   */
  public static ControllerLeadership elected(ResourceStore leases, String identity, Clock clock, Timing timing) {
    return new ControllerLeadership(leases, identity, clock, timing);
  }

  /** Not leading until {@link #lead} says so; for tests of the controllers' gate. */
  static ControllerLeadership standby() {
    return new ControllerLeadership(null, "test", Clock.system(), Timing.DEFAULTS);
  }

  /** Sets whether this leads, as an election would; for tests ({@link #standby()}). */
  void lead(boolean nowLeading) {
    changeTo(nowLeading);
  }


  /** Starts campaigning (elected mode); returns at once. */
  public void start() {
    if (leases != null) {
      campaign();
    }
  }

  private synchronized void campaign() {
    if (closed) {
      return;
    }
    StoreLeaseLock lock = new StoreLeaseLock(leases, LEASE_NAMESPACE, LEASE_NAME, identity, timing.renewDeadline());
    elector = LeaderElector.builder(lock, new LeaderCallbacks() {
      @Override
      public void onStartedLeading() {
        changeTo(true);
      }

      @Override
      public void onStoppedLeading() {
        changeTo(false);
      }
    }).clock(clock).leaseDuration(timing.leaseDuration()).renewDeadline(timing.renewDeadline())
        .retryPeriod(timing.retryPeriod()).releaseOnCancel(true).build().start();
    elector.done().thenRun(() -> {
      if (!closed) {
        LOG.info("ControllerLeadership: {} lost the lease; campaigning again", identity);
        campaign();
      }
    });
  }

  private void changeTo(boolean nowLeading) {
    leading = nowLeading;
    LOG.info("ControllerLeadership: {} {} the controllers", identity, nowLeading ? "now runs" : "stopped");
    listeners.forEach(Runnable::run);
  }

  /** True while this server's controllers may act. */
  public boolean isLeading() {
    return leading;
  }

  /** The identity of the leader as last seen (elected mode), empty if unknown or none. */
  public synchronized Optional<String> leader() {
    return elector == null ? Optional.empty() : elector.leader();
  }

  /** This server's identity in the election ("" when it always leads). */
  public String identity() {
    return identity;
  }

  @Override
  public boolean isOpen() {
    return isLeading();
  }

  /** Runs {@code listener} after every change of {@link #isLeading()}. */
  @Override
  public void onChange(Runnable listener) {
    listeners.add(listener);
  }

  /** Stops campaigning; a leader stops leading, then releases the Lease. Idempotent. */
  @Override
  public void close() {
    LeaderElector current;
    synchronized (this) {
      closed = true;
      current = elector;
    }
    if (current != null) {
      current.close();
    }
  }
}
