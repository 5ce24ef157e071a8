package io.listwatch.storage;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * The settings every embedded store shares (RocksDB's and the in-memory one): how long history
 * is kept, the largest value accepted and the clock that dates commits. Each store's builder
 * extends it with its own settings and returns itself for chaining. Validates every setting.
 * Not thread-safe; build once.
 *
 * @param <B> the concrete builder
 */
public abstract class StoreBuilder<B extends StoreBuilder<B>> {

  private HistoryRetention retention = HistoryRetention.DEFAULT;
  private int maxValueBytes = Keys.DEFAULT_MAX_VALUE_BYTES;
  private Clock clock = Clock.systemUTC();

  protected StoreBuilder() {
  }

  /** How long history is kept for reads and watches in the past (default 5 minutes; see {@link HistoryRetention}). */
  public B historyRetention(Duration period) {
    this.retention = retention.withPeriod(period);
    return self();
  }

  /** How many of the latest revisions are kept at least, whatever their age (default 100,000). */
  public B historyMinRevisions(long revisions) {
    this.retention = retention.withMinRevisions(revisions);
    return self();
  }

  /** The largest value accepted, in bytes (default 3 MiB, kube-apiserver's limit). */
  public B maxValueBytes(int bytes) {
    require(bytes > 0, "maxValueBytes must be positive: " + bytes);
    this.maxValueBytes = bytes;
    return self();
  }

  /** The clock that dates commits for the retention window; tests pass a fake one. */
  public B clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return self();
  }

  /** The history kept for reads and watches in the past, as set. */
  public HistoryRetention retention() {
    return retention;
  }

  /** The largest value accepted, in bytes, as set. */
  public int maxValueBytes() {
    return maxValueBytes;
  }

  /** The clock that dates commits, as set. */
  public Clock clock() {
    return clock;
  }

  /** Refuses a setting: {@link IllegalArgumentException} with {@code message} unless {@code ok}. */
  protected static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }
}
