package io.listwatch.storage.memory;

import io.listwatch.storage.Storage;
import io.listwatch.storage.StorageCompactionContractTest;
import io.listwatch.storage.StorageCrudContractTest;
import io.listwatch.storage.StorageRangeContractTest;
import io.listwatch.storage.StorageRestartContractTest;
import io.listwatch.storage.StorageWatchContractTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Runs the {@link Storage} contract suite, every topic, against the in-memory store: each
 * test opens a store on new, empty data, and a restart opens a new store on the data the
 * closed one left behind.
 */
class MemoryStorageContractTest {

  private static Storage open() {
    return MemoryStorage.builder().open();
  }

  private static Storage reopen(Storage storage) {
    MemoryData data = ((MemoryStorage) storage).data();
    storage.close();
    return MemoryStorage.builder().data(data).open();
  }

  @Nested
  class Crud extends StorageCrudContractTest {
    @Override
    protected Storage openStorage() {
      return open();
    }

    @Override
    protected Storage restart(Storage storage) {
      return reopen(storage);
    }
  }

  @Nested
  class Range extends StorageRangeContractTest {
    @Override
    protected Storage openStorage() {
      return open();
    }

    @Override
    protected Storage restart(Storage storage) {
      return reopen(storage);
    }
  }

  @Nested
  class Watch extends StorageWatchContractTest {
    @Override
    protected Storage openStorage() {
      return open();
    }

    @Override
    protected Storage restart(Storage storage) {
      return reopen(storage);
    }

    /**
     * The contract's stuck-listener check, sized past the watch's in-memory queue so the
     * stuck watch must catch up from the change log.
     */
    @Test
    void watch_stuckListenerPastMemoryQueue_catchesUpFromHistory() {
      assertStuckListenerBlocksNobody("/overflow/", MemoryWatcher.MAX_PENDING * 10 + 2_000);
    }
  }

  @Nested
  class Compaction extends StorageCompactionContractTest {
    @Override
    protected Storage openStorage() {
      return open();
    }

    @Override
    protected Storage restart(Storage storage) {
      return reopen(storage);
    }
  }

  @Nested
  class Restart extends StorageRestartContractTest {
    @Override
    protected Storage openStorage() {
      return open();
    }

    @Override
    protected Storage restart(Storage storage) {
      return reopen(storage);
    }
  }
}
