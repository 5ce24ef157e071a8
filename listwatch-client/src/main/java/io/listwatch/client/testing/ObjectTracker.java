package io.listwatch.client.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.ContinueToken;
import io.listwatch.api.ListOptions;
import io.listwatch.api.StatusException;
import io.listwatch.api.patch.PatchType;
import io.listwatch.api.patch.Patcher;
import io.listwatch.api.clock.Clock;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.client.ObjectCodec;
import io.listwatch.client.ResourceType;
import io.listwatch.client.WatchEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An in-memory API server's storage for tests: objects of every resource as JSON trees, one
 * global resourceVersion counter, and a bounded history of changes, with kube's semantics
 * (client-go's {@code testing.ObjectTracker}, plus real resourceVersions). A
 * {@link FakeClient} serves every {@link io.listwatch.client.ResourceClient} call from one
 * tracker; tests also use it directly to seed objects, to write as "another actor" (no
 * action is recorded), and to simulate what a server does to its watchers.
 *
 * <h2>How it works</h2>
 * <ul>
 *   <li><b>resourceVersion</b> is etcd's revision: every write (create, update, status update,
 *       patch, delete, a deletion deferred by finalizers) increments one counter shared by
 *       all resources and stamps it into {@code metadata.resourceVersion}. A list's
 *       resourceVersion is the counter (or the exact revision it was served at).
 *   <li><b>History</b>: every write appends a change (object and previous object) to a ring
 *       of {@link ObjectTrackerBuilder#historyLimit} entries. A watch from resourceVersion N replays the
 *       changes after N, then follows live writes; the state at an older revision N (an
 *       exact list, a continued list) is rebuilt by undoing the changes after N. Both need
 *       N at or above the oldest kept revision ({@link #compact()} moves it to now): older
 *       gets 410 Expired, in the stream for a watch, as kube answers.
 *   <li><b>Writes</b> follow the server, with the server's own metadata rules
 *       ({@link io.listwatch.api.meta.ObjectMetaRules}): uid and creationTimestamp on create,
 *       generation 1 for the types that track one ({@link ResourceType#tracksGeneration()}),
 *       generateName, 409 AlreadyExists, 404 NotFound, 409 Conflict for a stale non-empty
 *       resourceVersion (an empty one updates unconditionally), generation bumped when
 *       {@code spec} changes, an update keeps the stored {@code status} (for types with a
 *       status subresource) and a status update changes only {@code status} (404 for a type
 *       without one), an update that changes nothing is not a write, and an
 *       object with finalizers is only marked on delete (deletionTimestamp) until an update
 *       removes its last finalizer: that update is written, then the object deleted.
 *   <li><b>Watchers</b> each get a buffer of {@link ObjectTrackerBuilder#watchBufferSize} live events; one
 *       that falls further behind is ended, as kube-apiserver ends a slow watcher.
 * </ul>
 *
 * <h2>Concurrency</h2>
 * Thread-safe. One lock guards all state; events are queued to watchers under it, so every
 * watcher sees changes in resourceVersion order. Lock order: this tracker, then a watch.
 * Objects handed in are copied; objects handed out are copies.
 */
public final class ObjectTracker {

  /** Changes kept for watches and old lists unless configured otherwise. */
  public static final int DEFAULT_HISTORY_LIMIT = 10_000;
  /** Live events a watcher may fall behind by before it is ended, unless configured otherwise. */
  public static final int DEFAULT_WATCH_BUFFER_SIZE = 1_000;

  private final Clock clock;
  private final int watchBufferSize;

  private final ReentrantLock lock = new ReentrantLock();
  /** Signalled when a watch opens. Guarded by {@link #lock}. */
  private final Condition watchOpened = lock.newCondition();
  /** Current objects per resource, by key. Trees are never mutated. Guarded by {@link #lock}. */
  private final Map<ResourceType, TreeMap<String, ObjectNode>> objects = new HashMap<>();
  /** Guarded by {@link #lock}. */
  private final EventHistory history;
  /** The last resourceVersion written; 0 before the first write. Guarded by {@link #lock}. */
  private long resourceVersion;
  /** Open watches; stopped ones are pruned on the next write. Guarded by {@link #lock}. */
  private final List<TrackerWatch> watches = new ArrayList<>();

  ObjectTracker(ObjectTrackerBuilder b) {
    this.clock = b.clock;
    this.watchBufferSize = b.watchBufferSize;
    this.history = new EventHistory(b.historyLimit);
  }

  /** A tracker with the defaults and the system clock. */
  public static ObjectTracker create() {
    return builder().build();
  }

  public static ObjectTrackerBuilder builder() {
    return new ObjectTrackerBuilder();
  }

  // ---- seeding and reads --------------------------------------------------------------

  /**
   * Seeds an object, as create does but keeping a {@code uid}, {@code creationTimestamp}
   * and {@code generation} the object already has (fixtures); its resourceVersion is
   * replaced. Records no action.
   *
   * @return the stored object (a copy)
   * @throws StatusException as {@link #create}
   */
  public ObjectNode add(ResourceType type, ObjectNode object) {
    ObjectNode tree = object.deepCopy();
    lock.lock();
    try {
      FakeObjectMeta.prepareForCreate(type, tree, clock.now());
      ObjectNode meta = Trees.metadata(tree);
      for (String kept : List.of("uid", "creationTimestamp", "generation")) {
        if (object.path("metadata").hasNonNull(kept)) {
          meta.set(kept, object.path("metadata").get(kept).deepCopy());
        }
      }
      return insert(type, tree).deepCopy();
    } finally {
      lock.unlock();
    }
  }

  /** Seeds a typed object (see {@link #add(ResourceType, ObjectNode)}); returns it as stored. */
  public <T> T add(ResourceType type, ObjectCodec<T> codec, T object) {
    return Trees.decode(codec, add(type, Trees.encode(codec, object)));
  }

  /** The current object (a copy), if it exists. */
  public Optional<ObjectNode> get(ResourceType type, String namespace, String name) {
    String key = Trees.key(TrackerArgs.namespace(type, namespace, true), TrackerArgs.name(name));
    lock.lock();
    try {
      return Optional.ofNullable(objects(type).get(key)).map(ObjectNode::deepCopy);
    } finally {
      lock.unlock();
    }
  }

  /** The current objects of a resource in a namespace ({@code ""} or null: all), by key (copies). */
  public List<ObjectNode> list(ResourceType type, String namespace) {
    String ns = TrackerArgs.namespace(type, namespace, false);
    lock.lock();
    try {
      return Trees.inNamespace(objects(type), ns, null).values().stream().map(ObjectNode::deepCopy).toList();
    } finally {
      lock.unlock();
    }
  }

  /** The last resourceVersion written (0 before the first write). */
  public long resourceVersion() {
    lock.lock();
    try {
      return resourceVersion;
    } finally {
      lock.unlock();
    }
  }

  // ---- writes -------------------------------------------------------------------------

  /**
   * Creates an object as the server does (POST).
   *
   * @return the stored object (a copy)
   * @throws StatusException 409 AlreadyExists; 422 without a name (and generateName) or,
   *     for a namespaced resource, without a namespace; 400 for a wrong kind or apiVersion
   */
  public ObjectNode create(ResourceType type, ObjectNode object) {
    ObjectNode tree = object.deepCopy();
    lock.lock();
    try {
      FakeObjectMeta.prepareForCreate(type, tree, clock.now());
      return insert(type, tree).deepCopy();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Replaces an object (PUT), keeping its stored status.
   *
   * @throws StatusException 404 NotFound; 409 Conflict when {@code metadata.resourceVersion}
   *     is set and not the stored one; 422 without a name
   */
  public ObjectNode update(ResourceType type, ObjectNode object) {
    return replace(type, object.deepCopy(), false);
  }

  /**
   * Replaces an object's {@code status} only (PUT to {@code /status}); errors as {@link #update}.
   *
   * @throws StatusException also 404 NotFound for a type without a status subresource
   *     ({@link ResourceType#hasStatus()}), whose {@code /status} path the server does not serve
   */
  public ObjectNode updateStatus(ResourceType type, ObjectNode object) {
    if (!type.hasStatus()) {
      throw StatusException.pathNotFound();
    }
    return replace(type, object.deepCopy(), true);
  }

  /**
   * Applies a JSON merge patch (RFC 7386) to an object, as PATCH with
   * {@code application/merge-patch+json}; a {@code metadata.resourceVersion} in the patch is
   * a precondition. Status changes are ignored, as on the main resource in kube.
   *
   * @throws StatusException 404 NotFound; 409 Conflict; 400 for a patch that is not a JSON
   *     object or that renames the object
   */
  public ObjectNode mergePatch(ResourceType type, String namespace, String name, String patchJson) {
    return patch(type, namespace, name, PatchType.MERGE_PATCH, patchJson);
  }

  /**
   * Applies a patch of any {@link PatchType} as the server does (a JSON Patch, a merge patch,
   * or a strategic merge patch for built-in kinds); a {@code metadata.resourceVersion} the
   * patch sets is a precondition. Status changes are ignored, as on the main resource in kube.
   *
   * @throws StatusException 404 NotFound; 409 Conflict; 400 for a malformed patch or one that
   *     renames the object; 422 for a JSON Patch that cannot apply (a failed {@code test});
   *     415 for strategic merge of a kind that is not built in
   */
  public ObjectNode patch(ResourceType type, String namespace, String name, PatchType patchType, String patchJson) {
    String key = Trees.key(TrackerArgs.namespace(type, namespace, true), TrackerArgs.name(name));
    Patcher patcher = Patches.parse(type, patchType, patchJson);
    lock.lock();
    try {
      ObjectNode current = existing(type, key, name);
      ObjectNode patched = patcher.applyTo(current);
      String patchedName = Trees.meta(patched, "name");
      if (!patchedName.equals(name)) {
        throw StatusException.badRequest("the name of the object (" + patchedName
            + ") does not match the name on the URL (" + name + ")");
      }
      Trees.metadata(patched).put("namespace", Trees.meta(current, "namespace"));
      if (!type.namespaced()) {
        Trees.metadata(patched).remove("namespace");
      }
      return applyUpdate(type, key, current, patched, false).deepCopy();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Deletes an object (DELETE). One with finalizers is only marked (deletionTimestamp set,
   * a MODIFIED event) and goes once an update removes its last finalizer.
   *
   * @return true if it existed, false on 404
   */
  public boolean delete(ResourceType type, String namespace, String name) {
    String key = Trees.key(TrackerArgs.namespace(type, namespace, true), TrackerArgs.name(name));
    lock.lock();
    try {
      ObjectNode current = objects(type).get(key);
      if (current == null) {
        return false;
      }
      if (ObjectMetaRules.finalizers(current).isEmpty()) {
        remove(type, key, current);
      } else if (!ObjectMetaRules.isMarkedForDeletion(current)) {
        commit(type, key, ObjectMetaRules.markForDeletion(current, clock.now()), current);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  // ---- what a server does to its watchers --------------------------------------------

  /**
   * Sends a BOOKMARK at the current resourceVersion to every open watch that allows
   * bookmarks (kube-apiserver sends them about once a minute).
   */
  public void sendBookmarks() {
    lock.lock();
    try {
      ObjectNode bookmark = null;
      for (Iterator<TrackerWatch> it = watches.iterator(); it.hasNext(); ) {
        TrackerWatch w = it.next();
        if (w.isStopped()) {
          it.remove();
        } else if (w.wantsBookmarks()
            && !w.offer(TrackerWatch.TreeEvent.of(WatchEvent.Type.BOOKMARK, TrackerReads.bookmark(w.resource(), resourceVersion, false)))) {
          w.end();
          it.remove();
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Forgets the history up to the current resourceVersion (etcd's compaction): watches and
   * exact or continued lists from any older resourceVersion then get 410 Expired. Open
   * watches go on.
   */
  public void compact() {
    lock.lock();
    try {
      history.compact(resourceVersion);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Ends every open watch, as a dropped connection or a restarting server does: each reader
   * gets what was already queued, then the end of its stream.
   */
  public void closeAllWatches() {
    lock.lock();
    try {
      watches.forEach(TrackerWatch::end);
      watches.clear();
    } finally {
      lock.unlock();
    }
  }

  /** How many watches on {@code type} are open. */
  public int watchCount(ResourceType type) {
    lock.lock();
    try {
      return (int) watches.stream().filter(w -> w.resource().equals(type) && !w.isStopped()).count();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until at least {@code count} watches on {@code type} are open, e.g. until an
   * informer has finished its list and started watching.
   *
   * @return whether they were, within {@code timeout}
   */
  public boolean awaitWatches(ResourceType type, int count, Duration timeout) throws InterruptedException {
    long remaining = timeout.toNanos();
    lock.lock();
    try {
      while (watchCount(type) < count) {
        if (remaining <= 0) {
          return false;
        }
        remaining = watchOpened.awaitNanos(remaining);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  // ---- list and watch, for FakeClient --------------------------------------------------

  /**
   * A LIST with kube's resourceVersion rules: {@code ""}, {@code "0"} and NotOlderThan serve
   * the current state; {@code Exact}, or a limit with a resourceVersion, serves that exact
   * revision; a continue token serves the token's revision from its key on. At {@code "0"}
   * the limit is ignored, as kube's watch cache and the server ignore it
   * ({@link TrackerReads#listLimit}). A revision newer than the current one gets 504 Too
   * large resource version; one older than the history gets 410 Expired.
   */
  Page listPage(ResourceType type, String namespace, ListOptions options) {
    String ns = TrackerArgs.namespace(type, namespace, false);
    Filter filter = Filter.of(ns, options);
    long limit = TrackerReads.listLimit(options);
    lock.lock();
    try {
      long at;
      String start = null;
      boolean continuing = !options.continueToken().isEmpty();
      if (continuing) {
        ContinueToken token = ContinueToken.decode(options.continueToken());
        at = token.rv();
        start = token.startKey();
      } else {
        at = TrackerReads.listRevision(options, resourceVersion);
      }
      NavigableMap<String, ObjectNode> state =
          TrackerReads.stateAt(type, objects(type), history, resourceVersion, at, continuing);
      return Page.of(Trees.inNamespace(state, ns, start), filter, limit, at);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Opens a watch with kube's rules ({@link TrackerReads#watchStart}): the initial events or
   * the replayed changes, then live events; a watch from a resourceVersion older than the
   * history gets an ERROR 410 and ends, one newer than the current one an ERROR 504 (as from
   * the server: the watch is accepted, the error comes in the stream).
   */
  TrackerWatch watch(ResourceType type, String namespace, ListOptions options) {
    Filter filter = Filter.of(TrackerArgs.namespace(type, namespace, false), options);
    TrackerWatch watch;
    lock.lock();
    try {
      TrackerReads.WatchStart start = TrackerReads.watchStart(type, filter, options,
          Trees.inNamespace(objects(type), filter.namespace(), null), history, resourceVersion);
      if (start.failed()) {
        TrackerWatch failed = new TrackerWatch(type, filter, false, 0, start.events());
        failed.end();
        return failed;
      }
      watch = new TrackerWatch(type, filter, options.allowWatchBookmarks(), watchBufferSize, start.events());
      watches.add(watch);
      watchOpened.signalAll();
    } finally {
      lock.unlock();
    }
    Long timeoutSeconds = options.timeoutSeconds();
    if (timeoutSeconds != null && timeoutSeconds > 0) {
      watch.setTimeout(clock.schedule(Duration.ofSeconds(timeoutSeconds), watch::end));
    }
    return watch;
  }

  // ---- internals; all called with the lock held -------------------------------------

  private TreeMap<String, ObjectNode> objects(ResourceType type) {
    return objects.computeIfAbsent(type, t -> new TreeMap<>());
  }

  private ObjectNode existing(ResourceType type, String key, String name) {
    ObjectNode current = objects(type).get(key);
    if (current == null) {
      throw StatusException.notFound(type.group(), type.plural(), name);
    }
    return current;
  }

  private ObjectNode insert(ResourceType type, ObjectNode prepared) {
    String name = Trees.meta(prepared, "name");
    String key = Trees.key(Trees.meta(prepared, "namespace"), name);
    if (objects(type).containsKey(key)) {
      throw StatusException.alreadyExists(type.group(), type.plural(), name);
    }
    return commit(type, key, prepared, null);
  }

  private ObjectNode replace(ResourceType type, ObjectNode updated, boolean statusOnly) {
    String key = TrackerArgs.updateKey(type, updated);
    String name = Trees.meta(updated, "name");
    lock.lock();
    try {
      ObjectNode current = existing(type, key, name);
      return applyUpdate(type, key, current, updated, statusOnly).deepCopy();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Checks the resourceVersion precondition (a non-empty one must be the stored one),
   * prepares and commits an update; returns the stored tree.
   */
  private ObjectNode applyUpdate(ResourceType type, String key, ObjectNode current, ObjectNode updated,
      boolean statusOnly) {
    String name = Trees.meta(current, "name");
    String expected = Trees.meta(updated, "resourceVersion");
    if (!expected.isEmpty() && !expected.equals(Trees.meta(current, "resourceVersion"))) {
      throw StatusException.conflictModified(type.group(), type.plural(), name);
    }
    ObjectNode result = FakeObjectMeta.prepareForUpdate(type, updated, current, statusOnly);
    ObjectNode unchanged = current.deepCopy();
    Trees.metadata(unchanged).remove("resourceVersion");
    if (unchanged.equals(result)) {
      return current; // kube does not write an update that changes nothing
    }
    ObjectNode written = commit(type, key, result, current);
    if (ObjectMetaRules.isMarkedForDeletion(written) && ObjectMetaRules.finalizers(written).isEmpty()) {
      // the last finalizer is gone: the update is written (MODIFIED), then the deletion completes
      // (DELETED), as kube's registry does it; the caller gets the object the update wrote
      remove(type, key, written);
    }
    return written;
  }

  /** Stores {@code object} (new, or replacing {@code prev}) at the next resourceVersion. */
  private ObjectNode commit(ResourceType type, String key, ObjectNode object, ObjectNode prev) {
    long rv = ++resourceVersion;
    Trees.metadata(object).put("resourceVersion", Long.toString(rv));
    objects(type).put(key, object);
    record(new StoredEvent(rv, type, key, prev == null ? WatchEvent.Type.ADDED : WatchEvent.Type.MODIFIED,
        object, prev));
    return object;
  }

  /** Removes the object at {@code key}; its last state is {@code last}, stamped with the delete's revision. */
  private ObjectNode remove(ResourceType type, String key, ObjectNode last) {
    long rv = ++resourceVersion;
    ObjectNode prev = objects(type).remove(key);
    ObjectNode gone = Trees.restamp(last, rv);
    record(new StoredEvent(rv, type, key, WatchEvent.Type.DELETED, gone, prev));
    return gone;
  }

  private void record(StoredEvent event) {
    history.append(event);
    for (Iterator<TrackerWatch> it = watches.iterator(); it.hasNext(); ) {
      TrackerWatch w = it.next();
      if (w.isStopped()) {
        it.remove();
        continue;
      }
      if (!w.resource().equals(event.resource())) {
        continue;
      }
      TrackerWatch.TreeEvent seen = event.project(w.filter());
      if (seen != null && !w.offer(seen)) {
        w.end(); // too far behind: ended, as kube-apiserver ends a watcher it cannot feed
        it.remove();
      }
    }
  }
}
