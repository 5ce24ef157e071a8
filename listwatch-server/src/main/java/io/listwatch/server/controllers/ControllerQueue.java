package io.listwatch.server.controllers;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A work queue of keys with one worker thread, as client-go's workqueue: a key queued while it
 * is already waiting is queued once; a key queued while it is being processed is processed again
 * afterwards. Keys are small strings naming work (an object), so the queue holds at most one
 * entry per object the server knows. A key whose work fails is queued again after 200 ms,
 * 400 ms, ... up to five times (client-go's rate-limited requeue, simplified). Keys are taken
 * only while the {@link ControllerLeadership} says this server leads; until then they wait.
 *
 * <p>Thread-safe: {@link #add} may be called from any thread (cache listeners call it under
 * their dispatch lock, so it never blocks); {@code handler} runs on the worker thread only.
 */
final class ControllerQueue implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ControllerQueue.class);

  /** What to do with a key; may block (it runs on the worker). */
  @FunctionalInterface
  interface Handler {
    void process(String key) throws Exception;
  }

  private final String name;
  private final Handler handler;
  private final ControllerLeadership leadership;
  /** Keys waiting; guarded by this. */
  private final Set<String> queued = new LinkedHashSet<>();
  /** Guarded by this. */
  private boolean closed;
  private final Thread worker;
  /** Consecutive failures per key; worker thread only. */
  private final java.util.Map<String, Integer> failures = new java.util.HashMap<>();
  private static final int MAX_RETRIES = 5;

  /** A queue whose worker always runs (controllers every server runs). */
  ControllerQueue(String name, Handler handler) {
    this(name, handler, ControllerLeadership.always());
  }

  /** A queue whose worker takes keys only while {@code leadership} leads. */
  ControllerQueue(String name, Handler handler, ControllerLeadership leadership) {
    this.name = name;
    this.handler = handler;
    this.leadership = leadership;
    leadership.onChange(this::wake);
    this.worker = Thread.ofPlatform().name(name).daemon(true).unstarted(this::run);
  }

  void start() {
    worker.start();
  }

  synchronized void add(String key) {
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
        while ((queued.isEmpty() || !leadership.isLeading()) && !closed) {
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
          CompletableFuture.delayedExecutor(delayMs, TimeUnit.MILLISECONDS).execute(() -> add(key));
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
