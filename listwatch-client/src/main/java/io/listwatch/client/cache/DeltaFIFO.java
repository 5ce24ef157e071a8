package io.listwatch.client.cache;

import java.util.List;
import java.util.Optional;

/**
 * TODO(store): client-go's DeltaFIFO. Signatures fixed; bodies and contract Javadoc to do.
 *
 * @param <T> the object type
 */
public final class DeltaFIFO<T> implements Store<T> {

  /** Processes the deltas of one key, popped together. */
  @FunctionalInterface
  public interface PopProcessor<T> {
    /**
     * @param deltas the key's deltas, oldest first, never empty
     * @param isInInitialList whether these deltas belong to the first list's items
     */
    void process(List<Delta<T>> deltas, boolean isInInitialList) throws Exception;
  }

  /**
   * @param keyFunc keys objects
   * @param knownObjects what the consumer has already applied (the informer's indexer),
   *     used by {@link #replace} to find deletions and by {@link #resync}; may be null
   */
  public DeltaFIFO(KeyFunc<T> keyFunc, Store<T> knownObjects) {
    throw new UnsupportedOperationException("TODO(store)");
  }

  @Override public void add(T object) { throw new UnsupportedOperationException(); }
  @Override public void update(T object) { throw new UnsupportedOperationException(); }
  @Override public void delete(T object) { throw new UnsupportedOperationException(); }
  @Override public List<T> list() { throw new UnsupportedOperationException(); }
  @Override public List<String> listKeys() { throw new UnsupportedOperationException(); }
  @Override public Optional<T> get(T object) { throw new UnsupportedOperationException(); }
  @Override public Optional<T> getByKey(String key) { throw new UnsupportedOperationException(); }
  @Override public void replace(List<T> objects, String resourceVersion) { throw new UnsupportedOperationException(); }
  @Override public void resync() { throw new UnsupportedOperationException(); }

  /**
   * Blocks until a key has deltas, removes them and runs {@code processor} on them (under
   * the queue's pop lock, so pops are processed one at a time and in order).
   *
   * @return false when the queue was closed (nothing popped)
   */
  public boolean pop(PopProcessor<T> processor) throws InterruptedException {
    throw new UnsupportedOperationException();
  }

  /** True once every item of the first {@link #replace} (or first add) has been popped. */
  public boolean hasSynced() { throw new UnsupportedOperationException(); }

  /** Number of keys with pending deltas. */
  public int size() { throw new UnsupportedOperationException(); }

  /** Wakes blocked pops; later pops return false. Idempotent. */
  public void close() { throw new UnsupportedOperationException(); }

  public boolean isClosed() { throw new UnsupportedOperationException(); }
}
