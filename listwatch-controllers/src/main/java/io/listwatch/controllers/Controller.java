package io.listwatch.controllers;

/**
 * A controller of the controller set: built over a {@link ControllerContext} (whose informers
 * it registers with before the factory starts), then {@link #run}. kube's controllers have the
 * same shape: constructors add informer handlers, {@code Run(workers, stopCh)} starts workers
 * once the caches have synced.
 *
 * <p>Implementations are thread-safe: {@link #close} may be called from any thread.
 */
public interface Controller extends AutoCloseable {

  /** The controller's name, e.g. {@code "deployment"}, as kube-controller-manager names it. */
  String name();

  /**
   * Starts {@code workers} worker threads once the informers this controller reads have
   * synced, and returns without waiting for them.
   */
  void run(int workers);

  /** Stops the workers and waits for them to finish the item at hand. Idempotent. */
  @Override
  void close();
}
