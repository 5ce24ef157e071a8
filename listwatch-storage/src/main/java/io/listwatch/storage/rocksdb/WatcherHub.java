package io.listwatch.storage.rocksdb;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.WatchEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Hands committed events to the live watchers, and lets a watcher that has read history up
 * to the newest published revision switch to live delivery without a gap or a duplicate.
 *
 * <p>Thread-safe. Lock order: {@link #lock}, then a {@link Watcher}'s own lock. Publishing
 * only appends to each watcher's bounded queue (never blocks on a listener); a watcher whose
 * queue is full is dropped from {@link #live} and reads history instead.
 */
final class WatcherHub {

  private final Object lock = new Object();
  /** Watchers fed from memory. */
  @GuardedBy("lock")
  private final List<Watcher> live = new ArrayList<>();
  /** Every watcher still running, live or reading history. */
  private final Set<Watcher> all = ConcurrentHashMap.newKeySet();
  /** The newest revision whose events were handed out. */
  @GuardedBy("lock")
  private long publishedRevision;
  @GuardedBy("lock")
  private boolean closed;

  WatcherHub(long revision) {
    this.publishedRevision = revision;
  }

  /** Called by the committer, in revision order, after the events are durable. */
  void publish(List<WatchEvent> events, long revision) {
    synchronized (lock) {
      publishedRevision = revision;
      live.removeIf(w -> !w.offer(events, revision));
    }
  }

  long publishedRevision() {
    synchronized (lock) {
      return publishedRevision;
    }
  }

  /**
   * Makes {@code w} live if it has delivered everything up to the newest published revision;
   * otherwise it must read more history first.
   */
  boolean goLive(Watcher w, long position) {
    synchronized (lock) {
      if (closed || position < publishedRevision) {
        return false;
      }
      w.startLive(position);
      live.add(w);
      return true;
    }
  }

  /** Registers a new watcher; false once the hub is closed. */
  boolean register(Watcher w) {
    synchronized (lock) {
      if (closed) {
        return false;
      }
      all.add(w);
      return true;
    }
  }

  void remove(Watcher w) {
    synchronized (lock) {
      live.remove(w);
    }
    all.remove(w);
  }

  /** Ends every watch with UNAVAILABLE and waits (bounded) for their last calls. */
  void close() {
    List<Watcher> toEnd;
    synchronized (lock) {
      closed = true;
      live.clear();
      toEnd = List.copyOf(all);
    }
    StorageException error = StorageException.unavailable("the store is closed", null);
    toEnd.forEach(w -> w.fail(error));
    for (Watcher w : toEnd) {
      w.awaitEnd(Duration.ofSeconds(5));
    }
  }
}
