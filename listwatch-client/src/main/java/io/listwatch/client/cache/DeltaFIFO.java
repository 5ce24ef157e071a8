package io.listwatch.client.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * client-go's {@code DeltaFIFO}: the queue between a {@link Reflector} (the producer) and an
 * informer's processing loop (the consumer). For each object key it accumulates the
 * {@link Delta}s seen since the key was last popped, and hands them to the consumer all at
 * once.
 *
 * <h2>What producers do</h2>
 * {@link #add} queues {@link DeltaType#ADDED}, {@link #update} {@link DeltaType#UPDATED},
 * {@link #delete} {@link DeltaType#DELETED} (ignored when the key is neither queued nor in
 * {@code knownObjects}: the consumer never saw it). {@link #replace} (a relist) queues
 * {@link DeltaType#REPLACED} for every listed object, then a {@code DELETED} with
 * {@link Delta#deletedFinalStateUnknown()} for every key that is queued or known but missing
 * from the list, carrying the last state this client saw (the newest queued object, else the
 * known one); keys whose newest queued delta is already a deletion get nothing more.
 * {@link #resync} queues {@link DeltaType#SYNC} with the known object for every known key
 * that is not queued. Two consecutive deletions of one key collapse into one, keeping the
 * observed one over an inferred ({@code deletedFinalStateUnknown}) one.
 *
 * <h2>What the consumer sees</h2>
 * <ul>
 *   <li>Per key: every delta, in the order it was queued, oldest first, in one batch per pop.
 *       Nothing is dropped or merged except consecutive deletions.
 *   <li>Across keys: keys are popped in the order they were first queued since their last
 *       pop. A key that gets a new delta while queued keeps its place; a key queued again
 *       after being popped goes to the back.
 *   <li>Pops are serialized: one {@link PopProcessor} runs at a time, and pops complete in
 *       queue order, whatever thread calls {@link #pop}.
 *   <li>The first {@code replace} (or a first {@code add}/{@code update}/{@code delete})
 *       fixes the initial population: the keys queued at that moment. Their pops get
 *       {@code isInInitialList = true}, and {@link #hasSynced} becomes true once all of them
 *       have been processed (after their processor returned or threw).
 * </ul>
 *
 * <h2>knownObjects</h2>
 * {@code knownObjects} is the consumer's store (the informer's indexer). The queue only
 * reads it, and assumes that it changes only inside a {@link PopProcessor}, which applies the
 * popped deltas to it.
 *
 * <h2>Concurrency: processing happens outside the queue lock</h2>
 * client-go holds the queue lock while the consumer processes a pop, which blocks the
 * reflector for as long as the informer takes to update its indexer and distribute
 * notifications. Here the processor runs with only {@link #popLock} held, so producers keep
 * queueing meanwhile. That opens one gap client-go does not have: while a key is being
 * processed it is neither queued nor (yet) in {@code knownObjects}, so a delete, relist or
 * resync arriving then would miss it. The queue closes the gap by remembering the key in
 * flight and its deltas: while it runs, that key counts as known with the state its deltas
 * lead to (present with the newest object, or absent if the newest delta is a deletion).
 *
 * <p>Thread-safe: any number of producers and consumers. Lock order: {@link #popLock}, then
 * {@link #lock}, then {@code knownObjects}' own lock. The processor must not call back into
 * this queue's {@code pop}.
 *
 * <h2>Memory</h2>
 * Unbounded by design, like client-go's: a producer is never blocked or refused, since
 * dropping a delta would corrupt the cache. It holds at most one entry per key, so the number
 * of distinct objects bounds the entries; the deltas per entry are those queued since the
 * key's last pop, so what bounds them is the event rate times how far the consumer lags.
 * Objects are shared, never copied: nobody may mutate an object after queueing it.
 *
 * @param <T> the object type
 */
public final class DeltaFIFO<T> implements Store<T> {

  /** Processes the deltas of one key, popped together. */
  @FunctionalInterface
  public interface PopProcessor<T> {
    /**
     * @param deltas the key's deltas, oldest first, never empty, unmodifiable
     * @param isInInitialList whether these deltas belong to the first list's items
     */
    void process(List<Delta<T>> deltas, boolean isInInitialList) throws Exception;
  }

  /** A {@link PopProcessor} also given the key; see {@link #popKeyed}. */
  @FunctionalInterface
  interface KeyedPopProcessor<T> {
    void process(String key, List<Delta<T>> deltas, boolean isInInitialList) throws Exception;
  }

  private final KeyFunc<T> keyFunc;

  /** The consumer's store; read, never written, by the queue. May be null. */
  private final Store<T> knownObjects;

  /**
   * Held for a whole {@link #pop}, processing included: pops run one at a time, in queue
   * order. Taken before {@link #lock}.
   */
  private final ReentrantLock popLock = new ReentrantLock();

  /** Guards every mutable field below. Never held while a {@link PopProcessor} runs. */
  private final ReentrantLock lock = new ReentrantLock();

  /**
   * Signalled when a key is queued or the queue is closed. Only the thread holding
   * {@link #popLock} waits on it.
   */
  private final Condition notEmpty = lock.newCondition();

  /**
   * key → its deltas since its last pop, oldest first, never empty. Invariant: a key is in
   * {@code items} iff it is in {@link #queue}. Replaced by a presized map when a
   * {@link #replace} finds it empty.
   */
  @GuardedBy("lock")
  private HashMap<String, List<Delta<T>>> items = new HashMap<>();

  /**
   * The keys of {@link #items}, each once, in the order of their first delta since their last
   * pop. Invariant: a key is in {@code queue} iff it is in {@code items}.
   */
  @GuardedBy("lock")
  private final ArrayDeque<String> queue = new ArrayDeque<>();

  /** The key whose deltas a processor is handling; null when none. */
  @GuardedBy("lock")
  private String inFlightKey;

  /** The deltas of {@link #inFlightKey}; null when none. */
  @GuardedBy("lock")
  private List<Delta<T>> inFlightDeltas;

  /** Whether a replace, add, update or delete has happened. */
  @GuardedBy("lock")
  private boolean populated;

  /** Pops of the initial population not yet completed. */
  @GuardedBy("lock")
  private int initialPopulationCount;

  @GuardedBy("lock")
  private boolean closed;

  /**
   * @param keyFunc keys objects
   * @param knownObjects what the consumer has already applied (the informer's indexer),
   *     used by {@link #replace} to find deletions and by {@link #resync}; may be null
   */
  public DeltaFIFO(KeyFunc<T> keyFunc, Store<T> knownObjects) {
    this.keyFunc = Objects.requireNonNull(keyFunc, "keyFunc");
    this.knownObjects = knownObjects;
  }

  // ---- producers

  @Override
  public void add(T object) {
    queueObserved(DeltaType.ADDED, object);
  }

  @Override
  public void update(T object) {
    queueObserved(DeltaType.UPDATED, object);
  }

  /** Queues a deletion, unless the key is neither queued nor known (client-go does the same). */
  @Override
  public void delete(T object) {
    String key = keyFunc.key(object);
    lock.lock();
    try {
      populated = true;
      if (!items.containsKey(key) && knownObject(key).isEmpty()) {
        return;
      }
      queueAction(key, new Delta<>(DeltaType.DELETED, object, false));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Queues the relist {@code objects} as {@link DeltaType#REPLACED}, then the inferred
   * deletions (see the class comment). {@code resourceVersion} is not used.
   */
  @Override
  public void replace(List<T> objects, String resourceVersion) {
    lock.lock();
    try {
      if (items.isEmpty()) {
        items = HashMap.newHashMap(objects.size());
      }
      // Keys queued before this replace stay at the front of the queue, in order; keys it
      // queues go to the back. Only keys queued before or known can be missing from the list.
      int queuedBefore = queue.size();
      List<String> known = knownKeys();
      boolean mayMissKeys = queuedBefore > 0 || !known.isEmpty();
      Set<String> listed = mayMissKeys ? HashSet.newHashSet(objects.size()) : null;
      for (T object : objects) {
        String key = keyFunc.key(object);
        if (listed != null) {
          listed.add(key);
        }
        queueAction(key, Delta.of(DeltaType.REPLACED, object));
      }
      if (mayMissKeys) {
        // Queued keys missing from the list. No key is added to the queue in this loop.
        Iterator<String> queued = queue.iterator();
        for (int i = 0; i < queuedBefore; i++) {
          String key = queued.next();
          if (!listed.contains(key)) {
            List<Delta<T>> deltas = items.get(key);
            Delta<T> newest = deltas.getLast();
            if (newest.type() != DeltaType.DELETED) {
              deltas.add(new Delta<>(DeltaType.DELETED, newest.object(), true));
            }
          }
        }
        // Known keys, not queued, missing from the list.
        for (String key : known) {
          if (!listed.contains(key) && !items.containsKey(key)) {
            Optional<T> last = knownObject(key);
            if (last.isPresent()) {
              queueAction(key, new Delta<>(DeltaType.DELETED, last.get(), true));
            }
          }
        }
      }
      if (!populated) {
        populated = true;
        initialPopulationCount = queue.size();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Queues {@link DeltaType#SYNC} for every known key that has no queued deltas. */
  @Override
  public void resync() {
    lock.lock();
    try {
      for (String key : knownKeys()) {
        if (!items.containsKey(key)) {
          Optional<T> known = knownObject(key);
          if (known.isPresent()) {
            queueAction(key, Delta.of(DeltaType.SYNC, known.get()));
          }
        }
      }
    } finally {
      lock.unlock();
    }
  }

  // ---- consumer

  /**
   * Blocks until a key has deltas, removes them and runs {@code processor} on them. Pops are
   * serialized by a pop lock (so they complete one at a time, in queue order); the queue lock
   * is not held while {@code processor} runs, so producers are not blocked by it.
   *
   * <p>If {@code processor} throws, the key's deltas are gone (they are not requeued) and the
   * exception propagates: unchecked ones and {@link InterruptedException} as they are, other
   * checked ones wrapped in an {@link UndeclaredThrowableException}.
   *
   * @return false when the queue is closed (nothing popped), even if keys are still queued
   * @throws InterruptedException if interrupted while waiting
   */
  public boolean pop(PopProcessor<T> processor) throws InterruptedException {
    Objects.requireNonNull(processor, "processor");
    return popKeyed((key, deltas, initial) -> processor.process(deltas, initial));
  }

  /**
   * As {@link #pop}, also giving the processor the key the deltas are queued under (every
   * delta's object has that key), so that the informer's delta loop need not compute it again.
   */
  boolean popKeyed(KeyedPopProcessor<T> processor) throws InterruptedException {
    popLock.lockInterruptibly();
    try {
      String key;
      List<Delta<T>> deltas;
      boolean initial;
      lock.lockInterruptibly();
      try {
        while (!closed && queue.isEmpty()) {
          notEmpty.await();
        }
        if (closed) {
          return false;
        }
        key = queue.removeFirst();
        deltas = items.remove(key);
        initial = initialPopulationCount > 0;
        inFlightKey = key;
        inFlightDeltas = deltas;
      } finally {
        lock.unlock();
      }
      try {
        processor.process(key, Collections.unmodifiableList(deltas), initial);
      } catch (RuntimeException | Error | InterruptedException e) {
        throw e;
      } catch (Exception e) {
        throw new UndeclaredThrowableException(e, "processing the deltas of " + key + " failed");
      } finally {
        lock.lock();
        try {
          inFlightKey = null;
          inFlightDeltas = null;
          if (initial) {
            initialPopulationCount--;
          }
        } finally {
          lock.unlock();
        }
      }
      return true;
    } finally {
      popLock.unlock();
    }
  }

  /**
   * True once the initial population (see the class comment) has been populated and every
   * pop of it has completed.
   */
  public boolean hasSynced() {
    lock.lock();
    try {
      return populated && initialPopulationCount == 0;
    } finally {
      lock.unlock();
    }
  }

  /** Number of keys with pending deltas. */
  public int size() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  /** Wakes blocked pops; later pops return false. Idempotent. */
  public void close() {
    lock.lock();
    try {
      closed = true;
      notEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Whether {@link #close()} was called; for tests. */
  boolean isClosed() {
    lock.lock();
    try {
      return closed;
    } finally {
      lock.unlock();
    }
  }

  // ---- reads: the newest delta of each queued key

  /** The newest queued object of every queued key, in queue order. */
  @Override
  public List<T> list() {
    lock.lock();
    try {
      List<T> out = new ArrayList<>(queue.size());
      for (String key : queue) {
        out.add(items.get(key).getLast().object());
      }
      return out;
    } finally {
      lock.unlock();
    }
  }

  /** The queued keys, in queue order. */
  @Override
  public List<String> listKeys() {
    lock.lock();
    try {
      return new ArrayList<>(queue);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Optional<T> get(T object) {
    return getByKey(keyFunc.key(object));
  }

  /** The newest queued object of {@code key}; empty if the key is not queued. */
  @Override
  public Optional<T> getByKey(String key) {
    lock.lock();
    try {
      List<Delta<T>> deltas = items.get(key);
      return deltas == null ? Optional.empty() : Optional.of(deltas.getLast().object());
    } finally {
      lock.unlock();
    }
  }

  /** A copy of the queued deltas of {@code key}, oldest first; empty if not queued. */
  public List<Delta<T>> deltas(String key) {
    lock.lock();
    try {
      List<Delta<T>> deltas = items.get(key);
      return deltas == null ? List.of() : List.copyOf(deltas);
    } finally {
      lock.unlock();
    }
  }

  // ---- internals

  private void queueObserved(DeltaType type, T object) {
    String key = keyFunc.key(object);
    lock.lock();
    try {
      populated = true;
      queueAction(key, Delta.of(type, object));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Appends {@code delta} to {@code key}'s deltas, queueing the key if it was not. Of two
   * consecutive deletions only one is kept: the newer, unless it is inferred
   * ({@code deletedFinalStateUnknown}). Caller holds {@link #lock}.
   */
  @GuardedBy("lock")
  private void queueAction(String key, Delta<T> delta) {
    List<Delta<T>> deltas = items.get(key);
    if (deltas == null) {
      deltas = new ArrayList<>(1);
      deltas.add(delta);
      items.put(key, deltas);
      queue.addLast(key);
      notEmpty.signal();
      return;
    }
    Delta<T> newest = deltas.getLast();
    if (newest.type() == DeltaType.DELETED && delta.type() == DeltaType.DELETED) {
      if (!delta.deletedFinalStateUnknown()) {
        deltas.set(deltas.size() - 1, delta);
      }
      return;
    }
    deltas.add(delta);
  }

  /**
   * The keys the consumer knows, counting the key in flight; empty without knownObjects.
   * Caller holds {@link #lock}.
   */
  @GuardedBy("lock")
  private List<String> knownKeys() {
    if (knownObjects == null) {
      return List.of();
    }
    List<String> keys = knownObjects.listKeys();
    if (inFlightKey == null) {
      return keys;
    }
    List<String> withInFlight = new ArrayList<>(keys.size() + 1);
    for (String key : keys) {
      if (!key.equals(inFlightKey)) {
        withInFlight.add(key);
      }
    }
    withInFlight.add(inFlightKey);
    return withInFlight;
  }

  /**
   * The consumer's object under {@code key}, as it is or, for the key in flight, as it will be
   * once its deltas are applied. Empty without knownObjects. Caller holds {@link #lock}.
   */
  @GuardedBy("lock")
  private Optional<T> knownObject(String key) {
    if (knownObjects == null) {
      return Optional.empty();
    }
    if (key.equals(inFlightKey)) {
      Delta<T> newest = inFlightDeltas.getLast();
      return newest.type() == DeltaType.DELETED ? Optional.empty() : Optional.of(newest.object());
    }
    return knownObjects.getByKey(key);
  }
}
