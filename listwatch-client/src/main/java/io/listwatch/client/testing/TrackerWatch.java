package io.listwatch.client.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.client.ResourceType;
import io.listwatch.client.WatchEvent;
import io.listwatch.api.clock.Clock;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One open watch on an {@link ObjectTracker}: the server side of a watch connection.
 *
 * <p>Events come in two parts. The initial events (synthetic ADDED for the current state,
 * or the replayed history after the requested resourceVersion, or one ERROR) are fixed when
 * the watch opens and are not counted against the buffer, like kube's cacher replaying
 * history outside its bounded channel. Live events then go to a bounded buffer; when it is
 * full the tracker ends the watch instead of waiting for the reader, as kube-apiserver
 * closes a watcher that cannot keep up ({@link #offer} returns false).
 *
 * <p>Two ways to stop: {@link #end()} is the server ending the stream (what is queued is
 * still read, then the stream ends; a dropped connection, a timeout, an overflow), and
 * {@link #close()} is the reader hanging up ({@link #next()} returns null at once).
 *
 * <p>Thread-safe. The tracker calls {@link #offer} and {@link #end} holding its own lock
 * (lock order: tracker, then this watch); one reader calls {@link #next}; {@link #close}
 * may be called from any thread.
 */
final class TrackerWatch {

  /**
   * An event as stored trees: the object is never mutated.
   *
   * @param type the event type
   * @param object the object (null for ERROR)
   * @param status the Status of an ERROR (null otherwise)
   */
  record TreeEvent(WatchEvent.Type type, ObjectNode object, Status status) {
    static TreeEvent of(WatchEvent.Type type, ObjectNode object) {
      return new TreeEvent(type, Objects.requireNonNull(object, "object"), null);
    }

    static TreeEvent error(Status status) {
      return new TreeEvent(WatchEvent.Type.ERROR, null, status);
    }
  }

  private final ResourceType resource;
  private final Filter filter;
  private final boolean bookmarks;
  private final int capacity;

  private final ReentrantLock lock = new ReentrantLock();
  /** Signalled when an event is queued or the watch stops. */
  private final Condition changed = lock.newCondition();
  /** Read before {@link #live}. Guarded by {@link #lock}. */
  private final ArrayDeque<TreeEvent> initial;
  /** At most {@link #capacity} events. Guarded by {@link #lock}. */
  private final ArrayDeque<TreeEvent> live = new ArrayDeque<>();
  /** The server ended the stream: no more events are accepted. Guarded by {@link #lock}. */
  private boolean ended;
  /** The reader closed the stream: nothing more is read. Guarded by {@link #lock}. */
  private boolean closed;
  /** The scheduled end for {@code timeoutSeconds}, or null. Guarded by {@link #lock}. */
  private Clock.Cancellable timeout;

  TrackerWatch(ResourceType resource, Filter filter, boolean bookmarks, int capacity, List<TreeEvent> initial) {
    this.resource = resource;
    this.filter = filter;
    this.bookmarks = bookmarks;
    this.capacity = capacity;
    this.initial = new ArrayDeque<>(initial);
  }

  ResourceType resource() {
    return resource;
  }

  Filter filter() {
    return filter;
  }

  /** Whether the watcher asked for bookmarks ({@code allowWatchBookmarks}). */
  boolean wantsBookmarks() {
    return bookmarks;
  }

  /**
   * Queues a live event. Returns false when the buffer is full: the caller ends the watch.
   * An event for a stopped watch is dropped (true).
   */
  boolean offer(TreeEvent event) {
    lock.lock();
    try {
      if (ended || closed) {
        return true;
      }
      if (live.size() >= capacity) {
        return false;
      }
      live.addLast(event);
      changed.signalAll();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** The server ends the stream: the reader gets what is queued, then the end. Idempotent. */
  void end() {
    Clock.Cancellable pending;
    lock.lock();
    try {
      ended = true;
      pending = timeout;
      timeout = null;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    if (pending != null) {
      pending.cancel();
    }
  }

  /** The reader hangs up: a blocked or later {@link #next()} returns null. Idempotent. */
  void close() {
    lock.lock();
    try {
      closed = true;
      initial.clear();
      live.clear();
    } finally {
      lock.unlock();
    }
    end();
  }

  /** Whether the watch takes no more events (ended or closed). */
  boolean isStopped() {
    lock.lock();
    try {
      return ended || closed;
    } finally {
      lock.unlock();
    }
  }

  /** Arranges for the watch to end by itself ({@code timeoutSeconds}); cancelled by its end. */
  void setTimeout(Clock.Cancellable scheduled) {
    lock.lock();
    try {
      if (!ended) {
        timeout = scheduled;
        return;
      }
    } finally {
      lock.unlock();
    }
    scheduled.cancel();
  }

  /**
   * The next event, blocking until there is one.
   *
   * @return the event, or null once the stream has ended (after the queued events) or was closed
   */
  TreeEvent next() throws InterruptedException {
    lock.lock();
    try {
      while (true) {
        if (closed) {
          return null;
        }
        TreeEvent e = initial.pollFirst();
        if (e == null) {
          e = live.pollFirst();
        }
        if (e != null) {
          return e;
        }
        if (ended) {
          return null;
        }
        changed.await();
      }
    } finally {
      lock.unlock();
    }
  }
}
