package io.listwatch.controllers.manager;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.clock.Clock;
import io.listwatch.client.KubeClient;
import io.listwatch.client.cache.SharedInformerFactory;
import io.listwatch.controllers.Controller;
import io.listwatch.controllers.ControllerContext;
import io.listwatch.controllers.events.EventRecorder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a set of controllers in one process over one shared informer factory
 * (kube-controller-manager's core): {@link #start} builds each controller over the same
 * {@link ControllerContext} (so each resource is listed and watched once), starts the
 * informers, then runs the controllers; {@link #close} stops the controllers in reverse order,
 * then the informers. The client is the caller's.
 *
 * <p>Thread-safe: start and close are synchronized; close is idempotent and a manager does not
 * start again after it.
 */
public final class ControllerManager implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ControllerManager.class);

  private final KubeClient client;
  private final List<ControllerSet.Entry> entries;
  private final EventRecorder events;
  private final Clock clock;
  @GuardedBy("this")
  private SharedInformerFactory informers;
  /** In start order. */
  @GuardedBy("this")
  private final List<Controller> running = new ArrayList<>();
  @GuardedBy("this")
  private boolean closed;

  /** A manager of {@code entries} over {@code client}, recording events with {@code events}. */
  public ControllerManager(KubeClient client, List<ControllerSet.Entry> entries, EventRecorder events, Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.entries = List.copyOf(entries);
    this.events = Objects.requireNonNull(events, "events");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Builds and runs every controller; returns once they are running (their workers begin when
   * the informers have synced). Returns this.
   *
   * @throws IllegalStateException if started before or closed
   */
  public synchronized ControllerManager start() {
    if (closed || informers != null) {
      throw new IllegalStateException("a controller manager starts once");
    }
    informers = SharedInformerFactory.builder(client).clock(clock).build();
    ControllerContext context = new ControllerContext(client, informers, events, clock);
    List<Controller> built = new ArrayList<>();
    for (ControllerSet.Entry entry : entries) {
      built.add(entry.factory().apply(context));
    }
    informers.start();
    for (int i = 0; i < built.size(); i++) {
      Controller c = built.get(i);
      c.run(entries.get(i).workers());
      running.add(c);
      LOG.info("ControllerManager: started controller {} with {} workers", c.name(), entries.get(i).workers());
    }
    return this;
  }

  /** The names of the running controllers, in start order. */
  public synchronized List<String> controllerNames() {
    return running.stream().map(Controller::name).toList();
  }

  /** Stops the controllers (last started first), then the informers and the event recorder. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (int i = running.size() - 1; i >= 0; i--) {
      try {
        running.get(i).close();
      } catch (RuntimeException e) {
        LOG.warn("ControllerManager: controller {} failed to stop", running.get(i).name(), e);
      }
    }
    running.clear();
    if (informers != null) {
      informers.close();
    }
    if (events instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        LOG.warn("ControllerManager: the event recorder failed to stop", e);
      }
    }
  }
}
