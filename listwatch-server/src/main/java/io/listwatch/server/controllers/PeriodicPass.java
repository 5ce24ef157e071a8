package io.listwatch.server.controllers;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.controller.ControllerQueue;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A housekeeping pass a controller runs every {@code interval} while its gate is open (the
 * server leads its controllers), on the clock's task thread: the Event TTL, the
 * CertificateSigningRequest cleaner. A pass that fails is logged and the next one still comes.
 * Time is the injected {@link Clock}'s, so tests move it instead of waiting.
 *
 * <p>Thread-safe: the next pass is scheduled under this object's lock, and never after
 * {@link #close()}.
 */
public final class PeriodicPass implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PeriodicPass.class);

  private final String what;
  private final Duration interval;
  private final ControllerQueue.Gate gate;
  private final Clock clock;
  private final Runnable pass;
  @GuardedBy("this")
  private Clock.Cancellable next;
  @GuardedBy("this")
  private boolean closed;

  /** {@code what} names the pass in the warning of one that fails ("cannot {@code what}: ..."). */
  public PeriodicPass(String what, Duration interval, ControllerQueue.Gate gate, Clock clock, Runnable pass) {
    this.what = what;
    this.interval = interval;
    this.gate = gate;
    this.clock = clock;
    this.pass = pass;
  }

  /** The time between passes. */
  public Duration interval() {
    return interval;
  }

  /** Runs the first pass {@code after} from now, then one every interval. */
  public synchronized void start(Duration after) {
    if (!closed) {
      next = clock.schedule(after, this::run);
    }
  }

  private void run() {
    try {
      if (gate.isOpen()) {
        pass.run();
      }
    } catch (RuntimeException e) {
      LOG.warn("cannot {}: {}", what, e.toString());
    } finally {
      synchronized (this) {
        if (!closed) {
          next = clock.schedule(interval, this::run);
        }
      }
    }
  }

  /** Stops the passes. Idempotent. */
  @Override
  public synchronized void close() {
    closed = true;
    if (next != null) {
      next.cancel();
    }
  }
}
