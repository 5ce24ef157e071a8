package io.listwatch.client;

import java.util.Map;

/**
 * Reads the {@code metadata} of objects of type {@code T}: what the cache needs to key,
 * index and order objects (client-go's {@code meta.Accessor}).
 *
 * <p>Implementations are stateless and thread-safe. Methods never mutate the object. Absent
 * fields read as {@code ""} (strings) or an empty map, never null.
 *
 * @param <T> the object type
 */
public interface MetaAccessor<T> {

  /** {@code metadata.namespace}, {@code ""} for cluster-scoped objects. */
  String namespace(T object);

  /** {@code metadata.name}. */
  String name(T object);

  /** {@code metadata.resourceVersion}. */
  String resourceVersion(T object);

  /** {@code metadata.uid}. */
  String uid(T object);

  /** {@code metadata.labels}, unmodifiable. */
  Map<String, String> labels(T object);

  /** {@code metadata.annotations}, unmodifiable. */
  Map<String, String> annotations(T object);
}
