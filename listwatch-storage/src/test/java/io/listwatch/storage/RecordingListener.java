package io.listwatch.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link WatchListener} that records every call and lets the test wait (bounded) for
 * them. It also records contract violations it can see by itself: overlapping calls,
 * revisions that do not increase, and calls after {@code onError}.
 *
 * <p>Thread-safe: the listener methods run on the store's threads, the awaits on the test
 * thread; all state is guarded by {@code lock}.
 */
public final class RecordingListener implements WatchListener {

  /** A progress notification and how many events had arrived before it. */
  public record Progress(long revision, int eventsBefore) {
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final AtomicBoolean inCall = new AtomicBoolean();
  @GuardedBy("lock")
  private final List<WatchEvent> events = new ArrayList<>();
  @GuardedBy("lock")
  private final List<Progress> progress = new ArrayList<>();
  @GuardedBy("lock")
  private final List<String> violations = new ArrayList<>();
  @GuardedBy("lock")
  private StorageException error;
  /** Calls started, of every kind. */
  @GuardedBy("lock")
  private int calls;
  /** When set, the first onEvents call waits (bounded) for it before recording. */
  private volatile CountDownLatch gate;
  private final CountDownLatch firstCallHeld = new CountDownLatch(1);

  /**
   * Makes the first {@code onEvents} call block until {@code release} opens (or twice
   * {@link StorageContract#TIMEOUT} passes): a stuck listener. Call before the watch starts.
   */
  public RecordingListener holdFirstCallUntil(CountDownLatch release) {
    gate = release;
    return this;
  }

  /** Waits (bounded) until the first {@code onEvents} call is being held. */
  public void awaitFirstCallHeld() {
    StorageContract.await(firstCallHeld);
  }

  @Override
  public void onEvents(List<WatchEvent> batch) {
    enter("onEvents");
    CountDownLatch release = gate;
    if (release != null) {
      gate = null;
      firstCallHeld.countDown();
      try {
        release.await(StorageContract.TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    lock.lock();
    try {
      calls++;
      if (error != null) {
        violations.add("onEvents after onError: " + batch);
      }
      long last = events.isEmpty() ? Long.MIN_VALUE : events.get(events.size() - 1).revision();
      for (WatchEvent event : batch) {
        if (event.revision() <= last) {
          violations.add("revision " + event.revision() + " after " + last);
        }
        last = event.revision();
      }
      events.addAll(batch);
      changed.signalAll();
    } finally {
      lock.unlock();
      exit();
    }
  }

  @Override
  public void onProgress(long revision) {
    enter("onProgress");
    lock.lock();
    try {
      calls++;
      if (error != null) {
        violations.add("onProgress after onError: " + revision);
      }
      if (!events.isEmpty() && events.get(events.size() - 1).revision() > revision) {
        violations.add("progress " + revision + " after event of revision "
            + events.get(events.size() - 1).revision());
      }
      progress.add(new Progress(revision, events.size()));
      changed.signalAll();
    } finally {
      lock.unlock();
      exit();
    }
  }

  @Override
  public void onError(StorageException e) {
    enter("onError");
    lock.lock();
    try {
      calls++;
      if (error != null) {
        violations.add("second onError: " + e);
      } else {
        error = e;
      }
      changed.signalAll();
    } finally {
      lock.unlock();
      exit();
    }
  }

  /** Waits until at least {@code count} events arrived; returns all events so far. */
  @SuppressWarnings("GuardedBy") // awaitState evaluates the condition under lock
  public List<WatchEvent> awaitEvents(int count) {
    return awaitState(() -> events.size() >= count, "at least " + count + " events");
  }

  /** Waits until an event of revision {@code revision} or later arrived; returns all events. */
  @SuppressWarnings("GuardedBy") // awaitState evaluates the condition under lock
  public List<WatchEvent> awaitRevision(long revision) {
    return awaitState(() -> !events.isEmpty()
        && events.get(events.size() - 1).revision() >= revision, "an event of revision " + revision);
  }

  /**
   * Waits until an event of revision {@code revision} or later arrived or the watch failed;
   * returns all events.
   */
  @SuppressWarnings("GuardedBy") // awaitState evaluates the condition under lock
  public List<WatchEvent> awaitRevisionOrError(long revision) {
    return awaitState(() -> error != null || (!events.isEmpty()
        && events.get(events.size() - 1).revision() >= revision), "revision " + revision
        + " or an error");
  }

  /** Waits for a progress notification of at least {@code revision}. */
  @SuppressWarnings("GuardedBy") // awaitState evaluates the condition under lock
  public Progress awaitProgress(long revision) {
    awaitState(() -> progress.stream().anyMatch(p -> p.revision() >= revision),
        "progress to revision " + revision);
    lock.lock();
    try {
      return progress.stream().filter(p -> p.revision() >= revision).findFirst().orElseThrow();
    } finally {
      lock.unlock();
    }
  }

  /** Waits for {@code onError} and returns its error. */
  public StorageException awaitError() {
    long deadline = System.nanoTime() + StorageContract.TIMEOUT.toNanos();
    lock.lock();
    try {
      while (error == null) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          fail("no onError within %s; %s", StorageContract.TIMEOUT, describe());
        }
        changed.awaitNanos(left);
      }
      return error;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    } finally {
      lock.unlock();
    }
  }

  /** The progress notifications so far, each with how many events had arrived before it. */
  public List<Progress> progress() {
    lock.lock();
    try {
      return List.copyOf(progress);
    } finally {
      lock.unlock();
    }
  }

  public List<WatchEvent> events() {
    lock.lock();
    try {
      return List.copyOf(events);
    } finally {
      lock.unlock();
    }
  }

  /** The number of listener calls that started, of every kind. */
  public int calls() {
    lock.lock();
    try {
      return calls;
    } finally {
      lock.unlock();
    }
  }

  public Optional<StorageException> error() {
    lock.lock();
    try {
      return Optional.ofNullable(error);
    } finally {
      lock.unlock();
    }
  }

  public void assertNoViolations() {
    lock.lock();
    try {
      assertThat(violations).as("watch contract violations").isEmpty();
    } finally {
      lock.unlock();
    }
  }

  private List<WatchEvent> awaitState(java.util.function.BooleanSupplier done, String what) {
    long deadline = System.nanoTime() + StorageContract.TIMEOUT.toNanos();
    lock.lock();
    try {
      while (!done.getAsBoolean()) {
        if (error != null) {
          throw new AssertionError("watch failed while waiting for " + what + "; "
              + describe(), error);
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          fail("no %s within %s; %s", what, StorageContract.TIMEOUT, describe());
        }
        changed.awaitNanos(left);
      }
      return List.copyOf(events);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    } finally {
      lock.unlock();
    }
  }

  @GuardedBy("lock")
  private String describe() {
    String last = events.isEmpty() ? "none" : events.get(events.size() - 1).toString();
    return events.size() + " events (last " + last + "), progress " + progress
        + ", error " + error + ", violations " + violations;
  }

  private void enter(String method) {
    if (!inCall.compareAndSet(false, true)) {
      lock.lock();
      try {
        violations.add(method + " called while another call was running");
      } finally {
        lock.unlock();
      }
    }
  }

  private void exit() {
    inCall.set(false);
  }
}
