package io.listwatch.storage.etcd;

import io.listwatch.storage.Storage;
import io.listwatch.storage.StorageCompactionContractTest;
import io.listwatch.storage.StorageCrudContractTest;
import io.listwatch.storage.StorageRangeContractTest;
import io.listwatch.storage.StorageRestartContractTest;
import io.listwatch.storage.StorageWatchContractTest;
import io.listwatch.storage.etcd.testing.EtcdServer;
import io.listwatch.testsupport.EndToEnd;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the {@link Storage} contract suite, every topic, against {@link EtcdStorage} over a real
 * etcd: one etcd process for the class, and for each test a store in a namespace of its own (a
 * fresh, empty key space; the revision counter is the cluster's, which the contract only
 * asks to take the next value at each change). A restart stops and starts the etcd process on
 * its data, so the restart tests check etcd's durability too.
 */
@EndToEnd
class EtcdStorageContractTest {

  @TempDir
  static Path dir;
  static EtcdServer etcd;
  private static final AtomicInteger TESTS = new AtomicInteger();

  @BeforeAll
  static void startEtcd() throws Exception {
    etcd = EtcdServer.start(dir);
  }

  @AfterAll
  static void stopEtcd() throws Exception {
    if (etcd != null) {
      etcd.close();
    }
  }

  private static Storage open(String namespace) {
    return EtcdStorage.builder(List.of(etcd.endpoint())).namespace(namespace)
        .compactionInterval(Duration.ZERO).requestTimeout(Duration.ofSeconds(20)).open();
  }

  private static Storage reopen(String namespace, Storage storage) throws Exception {
    storage.close();
    etcd.restart();
    return open(namespace);
  }

  private static String newNamespace() {
    return "/test-" + TESTS.incrementAndGet();
  }

  @Nested
  class Crud extends StorageCrudContractTest {
    private final String namespace = newNamespace();

    @Override
    protected Storage openStorage() {
      return open(namespace);
    }

    @Override
    protected Storage restart(Storage storage) throws Exception {
      return reopen(namespace, storage);
    }

    @Override
    protected int maxValueBytes() {
      return EtcdStorage.DEFAULT_MAX_VALUE_BYTES;
    }
  }

  @Nested
  class Range extends StorageRangeContractTest {
    private final String namespace = newNamespace();

    @Override
    protected Storage openStorage() {
      return open(namespace);
    }

    @Override
    protected Storage restart(Storage storage) throws Exception {
      return reopen(namespace, storage);
    }
  }

  @Nested
  class Watch extends StorageWatchContractTest {
    private final String namespace = newNamespace();

    @Override
    protected Storage openStorage() {
      return open(namespace);
    }

    @Override
    protected Storage restart(Storage storage) throws Exception {
      return reopen(namespace, storage);
    }

    /**
     * The contract's stuck-listener check, sized past the watch's queue so that the etcd watch
     * is paused and the stuck listener must catch up from etcd's history.
     */
    @Test
    void watch_stuckListenerPastQueue_catchesUpFromHistory() {
      assertStuckListenerBlocksNobody("/overflow/", EtcdWatch.MAX_QUEUED_EVENTS + 2_000);
    }
  }

  @Nested
  class Compaction extends StorageCompactionContractTest {
    private final String namespace = newNamespace();

    @Override
    protected Storage openStorage() {
      return open(namespace);
    }

    @Override
    protected Storage restart(Storage storage) throws Exception {
      return reopen(namespace, storage);
    }
  }

  @Nested
  class Restart extends StorageRestartContractTest {
    private final String namespace = newNamespace();

    @Override
    protected Storage openStorage() {
      return open(namespace);
    }

    @Override
    protected Storage restart(Storage storage) throws Exception {
      return reopen(namespace, storage);
    }
  }
}
