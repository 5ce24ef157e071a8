package io.listwatch.client.cache;

import io.listwatch.client.clock.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * TODO(reflector): client-go's Reflector (ListAndWatch). Builder fixed; body to do.
 *
 * @param <T> the object type
 */
public final class Reflector<T> implements AutoCloseable {

  private final Builder<T> config;

  private Reflector(Builder<T> config) {
    this.config = config;
  }

  /** @param name for logs and errors, e.g. {@code pods} (shown as {@code Reflector[pods]}) */
  public static <T> Builder<T> builder(String name, ListerWatcher<T> listerWatcher, Store<T> store,
      io.listwatch.client.MetaAccessor<T> accessor) {
    return new Builder<>(name, listerWatcher, store, accessor);
  }

  /**
   * Lists and watches until {@link #close()} (or the calling thread is interrupted),
   * retrying every failure with backoff. Called once, on a thread the owner provides.
   */
  public void run() {
    throw new UnsupportedOperationException("TODO(reflector)");
  }

  /** The resourceVersion of the last list or event delivered to the store, "" before any. */
  public String lastSyncResourceVersion() {
    throw new UnsupportedOperationException("TODO(reflector)");
  }

  /** Stops {@link #run()} and closes the open watch. Idempotent. */
  @Override
  public void close() {
    throw new UnsupportedOperationException("TODO(reflector)");
  }

  /** Configures a {@link Reflector}. Defaults are client-go's. */
  public static final class Builder<T> {
    final String name;
    final ListerWatcher<T> listerWatcher;
    final Store<T> store;
    final io.listwatch.client.MetaAccessor<T> accessor;
    Clock clock = Clock.system();
    long pageSize = 500;
    Duration resyncPeriod = Duration.ZERO;
    BooleanSupplier shouldResync = () -> true;
    boolean useWatchList;
    Duration minWatchTimeout = Duration.ofMinutes(5);
    Duration bookmarkInterval = Duration.ofMinutes(1);
    Duration initialBackoff = Duration.ofMillis(800);
    Duration maxBackoff = Duration.ofSeconds(30);
    WatchErrorHandler watchErrorHandler;
    ReflectorListener listener = new ReflectorListener() {};

    private Builder(String name, ListerWatcher<T> listerWatcher, Store<T> store,
        io.listwatch.client.MetaAccessor<T> accessor) {
      this.name = Objects.requireNonNull(name, "name");
      this.listerWatcher = Objects.requireNonNull(listerWatcher, "listerWatcher");
      this.store = Objects.requireNonNull(store, "store");
      this.accessor = Objects.requireNonNull(accessor, "accessor");
    }

    public Builder<T> clock(Clock clock) { this.clock = Objects.requireNonNull(clock); return this; }
    /** Page size of lists (0: unpaged). Default 500. */
    public Builder<T> pageSize(long pageSize) { this.pageSize = pageSize; return this; }
    /** How often to call {@link Store#resync()} when {@code shouldResync} says so (0: never). */
    public Builder<T> resyncPeriod(Duration period, BooleanSupplier shouldResync) {
      this.resyncPeriod = period; this.shouldResync = shouldResync; return this;
    }
    /** Use a watch-list (sendInitialEvents) instead of a list, falling back to list. */
    public Builder<T> useWatchList(boolean useWatchList) { this.useWatchList = useWatchList; return this; }
    /** Watches time out after a random duration in [min, 2×min). Default 5 minutes. */
    public Builder<T> minWatchTimeout(Duration d) { this.minWatchTimeout = d; return this; }
    /** The server's bookmark interval; a watch silent for twice this is replaced. Default 1 min. */
    public Builder<T> bookmarkInterval(Duration d) { this.bookmarkInterval = d; return this; }
    public Builder<T> backoff(Duration initial, Duration max) { this.initialBackoff = initial; this.maxBackoff = max; return this; }
    public Builder<T> watchErrorHandler(WatchErrorHandler h) { this.watchErrorHandler = h; return this; }
    public Builder<T> listener(ReflectorListener l) { this.listener = Objects.requireNonNull(l); return this; }

    public Reflector<T> build() {
      return new Reflector<>(this);
    }
  }
}
