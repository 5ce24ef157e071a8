package io.listwatch.apiserver.controller;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A work queue of keys with one worker thread, as client-go's workqueue: a key queued while it
 * is already waiting is queued once; a key queued while it is being processed is processed again
 * afterwards. Keys are small strings naming work (an object), so the queue holds at most one
 * entry per object the server knows. A key whose work fails is queued again after 200 ms,
 * 400 ms, ... of the injected {@link Clock}, up to five times (client-go's rate-limited
 * requeue, simplified). Keys are taken only while the {@link Gate} is open (the server leads
 * its controllers); until then they wait.
 *
 * <p>Thread-safe: {@link #add} may be called from any thread (cache listeners call it under
 * their dispatch lock, so it never blocks); {@code handler} runs on the worker thread only.
 */
public final class ControllerQueue implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ControllerQueue.class);

  /** What to do with a key; may block (it runs on the worker). */
  @FunctionalInterface
  public interface Handler {
    void process(String key) throws Exception;
  }

  /**
   * When the worker may take keys: while this server leads its controllers (servers sharing
   * etcd elect one), or always. Thread-safe.
   */
  public interface Gate {
    /** A gate that is always open: controllers every server runs. */
    Gate ALWAYS = new Gate() {
      @Override
      public boolean isOpen() {
        return true;
      }

      @Override
      public void onChange(Runnable listener) {
      }
    };

    boolean isOpen();

    /** Runs {@code listener} after every change of {@link #isOpen()}. */
    void onChange(Runnable listener);
  }

  private final String name;
  private final Handler handler;
  private final Gate gate;
  private final Clock clock;
  /** Keys waiting. */
  @GuardedBy("this")
  private final Set<String> queued = new LinkedHashSet<>();
  @GuardedBy("this")
  private boolean closed;
  private final Thread worker;
  /** Consecutive failures per key; worker thread only. */
  private final java.util.Map<String, Integer> failures = new java.util.HashMap<>();
  private static final int MAX_RETRIES = 5;

  /**
   * A queue whose worker takes keys only while {@code gate} is open.
   *
   * @param name the worker thread's name, and the queue's in logs
   * @param clock when retries are due
   */
  public ControllerQueue(String name, Handler handler, Gate gate, Clock clock) {
    this.name = name;
    this.handler = handler;
    this.gate = gate;
    this.clock = clock;
    gate.onChange(this::wake);
    this.worker = Thread.ofPlatform().name(name).daemon(true).unstarted(this::run);
  }

  public void start() {
    worker.start();
  }

  /** Queues {@code key} (once, however often it is added before it is taken). */
  public synchronized void add(String key) {
    if (!closed && queued.add(key)) {
      notifyAll();
    }
  }

  private synchronized void wake() {
    notifyAll();
  }

  private void run() {
    while (true) {
      String key;
      synchronized (this) {
        while ((queued.isEmpty() || !gate.isOpen()) && !closed) {
          try {
            wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (closed) {
          return;
        }
        var it = queued.iterator();
        key = it.next();
        it.remove();
      }
      try {
        handler.process(key);
        failures.remove(key);
      } catch (Exception e) {
        int n = failures.merge(key, 1, Integer::sum);
        if (n <= MAX_RETRIES) {
          long delayMs = 100L << n;
          LOG.info("{}: {} failed ({}); retrying in {} ms", name, key, e.toString(), delayMs);
          clock.schedule(Duration.ofMillis(delayMs), () -> add(key));
        } else {
          failures.remove(key);
          LOG.warn("{}: {} failed {} times, giving up until it changes again: {}", name, key, n, e.toString());
        }
      }
    }
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      queued.clear();
      notifyAll();
    }
    worker.interrupt();
  }
}
