package io.listwatch.client.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The {@link Indexer} informers keep their cache in (client-go's {@code threadSafeMap} behind
 * {@code cache.NewIndexer}): objects by key, plus named indexes mapping each index value to
 * the keys of the objects that have it.
 *
 * <h2>Consistency</h2>
 * Every write (add, update, delete, replace, addIndexers) changes the objects and every index
 * under one write lock, so a reader never sees an index that disagrees with the objects.
 * Reads take the read lock and run concurrently with each other. Lists returned are snapshots
 * taken under the read lock; the objects in them are shared and must not be mutated.
 *
 * <h2>Memory</h2>
 * Per object: one entry in the object map, and per index one entry in the key set of each of
 * its values. Nothing else is kept per key: an update recomputes the old object's values from
 * the old object instead of remembering them. Empty value buckets are removed, so churn in
 * index values does not leak.
 *
 * <p>Thread-safe. Index functions run under the write lock and must be pure and fast.
 *
 * @param <T> the object type
 */
public final class ThreadSafeStore<T> implements Indexer<T> {

  private final KeyFunc<T> keyFunc;

  /**
   * Guards {@link #items}, {@link #indexers} and {@link #indices}. Calls out only to the key
   * function (outside it) and index functions (under the write lock).
   */
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

  /** key → object. */
  @GuardedBy("lock")
  private HashMap<String, T> items = new HashMap<>();

  /** index name → function; replaced, never mutated, on addIndexers. */
  @GuardedBy("lock")
  private Map<String, IndexFunc<T>> indexers;

  /**
   * index name → value → keys of the objects having that value. Holds exactly the names of
   * {@link #indexers}; a value's key set is never empty.
   */
  @GuardedBy("lock")
  private final HashMap<String, HashMap<String, Set<String>>> indices = new HashMap<>();

  /**
   * @param keyFunc keys objects (informers use {@link KeyFunc#metaNamespace})
   * @param indexers the initial indexes by name; may be empty
   */
  public ThreadSafeStore(KeyFunc<T> keyFunc, Map<String, IndexFunc<T>> indexers) {
    this.keyFunc = Objects.requireNonNull(keyFunc, "keyFunc");
    Objects.requireNonNull(indexers, "indexers");
    this.indexers = Map.copyOf(indexers);
    for (String name : this.indexers.keySet()) {
      indices.put(name, new HashMap<>());
    }
  }

  /** A store without indexes. */
  public ThreadSafeStore(KeyFunc<T> keyFunc) {
    this(keyFunc, Map.of());
  }

  // ---- writes

  @Override
  public void add(T object) {
    put(object);
  }

  /**
   * Adds or replaces {@code object}, as {@link #add}, in one step with looking up what it
   * replaces: the object previously under its key, null if none.
   */
  T put(T object) {
    return put(keyFunc.key(object), object);
  }

