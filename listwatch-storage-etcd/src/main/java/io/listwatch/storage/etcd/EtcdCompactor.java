package io.listwatch.storage.etcd;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's etcd compactor: every interval, compacts the cluster to the revision it read
 * at the previous tick, so that at least one interval of history stays for watches to resume
 * from. Every replica may run one; a compaction to a revision already compacted is a no-op.
 * Thread-safe; one daemon thread.
 */
final class EtcdCompactor implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EtcdCompactor.class);

  private final EtcdStorage storage;
  private final ScheduledExecutorService timer;
  /** The revision read at the previous tick, 0 before the first; touched by the timer thread only. */
  private long previous;

  EtcdCompactor(EtcdStorage storage, Duration interval) {
    this.storage = storage;
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "etcd-compactor");
      t.setDaemon(true);
      return t;
    });
    long millis = interval.toMillis();
    timer.scheduleWithFixedDelay(this::tick, millis, millis, TimeUnit.MILLISECONDS);
  }

  private void tick() {
    try {
      long current = storage.readCurrentRevision().join();
      if (previous > 0) {
        storage.compact(previous).join();
        LOG.debug("compacted etcd to revision {}", previous);
      }
      previous = current;
    } catch (RuntimeException e) {
      LOG.warn("etcd compaction failed; trying again at the next interval: {}", EtcdErrors.describe(e));
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
