package io.listwatch.bench;

import io.listwatch.storage.StorageException;
import io.listwatch.storage.WatchEvent;
import io.listwatch.storage.WatchListener;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link WatchListener} that counts what it receives and checks the delivery contract on
 * the way: revisions strictly increasing and, when the watched prefix is the only thing
 * written, contiguous (every revision after the start, none twice, none missing).
 *
 * <p>Thread-safe: the store calls it from one thread at a time, the benchmark reads the
 * counters from its own thread, so every counter is atomic.
 */
final class EventCounter implements WatchListener {

  private final long fromRevision;
  private final AtomicLong events = new AtomicLong();
  private final AtomicLong batches = new AtomicLong();
  private final AtomicLong lastRevision;
  private final AtomicLong outOfOrder = new AtomicLong();
  private final AtomicLong gaps = new AtomicLong();
  private final AtomicLong firstEventNanos = new AtomicLong();
  private final AtomicLong lastEventNanos = new AtomicLong();
  private final AtomicReference<StorageException> error = new AtomicReference<>();

  /** A counter for a watch started from {@code fromRevision} (exclusive). */
  EventCounter(long fromRevision) {
    this.fromRevision = fromRevision;
    this.lastRevision = new AtomicLong(fromRevision);
  }

  @Override
  public void onEvents(List<WatchEvent> batch) {
    long now = System.nanoTime();
    long last = lastRevision.get();
    for (WatchEvent e : batch) {
      long rev = e.revision();
      if (rev <= last) {
        outOfOrder.incrementAndGet();
      } else if (rev != last + 1) {
        gaps.incrementAndGet();
      }
      last = Math.max(last, rev);
    }
    lastRevision.set(last);
    firstEventNanos.compareAndSet(0, now);
    lastEventNanos.set(now);
    batches.incrementAndGet();
    events.addAndGet(batch.size());
  }

  @Override
  public void onError(StorageException e) {
    error.compareAndSet(null, e);
  }

  /**
   * Waits until at least {@code count} events have arrived, the watch failed, or
   * {@code timeoutMillis} passed; returns whether the count was reached. Polls every
   * millisecond: the times it reports come from the listener itself, not from this wait.
   */
  boolean awaitEvents(long count, long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (events.get() < count && error.get() == null && System.nanoTime() - deadline < 0) {
      Thread.sleep(1);
    }
    return events.get() >= count;
  }

  long events() {
    return events.get();
  }

  long batches() {
    return batches.get();
  }

  long firstEventNanos() {
    return firstEventNanos.get();
  }

  long lastEventNanos() {
    return lastEventNanos.get();
  }

  StorageException error() {
    return error.get();
  }

  /**
   * A one-line verdict on the delivery: "ok" when {@code expected} events arrived in
   * contiguous revision order after the start revision, otherwise what went wrong.
   */
  String verdict(long expected) {
    StringBuilder b = new StringBuilder();
    if (error.get() != null) {
      b.append("watch failed: ").append(error.get().code()).append(' ')
          .append(error.get().getMessage()).append("; ");
    }
    if (events.get() != expected) {
      b.append("received ").append(events.get()).append(" events, expected ").append(expected)
          .append("; ");
    }
    if (outOfOrder.get() > 0) {
      b.append(outOfOrder.get()).append(" events out of order or repeated; ");
    }
    if (gaps.get() > 0) {
      b.append(gaps.get()).append(" revision gaps; ");
    }
    if (b.isEmpty()) {
      return "ok: revisions " + (fromRevision + 1) + ".." + lastRevision.get()
          + " each delivered once, in order";
    }
    b.setLength(b.length() - 2);
    return b.toString();
  }
}
