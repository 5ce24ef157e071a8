package io.listwatch.client.testing;

import io.listwatch.api.clock.Clock;
import java.util.Objects;

/** Configures an {@link ObjectTracker} ({@link ObjectTracker#builder()}). Not thread-safe. */
public final class ObjectTrackerBuilder {
  int historyLimit = ObjectTracker.DEFAULT_HISTORY_LIMIT;
  int watchBufferSize = ObjectTracker.DEFAULT_WATCH_BUFFER_SIZE;
  Clock clock = Clock.system();

  ObjectTrackerBuilder() {
  }

  /** How many changes are kept for watches and old lists; default {@value ObjectTracker#DEFAULT_HISTORY_LIMIT}. */
  public ObjectTrackerBuilder historyLimit(int changes) {
    if (changes < 1) {
      throw new IllegalArgumentException("historyLimit must be positive, got " + changes);
    }
    this.historyLimit = changes;
    return this;
  }

  /**
   * How many live events a watcher may have unread before it is ended; default
   * {@value ObjectTracker#DEFAULT_WATCH_BUFFER_SIZE}.
   */
  public ObjectTrackerBuilder watchBufferSize(int events) {
    if (events < 1) {
      throw new IllegalArgumentException("watchBufferSize must be positive, got " + events);
    }
    this.watchBufferSize = events;
    return this;
  }

  /** The clock for creationTimestamp, deletionTimestamp and watch timeouts; default the system clock. */
  public ObjectTrackerBuilder clock(Clock value) {
    this.clock = Objects.requireNonNull(value, "clock");
    return this;
  }

  public ObjectTracker build() {
    return new ObjectTracker(this);
  }
}
