package io.listwatch.client.cache;

import io.listwatch.client.MetaAccessor;

/**
 * Computes the key an object is stored under. Must be a pure function of the object's
 * identity: two versions of one object have the same key.
 *
 * @param <T> the object type
 */
@FunctionalInterface
public interface KeyFunc<T> {

  /** The object's key. */
  String key(T object);

  /**
   * client-go's {@code MetaNamespaceKeyFunc}: {@code namespace/name}, or {@code name} for
   * cluster-scoped objects.
   */
  static <T> KeyFunc<T> metaNamespace(MetaAccessor<T> accessor) {
    return object -> {
      String ns = accessor.namespace(object);
      String name = accessor.name(object);
      return ns.isEmpty() ? name : ns + "/" + name;
    };
  }
}
