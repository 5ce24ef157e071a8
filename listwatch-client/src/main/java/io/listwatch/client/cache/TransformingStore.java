package io.listwatch.client.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The store an informer's {@link Reflector} writes to: applies the informer's transform to
 * every object on its way into the {@link DeltaFIFO} (client-go's {@code TransformFunc}), so
 * only transformed objects are ever queued, cached or delivered, and tells the informer after
 * each {@link #replace} (a list with no items syncs the queue without anything to pop).
 *
 * <p>Thread-safe if the delegate is; the transform runs on the calling (reflector) thread.
 *
 * @param <T> the object type
 */
final class TransformingStore<T> implements Store<T> {

  private final Store<T> delegate;
  private final UnaryOperator<T> transform;
  private final Runnable afterReplace;

  /**
   * @param transform applied to every object written; identity for none
   * @param afterReplace run after every replace
   */
  TransformingStore(Store<T> delegate, UnaryOperator<T> transform, Runnable afterReplace) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.transform = Objects.requireNonNull(transform, "transform");
    this.afterReplace = Objects.requireNonNull(afterReplace, "afterReplace");
  }

  private T transform(T object) {
    T out = transform.apply(object);
    if (out == null) {
      throw new IllegalStateException("the informer's transform returned null for " + object);
    }
    return out;
  }

  @Override
  public void add(T object) {
    delegate.add(transform(object));
  }

  @Override
  public void update(T object) {
    delegate.update(transform(object));
  }

  @Override
  public void delete(T object) {
    delegate.delete(transform(object));
  }

  @Override
  public void replace(List<T> objects, String resourceVersion) {
    List<T> transformed = new ArrayList<>(objects.size());
    for (T object : objects) {
      transformed.add(transform(object));
    }
    delegate.replace(transformed, resourceVersion);
    afterReplace.run();
  }

  @Override
  public void resync() {
    delegate.resync();
  }

  @Override
  public List<T> list() {
    return delegate.list();
  }

  @Override
  public List<String> listKeys() {
    return delegate.listKeys();
  }

  @Override
  public Optional<T> get(T object) {
    return delegate.get(object);
  }

  @Override
  public Optional<T> getByKey(String key) {
    return delegate.getByKey(key);
  }
}
