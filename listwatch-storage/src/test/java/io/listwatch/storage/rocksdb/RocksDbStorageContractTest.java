package io.listwatch.storage.rocksdb;

import io.listwatch.storage.Storage;
import io.listwatch.storage.StorageContractTest;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the {@link StorageContractTest} suite against the embedded RocksDB store. */
class RocksDbStorageContractTest extends StorageContractTest {

  @TempDir
  Path dir;

  @Override
  protected Storage openStorage() {
    return RocksDbStorage.builder(dir).open();
  }

  @Override
  protected Storage restart(Storage storage) {
    storage.close();
    return RocksDbStorage.builder(dir).open();
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
