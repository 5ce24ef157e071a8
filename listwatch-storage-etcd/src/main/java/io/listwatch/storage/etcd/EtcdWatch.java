package io.listwatch.storage.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchResponse;
import io.listwatch.storage.KeyValue;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.Watch;
import io.listwatch.storage.WatchEvent;
import io.listwatch.storage.WatchListener;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link Watch} of an {@link EtcdStorage}: an etcd watch of a key range with previous
 * values, whose answers are queued here and handed to the listener by this watch's own
 * (virtual) delivery thread, so a slow listener never holds up jetcd's threads or other
 * watches.
 *
 * <p>The queue is bounded by {@link #MAX_QUEUED_EVENTS}. When a listener lags that far, the
 * etcd watch is cancelled; once the listener has drained the queue, a new etcd watch resumes
 * from the revision after the last queued event, which etcd replays from its history (or
 * answers with a compacted error, which ends this watch with {@code COMPACTED}). So memory
 * stays bounded and the listener still sees every change once, in order. The same resumption
 * mends a watch whose stream broke (an etcd member restarting, a connection lost): it is opened
 * again after a back-off (100 ms doubling to 5 s), for as long as the store is open; only
 * a compacted history or the store's close ends the watch. (jetcd itself resumes a stream that
 * failed with UNAVAILABLE, a member going away, without telling; an event it sends twice then
 * is dropped here.) As kube's watches of etcd, each requires a leader: a member cut off from the
 * majority ends the stream ("etcdserver: no leader", after about three election timeouts)
 * instead of going quiet while the others go on, and it is opened again, on a member that has one.
 *
 * <p>Thread-safe: jetcd calls arrive on its threads, the listener is called from the
 * delivery thread only, one call at a time.
 */
final class EtcdWatch implements Watch {

  private static final Logger LOG = LoggerFactory.getLogger(EtcdWatch.class);

  /** Events queued for the listener before the etcd watch is paused until it catches up. */
  static final int MAX_QUEUED_EVENTS = 10_000;
  /** The most events handed to the listener in one call when answers are queued. */
  static final int MAX_BATCH_EVENTS = 1_000;
  private static final long RETRY_DELAY_MS = 100;
  private static final long MAX_RETRY_DELAY_MS = 5_000;

  private final EtcdStorage storage;
  private final io.etcd.jetcd.Watch client;
  private final ByteSequence key;
  private final ByteSequence rangeEnd;
  private final WatchListener listener;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  /** Items for the listener: {@code List<WatchEvent>}, {@link Progress}, or a final {@link StorageException}. */
  private final ArrayDeque<Object> queue = new ArrayDeque<>();
  private int queuedEvents;
  /** The revision of the last event queued: a resumed etcd watch starts after it. */
  private long lastRevision;
  /** Counts etcd watches opened, so answers from a cancelled one are ignored. */
  private int generation;
  private io.etcd.jetcd.Watch.Watcher etcdWatcher;
  private boolean paused;
  /** The etcd watch failed for a passing reason; it is opened again at {@link #retryAtNanos}. */
  private boolean broken;
  private long retryAtNanos;
  /** Failures since the last answer from etcd, for the back-off. */
  private int failures;
  private boolean progressWanted;
  private boolean ended;
  /** Held while the listener is called, so that {@link #close} returns only after a running call. */
  private final ReentrantLock calling = new ReentrantLock();
  private volatile boolean closed;

  private record Progress(long revision) {
  }

  EtcdWatch(EtcdStorage storage, io.etcd.jetcd.Watch client, byte[] prefix, long fromRevision,
      WatchListener listener) {
    this.storage = storage;
    this.client = client;
    this.key = ByteSequence.from(prefix.length == 0 ? new byte[] {0} : prefix);
    this.rangeEnd = ByteSequence.from(EtcdStorage.prefixEnd(prefix));
    this.listener = listener;
    this.lastRevision = Math.max(0, fromRevision);
  }

  void start() {
    lock.lock();
    try {
      openEtcdWatch();
    } finally {
      lock.unlock();
    }
    Thread.ofVirtual().name("etcd-watch-" + key.toString()).start(this::deliver);
  }

