package io.listwatch.client.cache;

import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * A cache of one resource, kept up to date by list and watch, that notifies any number of
 * handlers (client-go's {@code SharedInformer}). The full contract (consistency, ordering,
 * handler threads, never mutating cached objects) is written on {@link SharedIndexInformer}.
 *
 * <p>Thread-safe. An informer runs once: after {@link #close()} it cannot be started again.
 *
 * @param <T> the object type
 */
public interface SharedInformer<T> extends AutoCloseable {

  /**
   * Adds a handler with the informer's default resync period. Before start, the handler
   * will see the first list as adds with {@code isInInitialList = true}; after start, it is
   * first sent the current cache as such adds, without pausing other handlers.
   *
   * @throws IllegalStateException if the informer was closed
   */
  ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler<T> handler);

  /**
   * Adds a handler with its own resync period (0: no resync). Periods shorter than the
   * informer's resync check period are raised to it. Before start, a period shorter than
   * the check period lowers the check period instead (to at least one second), as in
   * client-go.
   *
   * @throws IllegalStateException if the informer was closed
   */
  ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler<T> handler,
      Duration resyncPeriod);

  /**
   * Removes a handler and stops its thread; its pending notifications are dropped.
   * Idempotent; a registration of another informer is ignored.
   *
   * @throws IllegalArgumentException for a registration not made by a SharedInformer
   */
  void removeEventHandler(ResourceEventHandlerRegistration registration);

  /** The store the informer keeps up to date: read from it, never write to it. */
  Store<T> getStore();

  /** True once the first list has been applied to the store (sticky). */
  boolean hasSynced();

  /** The resourceVersion of the last list or watch event applied, "" before the first. */
  String lastSyncResourceVersion();

  /**
   * Sets a function applied to every object before it is queued, stored or delivered (e.g.
   * to drop managedFields). Same as {@link SharedIndexInformer.Builder#transform}.
   *
   * @throws IllegalStateException after {@link #start()}
   */
  void setTransform(UnaryOperator<T> transform);

  /**
   * Sets what is told of list and watch failures.
   *
   * @throws IllegalStateException after {@link #start()}
   */
  void setWatchErrorHandler(WatchErrorHandler handler);

  /**
   * Starts the informer's threads and returns. Idempotent.
   *
   * @throws IllegalStateException if the informer was closed
   */
  void start();

  /** Whether {@link #start()} was called and {@link #close()} not yet. */
  boolean isRunning();

  /**
   * Stops every thread the informer started and waits for them (bounded). Nothing is
   * delivered to handlers once this returns. Idempotent.
   */
  @Override
  void close();
}
