package io.listwatch.storage.memory;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.Watch;
import io.listwatch.storage.WatchEvent;
import io.listwatch.storage.WatchListener;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watch of a {@link MemoryStorage}: a bounded queue of changes and a delivery run on the
 * store's watch executor that hands them to the listener.
 *
 * <h2>How changes reach the queue</h2>
 * Everything up to {@link #queuedThrough} is delivered or waiting in {@link #pending}. A
 * watch that is in sync ({@code queuedThrough} is the store's revision) gets each commit
 * appended by the writer, under the data lock, if it matches the prefix and the queue has
 * room. Otherwise (the watch started in the past, or the queue held {@link #MAX_PENDING}
 * events because the listener lags) the writer leaves it alone and the delivery run refills
 * the queue from the store's change log, a chunk at a time, until it is in sync again. Both
 * paths run under the data lock, so the switch between them has no gap and no duplicate,
 * and a writer never waits for a listener. A watch whose position falls below the compacted
 * revision while it reads the log ends with {@code COMPACTED}, as in etcd.
 *
 * <h2>Delivery</h2>
 * At most one delivery run per watch is scheduled or running ({@link #scheduled}); it takes
 * work under the data lock and calls the listener outside it, holding {@link #deliveryLock},
 * until there is no work left. So calls are sequential, in revision order, and a progress
 * notification is sent only once everything up to its revision was delivered.
 * {@link #close} takes the delivery lock after marking the watch closed, so no call starts
 * after it returns; it waits for a call in progress (unless called from inside it).
 *
 * <p>Thread-safe. The fields marked {@code @GuardedBy("data.lock")} are read and written under
 * {@link MemoryData#lock}. Lock order: {@link #deliveryLock}, then the data lock.
 */
final class MemoryWatcher implements Watch {

  private static final Logger LOG = LoggerFactory.getLogger(MemoryWatcher.class);

  /** The most events waiting in memory for one listener; beyond it the watch reads the log. */
  static final int MAX_PENDING = 1_000;
  /** The most log entries looked at per hold of the data lock when refilling the queue. */
  static final int MAX_SCAN = 10_000;

  /** One step of a delivery run, decided under the data lock and carried out outside it. */
  private sealed interface Step {
  }

  private record Events(List<WatchEvent> events) implements Step {
  }

  private record Progress(long revision) implements Step {
  }

  private record Failure(StorageException error) implements Step {
  }

  /** Nothing to call yet; take the next step (lets writers in between log chunks). */
  private record Again() implements Step {
  }

  private static final Again AGAIN = new Again();

  private final MemoryStorage store;
  private final MemoryData data;
  private final String prefix;
  private final WatchListener listener;
  private final Executor executor;
  /** Held during every listener call. Taken before the data lock, never after it. */
  private final ReentrantLock deliveryLock = new ReentrantLock();

  /** Matching changes not yet delivered, in revision order; at most MAX_PENDING. */
  @GuardedBy("data.lock")
  private final ArrayDeque<WatchEvent> pending = new ArrayDeque<>();
  /** Every matching change up to this revision was delivered or is in {@link #pending}. */
  @GuardedBy("data.lock")
  private long queuedThrough;
  /** A delivery run is scheduled or running. */
  @GuardedBy("data.lock")
  private boolean scheduled;
  @GuardedBy("data.lock")
  private boolean progressRequested;
  /** Set to end the watch with this error at the next step. */
  @GuardedBy("data.lock")
  private StorageException failure;
  /** No more work will be produced: closed, failed or out of history. */
  @GuardedBy("data.lock")
  private boolean ended;
  /** Set by {@link #close} (under the data lock); read under {@link #deliveryLock} before each call. */
  private volatile boolean closed;

  MemoryWatcher(MemoryStorage store, MemoryData data, String prefix, long fromRevision,
      WatchListener listener, Executor executor) {
    this.store = store;
    this.data = data;
    this.prefix = prefix;
    this.listener = listener;
    this.executor = executor;
    this.queuedThrough = fromRevision;
  }

  // ---- called by the store, under the data lock ----------------------------------------

  /**
   * Takes in the change just committed; true when the caller must {@link #startDelivery()}
   * (after releasing the lock).
   */
  @GuardedBy("data.lock")
  boolean onCommit(WatchEvent event) {
    assert data.lock.isHeldByCurrentThread();
    long revision = event.revision();
    if (ended || queuedThrough >= revision) {
      return false; // over, or started ahead of this revision
    }
    if (queuedThrough == revision - 1 && pending.size() < MAX_PENDING) {
      queuedThrough = revision;
      if (!event.kv().key().startsWith(prefix)) {
        return false;
      }
      pending.add(event);
    }
    // else: lagging; its delivery run (always scheduled while it lags) reads the log
    return schedule();
  }

  /** True if the watch has work right after it was opened (it starts in the past). */
  @GuardedBy("data.lock")
  boolean hasWorkAtStart() {
    assert data.lock.isHeldByCurrentThread();
    return (failure != null || queuedThrough < data.revision()) && schedule();
  }

  /** Ends the watch with {@code error}; true when the caller must {@link #startDelivery()}. */
  @GuardedBy("data.lock")
  boolean fail(StorageException error) {
    assert data.lock.isHeldByCurrentThread();
    if (ended) {
      return false;
    }
    if (failure == null) {
      failure = error;
    }
    return schedule();
  }

  @GuardedBy("data.lock")
  private boolean schedule() {
    if (scheduled || ended) {
      return false;
    }
    scheduled = true;
    return true;
  }

  /** Runs a delivery run on the executor. Call without the data lock. */
  void startDelivery() {
    assert !data.lock.isHeldByCurrentThread();
    try {
      executor.execute(this::deliver);
    } catch (RejectedExecutionException e) {
      LOG.error("MemoryWatcher[{}]: the watch executor rejected delivery; the watch ends "
          + "without notice", prefix, e);
      data.lock.lock();
      try {
        end();
      } finally {
        data.lock.unlock();
      }
    }
  }

  // ---- the delivery run ----------------------------------------------------------------

  private void deliver() {
    try {
      while (true) {
        Step step;
        data.lock.lock();
        try {
          step = nextStep();
          if (step == null) {
            scheduled = false;
            return;
          }
        } finally {
          data.lock.unlock();
        }
        switch (step) {
          case Events e -> call(() -> listener.onEvents(e.events()));
          case Progress p -> call(() -> listener.onProgress(p.revision()));
          case Failure f -> {
            callOnError(f.error());
            return;
          }
          case Again a -> {
          }
        }
      }
    } catch (RuntimeException e) {
      LOG.error("MemoryWatcher[{}]: the listener failed; the watch ends", prefix, e);
      data.lock.lock();
      try {
        end();
      } finally {
        data.lock.unlock();
      }
      callOnError(StorageException.unavailable("watch failed: " + e, e));
    }
  }

  /** The next thing to do, or null when there is nothing left for now. Under the data lock. */
  @GuardedBy("data.lock")
  private Step nextStep() {
    if (ended) {
      return null;
    }
    if (failure != null) {
      end();
      return new Failure(failure);
    }
    if (pending.isEmpty() && queuedThrough < data.revision()) {
      long compacted = data.compactedRevision();
      if (queuedThrough < compacted) {
        StorageException error = StorageException.compacted(queuedThrough, compacted);
        end();
        return new Failure(error);
      }
      queuedThrough = data.readLog(prefix, queuedThrough, MAX_PENDING, MAX_SCAN, pending);
      if (pending.isEmpty()) {
        return AGAIN;
      }
    }
    if (!pending.isEmpty()) {
      List<WatchEvent> batch = List.copyOf(pending);
      pending.clear();
      return new Events(batch);
    }
    if (progressRequested) {
      progressRequested = false;
      return new Progress(Math.min(queuedThrough, data.revision()));
    }
    return null;
  }

  /** Marks the watch over and forgets its queue. Under the data lock. */
  @GuardedBy("data.lock")
  @SuppressWarnings("GuardedBy") // store.data.lock, which removeWatcher needs, is data.lock
  private void end() {
    ended = true;
    pending.clear();
    store.removeWatcher(this);
  }

  private void call(Runnable listenerCall) {
    deliveryLock.lock();
    try {
      if (!closed) {
        listenerCall.run();
      }
    } finally {
      deliveryLock.unlock();
    }
  }

  private void callOnError(StorageException error) {
    deliveryLock.lock();
    try {
      if (!closed) {
        listener.onError(error);
      }
    } catch (RuntimeException e) {
      LOG.warn("MemoryWatcher[{}]: the listener failed in onError", prefix, e);
    } finally {
      deliveryLock.unlock();
    }
  }

  // ---- Watch ---------------------------------------------------------------------------

  @Override
  public void requestProgress() {
    boolean start;
    data.lock.lock();
    try {
      if (ended) {
        return;
      }
      progressRequested = true;
      start = schedule();
    } finally {
      data.lock.unlock();
    }
    if (start) {
      startDelivery();
    }
  }

  @Override
  public void close() {
    data.lock.lock();
    try {
      closed = true;
      if (!ended) {
        end();
      }
    } finally {
      data.lock.unlock();
    }
    // wait for a listener call in progress (returns at once when called from inside one)
    deliveryLock.lock();
    deliveryLock.unlock();
  }

  @Override
  public String toString() {
    return "MemoryWatcher[" + prefix + "]";
  }
}
