/**
 * The durable layer under the API server, modelled on etcd's KV and watch.
 *
 * <p>Map of the package:
 * <ul>
 *   <li>{@link io.listwatch.storage.Storage}: the one storage interface. Every implementation
 *       (the embedded {@code rocksdb} store, the in-memory {@code memory} store for tests and
 *       fakes, the etcd store of a later step) passes the same
 *       contract test suite ({@code StorageContract} and its topic classes
 *       {@code StorageCrudContractTest}, {@code StorageRangeContractTest},
 *       {@code StorageWatchContractTest}, {@code StorageCompactionContractTest},
 *       {@code StorageRestartContractTest}), shipped in this module's test-jar.</li>
 *   <li>{@link io.listwatch.storage.KeyValue}, {@link io.listwatch.storage.WatchEvent}: what is
 *       stored and what a watch delivers.</li>
 *   <li>{@link io.listwatch.storage.RangeRequest} / {@link io.listwatch.storage.RangeResult}:
 *       prefix ranges with paging and reads at a past revision.</li>
 *   <li>{@link io.listwatch.storage.Watch}, {@link io.listwatch.storage.WatchListener}: the
 *       change feed of a key prefix.</li>
 *   <li>{@link io.listwatch.storage.StorageException}: the one coded error type; the API server
 *       translates its codes to HTTP Status in one place.</li>
 *   <li>{@link io.listwatch.storage.Keys}: the key and value rules every implementation
 *       enforces.</li>
 * </ul>
 */
package io.listwatch.storage;
