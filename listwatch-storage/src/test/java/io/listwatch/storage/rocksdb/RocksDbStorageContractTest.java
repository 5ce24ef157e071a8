package io.listwatch.storage.rocksdb;

import io.listwatch.storage.Storage;
import io.listwatch.storage.StorageCompactionContractTest;
import io.listwatch.storage.StorageCrudContractTest;
import io.listwatch.storage.StorageRangeContractTest;
import io.listwatch.storage.StorageRestartContractTest;
import io.listwatch.storage.StorageWatchContractTest;
import java.nio.file.Path;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the {@link Storage} contract suite, every topic, against the embedded RocksDB store:
 * each test opens a fresh store in its own temporary directory.
 */
class RocksDbStorageContractTest {

  private static Storage open(Path dir) {
    return RocksDbStorage.builder(dir).open();
  }

  private static Storage reopen(Path dir, Storage storage) {
    storage.close();
    return open(dir);
  }

  @Nested
  class Crud extends StorageCrudContractTest {
    @TempDir
    Path dir;

    @Override
    protected Storage openStorage() {
      return open(dir);
    }

    @Override
    protected Storage restart(Storage storage) {
      return reopen(dir, storage);
    }
  }

  @Nested
  class Range extends StorageRangeContractTest {
    @TempDir
    Path dir;

    @Override
    protected Storage openStorage() {
      return open(dir);
    }

    @Override
    protected Storage restart(Storage storage) {
      return reopen(dir, storage);
    }
  }

  @Nested
  class Watch extends StorageWatchContractTest {
    @TempDir
    Path dir;

    @Override
    protected Storage openStorage() {
      return open(dir);
    }

    @Override
    protected Storage restart(Storage storage) {
      return reopen(dir, storage);
    }

    /**
     * The contract's stuck-listener check, sized past the watcher's in-memory queue so the
     * stuck watch is dropped from live delivery and must catch up from the history log.
     */
    @Test
    void watch_stuckListenerPastMemoryQueue_catchesUpFromHistory() {
      assertStuckListenerBlocksNobody("/overflow/", Watcher.MAX_QUEUED + 2_000);
    }
  }

  @Nested
  class Compaction extends StorageCompactionContractTest {
    @TempDir
    Path dir;

    @Override
    protected Storage openStorage() {
      return open(dir);
    }

    @Override
    protected Storage restart(Storage storage) {
      return reopen(dir, storage);
    }
  }

  @Nested
  class Restart extends StorageRestartContractTest {
    @TempDir
    Path dir;

    @Override
    protected Storage openStorage() {
      return open(dir);
    }

    @Override
    protected Storage restart(Storage storage) {
      return reopen(dir, storage);
    }
  }
}
