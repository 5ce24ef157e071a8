/**
 * The embedded {@link io.listwatch.storage.Storage} on RocksDB.
 *
 * <h2>Layout</h2>
 * Four column families:
 * <ul>
 *   <li>{@code kv}: every retained version. Key: the UTF-8 key, a NUL byte, then the bitwise
 *       complement of the revision (big-endian), so the versions of one key sit together,
 *       newest first, and a seek to {@code key NUL ~R} lands on the newest version at or
 *       below revision R. Value: type (put or tombstone), create revision, version, bytes.</li>
 *   <li>{@code log}: one entry per revision (big-endian revision → type, create revision,
 *       version, previous mod revision, key). It orders the changes for watches that read
 *       history, and tells compaction which versions a revision wrote.</li>
 *   <li>{@code time}: about one entry per second of writes (commit time in ms → the last
 *       revision committed by then), so compaction can keep "the last five minutes".</li>
 *   <li>{@code default}: the current revision and the compacted revisions.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * One committer thread ({@link io.listwatch.storage.rocksdb.Committer}) validates writes
 * against an in-memory index of live keys, assigns revisions and writes each group of queued
 * writes as one synced RocksDB write batch: group commit. It then publishes the revision and
 * hands the events to the {@link io.listwatch.storage.rocksdb.WatcherHub}. Reads run on the
 * caller's thread against a RocksDB snapshot, bounded by the published revision, so they
 * never see a write before it is durable. Each watch has one virtual thread that delivers its
 * events; a watch that lags reads history from {@code log} instead of holding memory. A
 * compactor thread drops history older than the retention window.
 */
package io.listwatch.storage.rocksdb;