  /** Opens an etcd watch from the revision after {@link #lastRevision}. Called with the lock held. */
  private void openEtcdWatch() {
    if (etcdWatcher != null) {
      etcdWatcher.close();
    }
    paused = false;
    broken = false;
    int gen = ++generation;
    WatchOption option = WatchOption.builder().withRange(rangeEnd).withRevision(lastRevision + 1)
        .withPrevKV(true).withProgressNotify(false).withRequireLeader(true).build();
    etcdWatcher = client.watch(key, option, new io.etcd.jetcd.Watch.Listener() {
      @Override
      public void onNext(WatchResponse response) {
        received(gen, response);
      }

      @Override
      public void onError(Throwable error) {
        failed(gen, error);
      }

      @Override
      public void onCompleted() {
      }
    });
    if (progressWanted) {
      progressWanted = false;
      etcdWatcher.requestProgress();
    }
  }

  private void received(int gen, WatchResponse response) {
    List<WatchEvent> events = new ArrayList<>(response.getEvents().size());
    StorageException error = null;
    for (io.etcd.jetcd.watch.WatchEvent e : response.getEvents()) {
      KeyValue kv = EtcdStorage.toKeyValue(e.getKeyValue());
      KeyValue prev = e.getPrevKV() == null || e.getPrevKV().getModRevision() == 0
          ? null : EtcdStorage.toKeyValue(e.getPrevKV());
      switch (e.getEventType()) {
        case PUT -> events.add(new WatchEvent(WatchEvent.Type.PUT, kv, prev));
        case DELETE -> {
          if (prev == null) {
            // etcd could not read the deleted version: its history is gone, the caller must relist
            error = StorageException.compacted(kv.modRevision() - 1, kv.modRevision());
          } else {
            events.add(new WatchEvent(WatchEvent.Type.DELETE,
                new KeyValue(kv.key(), null, prev.createRevision(), kv.modRevision(), 0), prev));
          }
        }
        default -> error = StorageException.unavailable("etcd sent an event of unknown type", null);
      }
      if (error != null) {
        break;
      }
    }
    long headerRevision = response.getHeader() == null ? 0 : response.getHeader().getRevision();
    lock.lock();
    try {
      if (gen != generation || ended) {
        return;
      }
      failures = 0;
      // jetcd resumes a broken stream by itself, from the revision of a progress notification
      // rather than the one after it, so an event already queued can come again: drop it
      long delivered = lastRevision;
      events.removeIf(e -> e.revision() <= delivered);
      if (!events.isEmpty()) {
        storage.seen(events.get(events.size() - 1).revision());
        queue.add(List.copyOf(events));
        queuedEvents += events.size();
        lastRevision = events.get(events.size() - 1).revision();
        if (queuedEvents >= MAX_QUEUED_EVENTS && error == null) {
          paused = true;
          etcdWatcher.close();
          generation++;
          LOG.debug("etcd watch of {} paused at revision {}: its listener lags {} events", key, lastRevision,
              queuedEvents);
        }
      }
      if (error != null) {
        end(error);
      } else if (response.isProgressNotify() && events.isEmpty()) {
        storage.seen(headerRevision);
        long progress = Math.max(headerRevision, lastRevision);
        if (!storage.verifyProgress() || progress == lastRevision) {
          queue.add(new Progress(progress));
        } else {
          verify(gen, lastRevision, progress);
        }
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Believes a progress notification of {@code progress} from an etcd that may send one ahead of
   * its events ({@link EtcdStorage#verifyProgress}) only if the store shows that nothing under the
   * prefix changed after {@code after}, the last revision queued, up to {@code progress}, and no
   * event was queued meanwhile; otherwise drops it (whoever wants progress asks again).
   */
  private void verify(int gen, long after, long progress) {
    storage.unchangedBetween(key, rangeEnd, after, progress).thenAccept(unchanged -> {
      if (!unchanged) {
        return;
      }
      lock.lock();
      try {
        if (gen == generation && !ended && lastRevision == after) {
          queue.add(new Progress(progress));
          changed.signalAll();
        }
      } finally {
        lock.unlock();
      }
    });
  }

  private void failed(int gen, Throwable error) {
    StorageException se = EtcdErrors.translate(error, lastRevision, storage);
    lock.lock();
    try {
      if (gen != generation || ended) {
        return;
      }
      if (se.code() == StorageException.Code.COMPACTED || storage.isClosed()) {
        end(se);
        return;
      }
      // the stream broke (a member restarting, a connection lost): watch again from where
      // delivery stands, after a back-off, for as long as the store is open
      failures++;
      long delayMs = Math.min(MAX_RETRY_DELAY_MS, RETRY_DELAY_MS << Math.min(failures - 1, 10));
      LOG.warn("etcd watch of {} broke after revision {} ({}); watching again in {} ms", key, lastRevision,
          se.getMessage(), delayMs);
      broken = true;
      retryAtNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs);
      generation++;
      etcdWatcher.close();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Ends the watch with {@code error}, delivered after what is queued. */
  void fail(StorageException error) {
    lock.lock();
    try {
      if (!ended) {
        end(error);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Called with the lock held. */
  private void end(StorageException error) {
    ended = true;
    generation++;
    if (etcdWatcher != null) {
      etcdWatcher.close();
    }
    queue.add(error);
    changed.signalAll();
  }

  /** The delivery thread: hands queued items to the listener, and resumes a paused etcd watch. */
  private void deliver() {
    try {
      while (true) {
        Object item;
        lock.lock();
        try {
          while (queue.isEmpty() && !closed) {
            if (broken ? System.nanoTime() - retryAtNanos >= 0 : paused) {
              openEtcdWatch();
            }
            if (broken) {
              changed.awaitNanos(retryAtNanos - System.nanoTime());
            } else {
              changed.await();
            }
          }
          if (closed) {
            return;
          }
          item = queue.poll();
          if (item instanceof List<?> batch) {
            queuedEvents -= batch.size();
            item = coalesce(batch);
          }
        } finally {
          lock.unlock();
        }
        calling.lock();
        try {
          if (closed) {
            return;
          }
          if (!call(item)) {
            return;
          }
        } finally {
          calling.unlock();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      storage.watchEnded(this);
    }
  }

  /**
   * The batch at the head of the queue joined with the batches queued right after it (etcd
   * sends about one event per answer under load), up to {@link #MAX_BATCH_EVENTS}, so the
   * listener takes its locks once per batch rather than once per event. Called with the lock held.
   */
  private List<?> coalesce(List<?> first) {
    if (!(queue.peek() instanceof List<?> next) || first.size() + next.size() > MAX_BATCH_EVENTS) {
      return first;
    }
    List<Object> joined = new ArrayList<>(first);
    while (queue.peek() instanceof List<?> more && joined.size() + more.size() <= MAX_BATCH_EVENTS) {
      queue.poll();
      queuedEvents -= more.size();
      joined.addAll(more);
    }
    return java.util.Collections.unmodifiableList(joined); // copied once, here; nobody else holds it
  }

  /** Calls the listener with one item; false once the watch is over. */
  @SuppressWarnings("unchecked")
  private boolean call(Object item) {
    try {
      if (item instanceof StorageException error) {
        listener.onError(error);
        return false;
      }
      if (item instanceof Progress p) {
        listener.onProgress(p.revision());
      } else {
        listener.onEvents((List<WatchEvent>) item);
      }
    } catch (RuntimeException e) {
      LOG.warn("etcd watch of {}: the listener threw; the watch ends", key, e);
      lock.lock();
      try {
        closed = true;
        end(StorageException.unavailable("the watch's listener failed", e));
      } finally {
        lock.unlock();
      }
      return false;
    }
    return true;
  }

  @Override
  public void requestProgress() {
    lock.lock();
    try {
      if (closed || ended) {
        return;
      }
      if (paused || broken) {
        progressWanted = true;
      } else {
        etcdWatcher.requestProgress();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      ended = true;
      generation++;
      if (etcdWatcher != null) {
        etcdWatcher.close();
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    storage.watchEnded(this);
    // wait for a listener call in progress, unless close is called from within it
    calling.lock();
    calling.unlock();
  }
}
