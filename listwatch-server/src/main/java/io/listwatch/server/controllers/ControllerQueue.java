package io.listwatch.server.controllers;

import java.util.LinkedHashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A work queue of keys with one worker thread, as client-go's workqueue: a key queued while it
 * is already waiting is queued once; a key queued while it is being processed is processed again
 * afterwards. Keys are small strings naming work (an object), so the queue holds at most one
 * entry per object the server knows.
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
  /** Keys waiting; guarded by this. */
  private final Set<String> queued = new LinkedHashSet<>();
  /** Guarded by this. */
  private boolean closed;
  private final Thread worker;

  ControllerQueue(String name, Handler handler) {
    this.name = name;
    this.handler = handler;
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

  private void run() {
    while (true) {
      String key;
      synchronized (this) {
        while (queued.isEmpty() && !closed) {
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
      } catch (Exception e) {
        LOG.warn("{}: {} failed: {}", name, key, e.toString());
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
