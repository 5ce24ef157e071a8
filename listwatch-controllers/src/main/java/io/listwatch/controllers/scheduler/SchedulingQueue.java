package io.listwatch.controllers.scheduler;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.function.Predicate;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The pods waiting for a node (kube's scheduling {@code PriorityQueue}, simplified). Every
 * pod known to the queue is in exactly one of:
 * <ul>
 *   <li><b>active</b>: ready to be tried, higher {@code spec.priority} first, then the one
 *       waiting longest;</li>
 *   <li><b>backoff</b>: failed, waiting out its backoff (1 s doubling per attempt, at most
 *       10 s, kube's defaults), then active;</li>
 *   <li><b>unschedulable</b>: no node fitted it. It stays until something changes that could
 *       make it fit: a node added or changed, an assigned pod gone ({@link #moveAllToActiveOrBackoff}),
 *       or its own spec or labels changed; and at most 5 minutes, as kube;</li>
 *   <li><b>in flight</b>: popped and being scheduled.</li>
 * </ul>
 * A pod that fails while a move happened during its attempt goes to backoff rather than
 * unschedulable (the change may be what it needed): the queue counts scheduling cycles and
 * remembers the cycle of the last move, as kube's {@code moveRequestCycle}.
 *
 * <p>Thread-safe: every field is guarded by {@link #lock}; {@link #pop} waits on
 * {@link #notEmpty}. Backoff expiry and the periodic flush run as {@link Clock} tasks.
 */
final class SchedulingQueue implements AutoCloseable {

  static final Duration INITIAL_BACKOFF = Duration.ofSeconds(1);
  static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
  static final Duration MAX_UNSCHEDULABLE = Duration.ofMinutes(5);
  static final Duration FLUSH_PERIOD = Duration.ofSeconds(30);

  /** A pod in the queue and its history. Guarded by the queue's lock. */
  static final class QueuedPod {
    PodInfo pod;
    int attempts;
    final long firstSeen;
    final long order;
    long lastFailure;
    long unschedulableSince;
    long cycle;

    QueuedPod(PodInfo pod, long firstSeen, long order) {
      this.pod = pod;
      this.firstSeen = firstSeen;
      this.order = order;
    }

    PodInfo pod() {
      return pod;
    }

    int attempts() {
      return attempts;
    }
  }

  private final Clock clock;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  @GuardedBy("lock")
  private final PriorityQueue<QueuedPod> active = new PriorityQueue<>(
      Comparator.comparingInt((QueuedPod q) -> -q.pod.priority()).thenComparingLong(q -> q.firstSeen)
          .thenComparingLong(q -> q.order));
  @GuardedBy("lock")
  private final Map<String, QueuedPod> activeByKey = new HashMap<>();
  @GuardedBy("lock")
  private final Map<String, QueuedPod> backoff = new HashMap<>();
  @GuardedBy("lock")
  private final Map<String, QueuedPod> unschedulable = new HashMap<>();
  @GuardedBy("lock")
  private final Map<String, QueuedPod> inFlight = new HashMap<>();
  /** In-flight pods that changed, or were deleted, while being scheduled. */
  @GuardedBy("lock")
  private final Set<String> changedInFlight = new HashSet<>();
  @GuardedBy("lock")
  private final Set<String> deletedInFlight = new HashSet<>();
  @GuardedBy("lock")
  private long cycle;
  @GuardedBy("lock")
  private long moveRequestCycle = -1;
  @GuardedBy("lock")
  private long sequence;
  @GuardedBy("lock")
  private boolean closed;
  @GuardedBy("lock")
  private Clock.Cancellable flush;

  SchedulingQueue(Clock clock) {
    this.clock = clock;
  }

  /** Starts the periodic flush of pods unschedulable for too long. */
  void start() {
    lock.lock();
    try {
      if (!closed && flush == null) {
        flush = clock.schedule(FLUSH_PERIOD, this::flushLongUnschedulable);
      }
    } finally {
      lock.unlock();
    }
  }

  /** A new unscheduled pod: active. A pod already known is updated instead. */
  void add(PodInfo pod) {
    lock.lock();
    try {
      if (known(pod.key())) {
        updateLocked(pod);
        return;
      }
      toActive(new QueuedPod(pod, clock.nanoTime(), sequence++));
    } finally {
      lock.unlock();
    }
  }

  /** A changed unscheduled pod; an unschedulable one whose spec or labels changed is retried. */
  void update(PodInfo pod) {
    lock.lock();
    try {
      if (!known(pod.key())) {
        toActive(new QueuedPod(pod, clock.nanoTime(), sequence++));
        return;
      }
      updateLocked(pod);
    } finally {
      lock.unlock();
    }
  }

  /** The pod went away (deleted, or bound by someone): forgotten. */
  void delete(String key) {
    lock.lock();
    try {
      QueuedPod q = activeByKey.remove(key);
      if (q != null) {
        active.remove(q);
      }
      backoff.remove(key);
      unschedulable.remove(key);
      if (inFlight.containsKey(key)) {
        deletedInFlight.add(key);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * The next pod to schedule, waiting until there is one; null once closed. The pod is in
   * flight until {@link #done}, {@link #unschedulable} or {@link #backoff}.
   */
  QueuedPod pop() throws InterruptedException {
    lock.lock();
    try {
      while (active.isEmpty() && !closed) {
        notEmpty.await();
      }
      if (closed) {
        return null;
      }
      QueuedPod q = active.poll();
      activeByKey.remove(q.pod.key());
      q.attempts++;
      q.cycle = ++cycle;
      inFlight.put(q.pod.key(), q);
      return q;
    } finally {
      lock.unlock();
    }
  }

  /** The pod was bound. */
  void done(QueuedPod q) {
    lock.lock();
    try {
      finish(q);
    } finally {
      lock.unlock();
    }
  }

  /** No node fitted the pod: unschedulable, or backoff if something moved meanwhile. */
  void unschedulable(QueuedPod q) {
    lock.lock();
    try {
      boolean retry = changedInFlight.contains(q.pod.key()) || moveRequestCycle >= q.cycle;
      if (finish(q)) {
        return;
      }
      q.lastFailure = clock.nanoTime();
      if (retry) {
        toBackoff(q);
      } else {
        q.unschedulableSince = q.lastFailure;
        unschedulable.put(q.pod.key(), q);
      }
    } finally {
      lock.unlock();
    }
  }

  /** The attempt failed for another reason (e.g. the binding): tried again after the backoff. */
  void backoff(QueuedPod q) {
    lock.lock();
    try {
      if (finish(q)) {
        return;
      }
      q.lastFailure = clock.nanoTime();
      toBackoff(q);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Something changed that may let unschedulable pods fit (a node added or changed, an
   * assigned pod gone): each goes to backoff if its backoff has not passed, else active.
   */
  void moveAllToActiveOrBackoff() {
    lock.lock();
    try {
      moveRequestCycle = cycle;
      List<QueuedPod> all = new ArrayList<>(unschedulable.values());
      unschedulable.clear();
      all.forEach(this::activeOrBackoff);
    } finally {
      lock.unlock();
    }
  }

  /**
   * A pod was bound or relabelled: the unschedulable pods that {@code mayFitNow} accepts go to
   * backoff or active, as in {@link #moveAllToActiveOrBackoff()}.
   */
  void moveAllToActiveOrBackoff(Predicate<PodInfo> mayFitNow) {
    lock.lock();
    try {
      moveRequestCycle = cycle;
      List<QueuedPod> moved = new ArrayList<>();
      for (QueuedPod q : unschedulable.values()) {
        if (mayFitNow.test(q.pod)) {
          moved.add(q);
        }
      }
      moved.forEach(q -> unschedulable.remove(q.pod.key()));
      moved.forEach(this::activeOrBackoff);
    } finally {
      lock.unlock();
    }
  }

  /** How many pods are active, backing off, unschedulable (for tests and logs). */
  int[] sizes() {
    lock.lock();
    try {
      return new int[] {active.size(), backoff.size(), unschedulable.size()};
    } finally {
      lock.unlock();
    }
  }

  /** Whether the pod with {@code key} is waiting as unschedulable. */
  boolean isUnschedulable(String key) {
    lock.lock();
    try {
      return unschedulable.containsKey(key);
    } finally {
      lock.unlock();
    }
  }

  /** Wakes {@link #pop} (which then returns null) and stops the timers. Idempotent. */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      if (flush != null) {
        flush.cancel();
      }
      notEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }

  // ---- helpers of the methods above, called with the lock held ----

  @GuardedBy("lock")
  private boolean known(String key) {
    return activeByKey.containsKey(key) || backoff.containsKey(key) || unschedulable.containsKey(key)
        || inFlight.containsKey(key);
  }

  @GuardedBy("lock")
  private void updateLocked(PodInfo pod) {
    String key = pod.key();
    QueuedPod q = activeByKey.get(key);
    if (q != null) {
      active.remove(q);
      q.pod = pod;
      active.add(q);
    } else if ((q = backoff.get(key)) != null) {
      q.pod = pod;
    } else if ((q = unschedulable.get(key)) != null) {
      boolean relevant = !q.pod.spec().equals(pod.spec()) || !q.pod.object().labels().equals(pod.object().labels());
      q.pod = pod;
      if (relevant) {
        unschedulable.remove(key);
        activeOrBackoff(q);
      }
    } else if ((q = inFlight.get(key)) != null) {
      boolean relevant = !q.pod.spec().equals(pod.spec()) || !q.pod.object().labels().equals(pod.object().labels());
      q.pod = pod;
      if (relevant) {
        changedInFlight.add(key);
      }
    }
  }

  /** Ends the in-flight state; true when the pod was deleted meanwhile (and is dropped). */
  @GuardedBy("lock")
  private boolean finish(QueuedPod q) {
    String key = q.pod.key();
    inFlight.remove(key);
    changedInFlight.remove(key);
    return deletedInFlight.remove(key) || closed;
  }

  @GuardedBy("lock")
  private void toActive(QueuedPod q) {
    activeByKey.put(q.pod.key(), q);
    active.add(q);
    notEmpty.signal();
  }

  @GuardedBy("lock")
  private void activeOrBackoff(QueuedPod q) {
    if (q.attempts > 0 && clock.nanoTime() < backoffExpiry(q)) {
      toBackoff(q);
    } else {
      toActive(q);
    }
  }

  @GuardedBy("lock")
  private void toBackoff(QueuedPod q) {
    String key = q.pod.key();
    backoff.put(key, q);
    clock.scheduleAt(backoffExpiry(q), () -> {
      lock.lock();
      try {
        if (backoff.get(key) == q) {
          backoff.remove(key);
          toActive(q);
        }
      } finally {
        lock.unlock();
      }
    });
  }

  @GuardedBy("lock")
  private long backoffExpiry(QueuedPod q) {
    return q.lastFailure + backoffDuration(q.attempts).toNanos();
  }

  /** kube's backoff after {@code attempts} attempts: 1 s, 2 s, 4 s, 8 s, then 10 s. */
  static Duration backoffDuration(int attempts) {
    Duration d = INITIAL_BACKOFF;
    for (int i = 1; i < attempts && d.compareTo(MAX_BACKOFF) < 0; i++) {
      d = d.multipliedBy(2);
    }
    return d.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : d;
  }

  private void flushLongUnschedulable() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      long now = clock.nanoTime();
      List<QueuedPod> due = new ArrayList<>();
      for (QueuedPod q : unschedulable.values()) {
        if (now - q.unschedulableSince >= MAX_UNSCHEDULABLE.toNanos()) {
          due.add(q);
        }
      }
      for (QueuedPod q : due) {
        unschedulable.remove(q.pod.key());
        activeOrBackoff(q);
      }
      flush = clock.schedule(FLUSH_PERIOD, this::flushLongUnschedulable);
    } finally {
      lock.unlock();
    }
  }
}
