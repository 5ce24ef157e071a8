package io.listwatch.client.cache;

import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * A cache of one resource, kept up to date by list and watch, that notifies any number of
 * handlers (client-go's {@code SharedInformer}). The full contract is written on
 * {@link SharedIndexInformer}.
 *
 * @param <T> the object type
 */
public interface SharedInformer<T> extends AutoCloseable {

  /** Adds a handler with the informer's default resync period. */
  ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler<T> handler);

  /**
   * Adds a handler with its own resync period (0: no resync). Periods shorter than the
   * informer's resync check period are raised to it.
   */
  ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler<T> handler,
      Duration resyncPeriod);

  /** Removes a handler; its pending notifications are dropped. Idempotent. */
  void removeEventHandler(ResourceEventHandlerRegistration registration);

  /** The store the informer keeps up to date: read from it, never write to it. */
  Store<T> getStore();

  /** True once the first list has been delivered to the store. */
  boolean hasSynced();

  /** The resourceVersion of the last list or watch event the cache has applied. */
  String lastSyncResourceVersion();

  /**
   * Sets a function applied to every object before it is stored or delivered (e.g. to drop
   * managedFields). Only before {@link #start()}.
   */
  void setTransform(UnaryOperator<T> transform);

  /** Sets what is told of list and watch failures. Only before {@link #start()}. */
  void setWatchErrorHandler(WatchErrorHandler handler);

  /** Starts the informer's threads. Idempotent. */
  void start();

  /** Whether {@link #start()} was called and {@link #close()} not yet. */
  boolean isRunning();

  /** Stops every thread the informer started. Idempotent. */
  @Override
  void close();
}
