package io.listwatch.controllers.cli;

import io.listwatch.api.clock.Clock;
import io.listwatch.client.KubeClient;
import io.listwatch.api.leaderelection.LeaderCallbacks;
import io.listwatch.api.leaderelection.LeaderElector;
import io.listwatch.client.leaderelection.LeaseLock;
import io.listwatch.controllers.events.EventRecorder;
import io.listwatch.controllers.manager.ControllerManager;
import io.listwatch.controllers.manager.ControllerSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Runs a controller set only while this process leads (kube-controller-manager with
 * {@code --leader-elect}): the controllers are built and started when the elector acquires the
 * Lease and stopped when it stops leading, before the Lease is released or can expire.
 * Leadership lost for good (a renew deadline missed) completes {@link #lost()}: the process
 * should exit, as kube-controller-manager does, and a fresh one campaign again.
 *
 * <p>Thread-safe: the manager is started and stopped on the elector's thread; close may be
 * called from any thread.
 */
public final class LeaderElectedControllers implements AutoCloseable {

  private final LeaderElector elector;
  private final CompletableFuture<Void> lost = new CompletableFuture<>();
  private volatile ControllerManager manager;
  private volatile boolean closing;

  /**
   * @param lock the Lease candidates compete for
   * @param configure sets timings on the elector's builder (e.g. shorter ones in tests)
   */
  public LeaderElectedControllers(KubeClient client, List<ControllerSet.Entry> entries, EventRecorder events,
      Clock clock, LeaseLock lock, java.util.function.UnaryOperator<LeaderElector.Builder> configure) {
    Objects.requireNonNull(client, "client");
    LeaderCallbacks callbacks = new LeaderCallbacks() {
      @Override
      public void onStartedLeading() {
        manager = new ControllerManager(client, entries, events, clock).start();
      }

      @Override
      public void onStoppedLeading() {
        ControllerManager m = manager;
        if (m != null) {
          m.close();
        }
      }
    };
    this.elector = configure.apply(LeaderElector.builder(lock, callbacks).clock(clock)).build();
    elector.done().whenComplete((v, e) -> {
      if (!closing) {
        lost.complete(null);
      }
    });
  }

  /** Starts campaigning. Returns this. */
  public LeaderElectedControllers start() {
    elector.start();
    return this;
  }

  /** True while this process leads and runs the controllers. */
  public boolean isLeader() {
    return elector.isLeader();
  }

  /** Completes when leadership was lost other than by {@link #close}. */
  public CompletableFuture<Void> lost() {
    return lost;
  }

  /** The elector, e.g. for who leads. */
  public LeaderElector elector() {
    return elector;
  }

  /** Stops the controllers if leading, then releases the Lease. Idempotent. */
  @Override
  public void close() {
    closing = true;
    elector.close();
  }
}
