package io.listwatch.client.cache;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * client-go's {@code UndeltaStore}: a {@link Store} that, after every change, pushes its
 * whole content to a consumer. For consumers that want the complete state rather than
 * changes (a kubelet's pod source, for instance).
 *
 * <p>Every {@link #add}, {@link #update}, {@link #delete} and {@link #replace} pushes the
 * complete list of objects as they are right after that change, even when the change left
 * the content as it was (deleting an absent key, say). {@link #resync} pushes nothing.
 *
 * <p>Thread-safe. Changes are serialized and each push happens before the next change is
 * applied, so pushes arrive in change order and each reflects exactly the changes before it.
 * The push runs on the changing thread while other changes wait: it should be quick. Reads
 * do not wait for pushes. The pushed list is the consumer's to keep; the objects in it are
 * shared and must not be mutated.
 *
 * @param <T> the object type
 */
public final class UndeltaStore<T> implements Store<T> {

  private final ThreadSafeStore<T> store;
  private final Consumer<List<T>> push;

  /** Serializes each change with its push, so pushes are in change order. */
  private final ReentrantLock changeLock = new ReentrantLock();

  /**
   * @param keyFunc keys objects
   * @param push receives the complete content after each change
   */
  public UndeltaStore(KeyFunc<T> keyFunc, Consumer<List<T>> push) {
    this.store = new ThreadSafeStore<>(keyFunc);
    this.push = Objects.requireNonNull(push, "push");
  }

  @Override
  public void add(T object) {
    change(() -> store.add(object));
  }

  @Override
  public void update(T object) {
    change(() -> store.update(object));
  }

  @Override
  public void delete(T object) {
    change(() -> store.delete(object));
  }

  @Override
  public void replace(List<T> objects, String resourceVersion) {
    change(() -> store.replace(objects, resourceVersion));
  }

  /** Nothing to resync; pushes nothing. */
  @Override
  public void resync() {}

  @Override
  public List<T> list() {
    return store.list();
  }

  @Override
  public List<String> listKeys() {
    return store.listKeys();
  }

  @Override
  public Optional<T> get(T object) {
    return store.get(object);
  }

  @Override
  public Optional<T> getByKey(String key) {
    return store.getByKey(key);
  }

  private void change(Runnable mutation) {
    changeLock.lock();
    try {
      mutation.run();
      push.accept(store.list());
    } finally {
      changeLock.unlock();
    }
  }
}
