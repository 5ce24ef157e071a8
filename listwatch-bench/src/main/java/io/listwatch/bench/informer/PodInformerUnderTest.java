package io.listwatch.bench.informer;

/**
 * One client's pod informer over every namespace, as {@code informer-sync} measures it in a
 * child JVM: {@link #connect} builds the client (before the heap baseline), {@link #start}
 * creates and starts the informer (the clock starts just before), and the run ends when
 * {@link #hasSynced()} is true and the cache holds every pod.
 *
 * <p>Confined to the child's main thread; the informer's own threads are the client's.
 */
interface PodInformerUnderTest extends AutoCloseable {

  /** Builds the client for the server at {@code url}; starts no informer. */
  void connect(String url) throws Exception;

  /** Creates the pod informer (all namespaces, no resync, no handler) and starts it. */
  void start() throws Exception;

  /** The client's own "has synced" flag. */
  boolean hasSynced();

  /** How many pods the informer's cache holds. */
  int cachedPods();

  /**
   * After the sync: adds an event handler to the running informer that runs {@code onUpdate}
   * on every update notification (the peers' and ours replay adds to a late handler; those
   * are not counted).
   */
  void onUpdates(Runnable onUpdate);

  /** What the cache holds per pod, e.g. {@code fabric8 Pod (typed)}: every comparison names it. */
  String holds();

  /** A line on how the client was configured, printed with the results. */
  String describe();

  /** Stops the informer and closes the client. */
  @Override
  void close() throws Exception;
}
