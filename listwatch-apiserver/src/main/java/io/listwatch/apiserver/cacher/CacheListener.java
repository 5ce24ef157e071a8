package io.listwatch.apiserver.cacher;

import java.util.List;

/**
 * An in-process observer of one resource's watch cache, for server components that keep their
 * own view of a resource (the RBAC authorizer's role and binding cache, the ClusterRole
 * aggregation controller): kube's informers over the server's own cache, without a watch.
 *
 * <p>Calls come from the {@link Cacher}'s storage delivery thread while it holds its dispatch
 * lock, one at a time and in resourceVersion order: first {@link #onReplace} with the whole
 * content, then {@link #onEvent} for each change after it is applied, and {@link #onReplace}
 * again if the cache relists. An implementation must return quickly, must not block, and must
 * not call back into the Cacher; hand longer work to its own thread. An exception it throws is
 * logged and does not stop the cache.
 */
public interface CacheListener {

  /** The cache's whole content at {@code resourceVersion}; replaces whatever was seen before. */
  void onReplace(List<CachedObject> objects, long resourceVersion);

  /** One change, already applied to the cache. */
  void onEvent(WatchCacheEvent event);

  /** A listener of {@code replaced} contents and of each change ({@code changed}). */
  static CacheListener of(java.util.function.Consumer<List<CachedObject>> replaced,
      java.util.function.Consumer<WatchCacheEvent> changed) {
    return new CacheListener() {
      @Override
      public void onReplace(List<CachedObject> objects, long resourceVersion) {
        replaced.accept(objects);
      }

      @Override
      public void onEvent(WatchCacheEvent event) {
        changed.accept(event);
      }
    };
  }

  /** A listener of each change only ({@code changed}); relists are not told. */
  static CacheListener ofChanges(java.util.function.Consumer<WatchCacheEvent> changed) {
    return of(objects -> { }, changed);
  }
}
