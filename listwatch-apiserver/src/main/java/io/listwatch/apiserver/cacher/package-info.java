/**
 * The watch cache: per resource, the current state as serialized bytes plus the parsed
 * attributes selectors need, and a ring buffer of recent events, fed by one storage watch and
 * fanned out to every client watch.
 *
 * <ul>
 *   <li>{@link io.listwatch.apiserver.cacher.Cacher}: one per resource; fills the cache from
 *       storage, follows the storage watch, serves list, get and watch, and dispatches each
 *       event to the matching {@link io.listwatch.apiserver.cacher.CacheWatcher}s.</li>
 *   <li>{@link io.listwatch.apiserver.cacher.WatchCache}: the state and the
 *       {@link io.listwatch.apiserver.cacher.EventHistory}; answers "as of which revision".</li>
 *   <li>{@link io.listwatch.apiserver.cacher.CachedObject},
 *       {@link io.listwatch.apiserver.cacher.WatchCacheEvent}: what is kept; an event's wire
 *       frame is built once per form (ADDED, MODIFIED, DELETED) and shared by every
 *       watcher.</li>
 *   <li>{@link io.listwatch.apiserver.cacher.CacheWatcher}: one client watch: a bounded queue of
 *       frames drained to a {@link io.listwatch.apiserver.cacher.WatchSink} (the transport) in
 *       one write per drain; a watcher whose queue fills is closed, never waited for.</li>
 *   <li>{@link io.listwatch.apiserver.cacher.CacheListener}: an in-process observer of a cache
 *       (the RBAC authorizer's policy cache), called with each applied event.</li>
 * </ul>
 */
package io.listwatch.apiserver.cacher;