  /** As {@link #put(Object)}, with {@code key}, which must be the key function's key of {@code object}. */
  T put(String key, T object) {
    lock.writeLock().lock();
    try {
      T old = items.put(key, object);
      updateIndices(old, object, key);
      return old;
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public void update(T object) {
    add(object);
  }

  @Override
  public void delete(T object) {
    deleteByKey(keyFunc.key(object));
  }

  /** Removes the object under {@code key}; no-op if absent. */
  public void deleteByKey(String key) {
    lock.writeLock().lock();
    try {
      T old = items.remove(key);
      if (old != null) {
        updateIndices(old, null, key);
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  /**
   * Replaces the whole content; the index is rebuilt from scratch. When {@code objects}
   * holds several objects with one key, the last wins. {@code resourceVersion} is ignored.
   */
  @Override
  public void replace(List<T> objects, String resourceVersion) {
    HashMap<String, T> next = HashMap.newHashMap(objects.size());
    for (T object : objects) {
      next.put(keyFunc.key(object), object);
    }
    lock.writeLock().lock();
    try {
      items = next;
      for (Map.Entry<String, IndexFunc<T>> e : indexers.entrySet()) {
        indices.put(e.getKey(), buildIndex(e.getValue()));
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** A plain store has nothing to resync. */
  @Override
  public void resync() {}

  @Override
  public void addIndexers(Map<String, IndexFunc<T>> newIndexers) {
    Objects.requireNonNull(newIndexers, "newIndexers");
    lock.writeLock().lock();
    try {
      for (String name : newIndexers.keySet()) {
        if (indexers.containsKey(name)) {
          throw new IllegalArgumentException("indexer conflict: index '" + name + "' already exists");
        }
      }
      Map<String, IndexFunc<T>> merged = new HashMap<>(indexers);
      merged.putAll(newIndexers);
      for (Map.Entry<String, IndexFunc<T>> e : newIndexers.entrySet()) {
        indices.put(e.getKey(), buildIndex(e.getValue()));
      }
      indexers = Map.copyOf(merged);
    } finally {
      lock.writeLock().unlock();
    }
  }

  // ---- reads

  @Override
  public List<T> list() {
    lock.readLock().lock();
    try {
      return new ArrayList<>(items.values());
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<String> listKeys() {
    lock.readLock().lock();
    try {
      return new ArrayList<>(items.keySet());
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public Optional<T> get(T object) {
    return getByKey(keyFunc.key(object));
  }

  @Override
  public Optional<T> getByKey(String key) {
    lock.readLock().lock();
    try {
      return Optional.ofNullable(items.get(key));
    } finally {
      lock.readLock().unlock();
    }
  }

  /** The number of objects. */
  public int size() {
    lock.readLock().lock();
    try {
      return items.size();
    } finally {
      lock.readLock().unlock();
    }
  }

  /** @throws IllegalArgumentException if {@code indexName} is not an index */
  @Override
  public List<T> index(String indexName, T object) {
    lock.readLock().lock();
    try {
      IndexFunc<T> func = indexFunc(indexName);
      HashMap<String, Set<String>> index = indices.get(indexName);
      List<String> values = func.values(object);
      if (values.size() == 1) {
        return objectsOf(index.get(values.get(0)));
      }
      Set<String> keys = new HashSet<>();
      for (String value : values) {
        Set<String> bucket = index.get(value);
        if (bucket != null) {
          keys.addAll(bucket);
        }
      }
      return objectsOf(keys);
    } finally {
      lock.readLock().unlock();
    }
  }

  /** @throws IllegalArgumentException if {@code indexName} is not an index */
  @Override
  public List<String> indexKeys(String indexName, String value) {
    lock.readLock().lock();
    try {
      indexFunc(indexName);
      Set<String> bucket = indices.get(indexName).get(value);
      return bucket == null ? new ArrayList<>() : new ArrayList<>(bucket);
    } finally {
      lock.readLock().unlock();
    }
  }

  /** @throws IllegalArgumentException if {@code indexName} is not an index */
  @Override
  public List<String> listIndexFuncValues(String indexName) {
    lock.readLock().lock();
    try {
      indexFunc(indexName);
      return new ArrayList<>(indices.get(indexName).keySet());
    } finally {
      lock.readLock().unlock();
    }
  }

  /** @throws IllegalArgumentException if {@code indexName} is not an index */
  @Override
  public List<T> byIndex(String indexName, String value) {
    lock.readLock().lock();
    try {
      indexFunc(indexName);
      return objectsOf(indices.get(indexName).get(value));
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public Map<String, IndexFunc<T>> indexers() {
    lock.readLock().lock();
    try {
      return indexers;
    } finally {
      lock.readLock().unlock();
    }
  }

  // ---- internals

  /** Caller holds the read or write lock. */
  private IndexFunc<T> indexFunc(String indexName) {
    IndexFunc<T> func = indexers.get(indexName);
    if (func == null) {
      throw new IllegalArgumentException("index '" + indexName + "' does not exist");
    }
    return func;
  }

  /** Caller holds the read lock. */
  private List<T> objectsOf(Collection<String> keys) {
    if (keys == null) {
      return new ArrayList<>();
    }
    List<T> out = new ArrayList<>(keys.size());
    for (String key : keys) {
      out.add(items.get(key));
    }
    return out;
  }

  /** Caller holds the write lock. */
  private HashMap<String, Set<String>> buildIndex(IndexFunc<T> func) {
    HashMap<String, Set<String>> index = new HashMap<>();
    for (Map.Entry<String, T> e : items.entrySet()) {
      for (String value : func.values(e.getValue())) {
        index.computeIfAbsent(value, v -> new HashSet<>(2)).add(e.getKey());
      }
    }
    return index;
  }

  /**
   * Moves {@code key} from the buckets of {@code old}'s values to those of {@code current}'s
   * (either may be null). Skips an index whose values did not change. Caller holds the write
   * lock.
   */
  private void updateIndices(T old, T current, String key) {
    for (Map.Entry<String, IndexFunc<T>> e : indexers.entrySet()) {
      IndexFunc<T> func = e.getValue();
      List<String> oldValues = old == null ? List.of() : func.values(old);
      List<String> newValues = current == null ? List.of() : func.values(current);
      if (oldValues.equals(newValues)) {
        continue;
      }
      HashMap<String, Set<String>> index = indices.get(e.getKey());
      for (String value : oldValues) {
        Set<String> bucket = index.get(value);
        if (bucket != null && bucket.remove(key) && bucket.isEmpty()) {
          index.remove(value);
        }
      }
      for (String value : newValues) {
        index.computeIfAbsent(value, v -> new HashSet<>(2)).add(key);
      }
    }
  }
}
