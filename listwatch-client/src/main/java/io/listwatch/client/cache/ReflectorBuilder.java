package io.listwatch.client.cache;

import io.listwatch.api.clock.Clock;
import io.listwatch.client.MetaAccessor;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.random.RandomGenerator;

/**
 * Configures a {@link Reflector} ({@link Reflector#builder}): its options, validated by
 * {@link #build()}. Defaults are client-go's. Not thread-safe; use from one thread.
 *
 * @param <T> the object type
 */
public final class ReflectorBuilder<T> {
  final String name;
  final ListerWatcher<T> listerWatcher;
  final Store<T> store;
  final MetaAccessor<T> accessor;
  Clock clock = Clock.system();
  long pageSize = 500;
  Duration resyncPeriod = Duration.ZERO;
  BooleanSupplier shouldResync = () -> true;
  boolean useWatchList;
  Duration minWatchTimeout = Duration.ofMinutes(5);
  Duration bookmarkInterval = Duration.ofMinutes(1);
  Duration initialBackoff = Backoff.DEFAULT_INITIAL;
  Duration maxBackoff = Backoff.DEFAULT_MAX;
  WatchErrorHandler watchErrorHandler;
  ReflectorListener listener = new ReflectorListener() {};
  RandomGenerator random = RandomGenerator.getDefault();

  ReflectorBuilder(String name, ListerWatcher<T> listerWatcher, Store<T> store,
      MetaAccessor<T> accessor) {
    this.name = Objects.requireNonNull(name, "name");
    this.listerWatcher = Objects.requireNonNull(listerWatcher, "listerWatcher");
    this.store = Objects.requireNonNull(store, "store");
    this.accessor = Objects.requireNonNull(accessor, "accessor");
  }

  public ReflectorBuilder<T> clock(Clock clock) { this.clock = Objects.requireNonNull(clock); return this; }
  /** Page size of lists (0: unpaged). Default 500. */
  public ReflectorBuilder<T> pageSize(long pageSize) { this.pageSize = pageSize; return this; }
  /** How often to call {@link Store#resync()} when {@code shouldResync} says so (0: never). */
  public ReflectorBuilder<T> resyncPeriod(Duration period, BooleanSupplier shouldResync) {
    this.resyncPeriod = period; this.shouldResync = shouldResync; return this;
  }
  /** Use a watch-list (sendInitialEvents) instead of a list, falling back to list. */
  public ReflectorBuilder<T> useWatchList(boolean useWatchList) { this.useWatchList = useWatchList; return this; }
  /** Watches time out after a random duration in [min, 2×min). Default 5 minutes. */
  public ReflectorBuilder<T> minWatchTimeout(Duration d) { this.minWatchTimeout = d; return this; }
  /**
   * The server's bookmark interval; a watch silent for twice this is replaced (0: never).
   * Default 1 min.
   */
  public ReflectorBuilder<T> bookmarkInterval(Duration d) { this.bookmarkInterval = d; return this; }
  /**
   * The first retry delay and the cap on later ones (before jitter, which adds up to as
   * much again). Default 800 ms and 30 s.
   */
  public ReflectorBuilder<T> backoff(Duration initial, Duration max) { this.initialBackoff = initial; this.maxBackoff = max; return this; }
  public ReflectorBuilder<T> watchErrorHandler(WatchErrorHandler h) { this.watchErrorHandler = h; return this; }
  public ReflectorBuilder<T> listener(ReflectorListener l) { this.listener = Objects.requireNonNull(l); return this; }
  /** The source of jitter and watch timeouts. Default: a fresh default generator. */
  public ReflectorBuilder<T> random(RandomGenerator random) { this.random = Objects.requireNonNull(random); return this; }

  /**
   * The reflector.
   *
   * @throws IllegalArgumentException for a negative page size or period, a watch timeout
   *     under a second, or backoff bounds out of order
   * @throws NullPointerException for a null duration
   */
  public Reflector<T> build() {
    requireArgument(pageSize >= 0, "pageSize must not be negative: " + pageSize);
    requireArgument(!Objects.requireNonNull(resyncPeriod, "resyncPeriod").isNegative(),
        "resyncPeriod must not be negative: " + resyncPeriod);
    Objects.requireNonNull(shouldResync, "shouldResync");
    requireArgument(Objects.requireNonNull(minWatchTimeout, "minWatchTimeout").toSeconds() >= 1,
        "minWatchTimeout must be at least 1s: " + minWatchTimeout);
    requireArgument(!Objects.requireNonNull(bookmarkInterval, "bookmarkInterval").isNegative(),
        "bookmarkInterval must not be negative: " + bookmarkInterval);
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    return new Reflector<>(this);
  }

  private static void requireArgument(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException(message);
    }
  }
}
