package io.listwatch.storage;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The durable key-value store under the API server, modelled on etcd's KV and watch.
 *
 * <h2>Revisions</h2>
 * Every committed change gets the next value of one store-wide counter, the revision. It is
 * strictly increasing, survives restarts and is never reused, so it serves as kube's
 * resourceVersion. A key carries the revision that created it ({@code createRevision}) and
 * the revision of its last change ({@code modRevision}). Failed operations consume no
 * revision.
 *
 * <h2>Consistency</h2>
 * Writes are linearizable: once a write's future completes, every later read (on any
 * thread) sees it, and {@link #currentRevision()} is at least its revision. A range is a
 * consistent snapshot at one revision, whatever writes run meanwhile. History is kept for a
 * window (see the implementation); reads and watches at revisions older than
 * {@link #compactedRevision()} fail with {@code COMPACTED}.
 *
 * <h2>Durability</h2>
 * A write's future completes only after the write is durable: a crash of the process or the
 * machine after that loses nothing acknowledged. Implementations group concurrent writes so
 * that durability does not cost one disk sync per write.
 *
 * <h2>Errors</h2>
 * Every failure is a {@link StorageException}, delivered by completing the future
 * exceptionally (bad arguments fail the future too, they are never thrown). A failed
 * operation changes nothing, with one exception a networked store cannot avoid: a write that
 * fails with {@code UNAVAILABLE} because the store stopped answering after the write was sent
 * may have been applied (the implementation says when).
 *
 * <h2>Threads</h2>
 * Implementations are thread-safe. Futures may complete on an internal thread: callers must
 * not block in dependent stages attached with the non-async methods.
 *
 * <p>The contract test suite ({@code StorageContract} and its topic classes, in this module's
 * test-jar) is the executable form of this contract; every implementation runs it.
 */
public interface Storage extends AutoCloseable {

  /** The latest version of {@code key}, or empty if it does not exist. */
  default CompletableFuture<Optional<KeyValue>> get(String key) {
    return get(key, 0);
  }

  /**
   * The version of {@code key} as of {@code revision} (0: the current revision), or empty if
   * the key did not exist then.
   */
  CompletableFuture<Optional<KeyValue>> get(String key, long revision);

  /** The keys under a prefix, in key order, at one revision. See {@link RangeRequest}. */
  CompletableFuture<RangeResult> range(RangeRequest request);

  /**
   * Creates {@code key}; fails with {@code KEY_EXISTS} (carrying the current version) when it
   * exists. Returns the stored version: {@code createRevision == modRevision}, version 1.
   */
  CompletableFuture<KeyValue> create(String key, byte[] value);

  /**
   * Replaces the value of {@code key} if its mod revision is {@code expectedModRevision}.
   * Fails with {@code KEY_NOT_FOUND} when the key does not exist and with {@code CONFLICT}
   * (carrying the current version) when its mod revision differs.
   */
  CompletableFuture<KeyValue> update(String key, byte[] value, long expectedModRevision);

  /**
   * Deletes {@code key} if its mod revision is {@code expectedModRevision}. Returns the
   * deleted version (as it was before the delete); the deletion's revision is
   * {@link #currentRevision()} at completion or later. Fails like {@link #update}.
   */
  CompletableFuture<KeyValue> delete(String key, long expectedModRevision);

  /**
   * Watches every key under {@code prefix} for changes committed after {@code fromRevision}
   * (exclusive), delivered in revision order as described by {@link WatchListener}. Passing
   * the revision of a range result yields exactly the changes after that snapshot. If
   * {@code fromRevision} is older than the retained history the listener gets
   * {@code COMPACTED} and nothing else. A {@code fromRevision} ahead of the store simply
   * waits for those revisions.
   */
  Watch watch(String prefix, long fromRevision, WatchListener listener);

  /**
   * The revision of the last committed change this instance knows of, without asking anyone
   * (0 for an empty, new embedded store). At least the revision of every write this instance
   * acknowledged; over a store shared by several processes it may lag their writes, which
   * {@link #readCurrentRevision()} does not.
   */
  long currentRevision();

  /**
   * The store's current revision as a linearizable read: at least the revision of every write
   * any client of the store had acknowledged when the call was made. A consistent read (kube's
   * list without resourceVersion) waits for this revision. The default, for a store that only
   * this process writes, is {@link #currentRevision()}.
   */
  default CompletableFuture<Long> readCurrentRevision() {
    return CompletableFuture.completedFuture(currentRevision());
  }

  /** The oldest revision still readable: reads and watches below it fail with COMPACTED. */
  long compactedRevision();

  /**
   * Discards history older than {@code revision}: afterwards reads at revisions below it and
   * watches from revisions below it fail with {@code COMPACTED}. Each key's latest version at
   * or below {@code revision} is kept. Fails with {@code FUTURE_REVISION} beyond the current
   * revision; compacting to a revision at or below the compacted one is a no-op.
   * Implementations also compact on their own, outside their retention window.
   */
  CompletableFuture<Void> compact(long revision);

  /**
   * Stops accepting work, ends every watch with {@code UNAVAILABLE}, and releases resources.
   * Writes already acknowledged stay durable. Idempotent.
   */
  @Override
  void close();
}
