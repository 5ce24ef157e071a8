/**
 * The in-memory {@link io.listwatch.storage.Storage}: etcd's MVCC model without a disk, for
 * tests and for an in-memory API server on a fake clock. It passes the same contract suite
 * as the embedded RocksDB store.
 *
 * <p>Map of the package:
 * <ul>
 *   <li>{@link io.listwatch.storage.memory.MemoryStorage}: the store and its builder; reads,
 *       guarded writes, compaction (on demand and by retention on each write) and watches.
 *       Its Javadoc states the threads and what is bounded.</li>
 *   <li>{@link io.listwatch.storage.memory.MemoryData}: what the store keeps, and what a
 *       restart keeps: the role of RocksDB's directory. One lock guards it and the store
 *       open on it.</li>
 *   <li>{@code KeyHistory}: the retained versions of one key (etcd's keyIndex), tombstones
 *       included.</li>
 *   <li>{@code RevisionLog}: the retained changes, one per revision, with commit times: what
 *       a watch from a past revision replays and what retention dates.</li>
 *   <li>{@code MemoryWatcher}: one watch: a bounded queue fed by writers while the watch is
 *       in sync, refilled from the log while it lags, and delivered on the watch executor.</li>
 *   <li>{@code Utf8Order}: key order (UTF-8 bytes) on strings, without encoding them.</li>
 * </ul>
 */
package io.listwatch.storage.memory;
