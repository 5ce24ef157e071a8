/**
 * client-go's {@code tools/cache} in Java: the informer machinery.
 *
 * <p>Map: a {@link io.listwatch.client.cache.Reflector} (configured by
 * {@link io.listwatch.client.cache.ReflectorBuilder}) lists and watches through a
 * {@link io.listwatch.client.cache.ListerWatcher} and feeds a
 * {@link io.listwatch.client.cache.DeltaFIFO}; a
 * {@link io.listwatch.client.cache.SharedIndexInformer} pops the deltas, applies them to its
 * {@link io.listwatch.client.cache.Indexer} and then notifies every
 * {@link io.listwatch.client.cache.ResourceEventHandler} through its own buffer and thread.
 * {@link io.listwatch.client.cache.SharedInformerFactory} shares one informer per type.
 * {@link io.listwatch.client.cache.Lister} reads the cache;
 * {@link io.listwatch.client.cache.UndeltaStore} pushes the whole state on every change.
 */
package io.listwatch.client.cache;
