package io.listwatch.apiserver.cacher;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;

/**
 * One client watch fed by a {@link Cacher}: a bounded queue of wire frames, drained to its
 * {@link WatchSink} on the connection's event loop.
 *
 * <h2>Flow</h2>
 * The cacher's dispatch thread decides, per event, which form this watcher gets (an object
 * that starts matching the filter arrives as ADDED, one that stops matching as DELETED) and
 * enqueues that form's shared frame. Draining writes everything queued (up to
 * {@link #BATCH} frames per write) and flushes once: the queue is where socket writes are
 * coalesced. One drain writes at most about {@link #TURN_BYTES} and leaves the rest to its
 * sink's next turn ({@link WatchSink#nextTurn}), so that a watch with thousands of initial
 * events does not hold up the other connections of its event loop while it writes them. Initial events (a watch from resourceVersion "" or "0", or a watch-list) and
 * replayed history (a watch from resourceVersion N) are the backlog: written first, straight
 * from the snapshot or the history, without occupying the queue.
 *
 * <h2>Slow watchers</h2>
 * The queue holds at most {@code capacity} frames. While the connection is not writable the
 * watcher stops draining; when the queue is then full, {@link #offer} returns false and the
 * cacher terminates the watcher (kube does the same). The client re-watches from the last
 * resourceVersion it saw. Nobody ever waits for a slow watcher. A write to the sink that fails
 * (it cannot allocate its frames, say) ends the watch the same way: the events it took off the
 * queue are lost, so the watch must not go on past them.
 *
 * <h2>Threads</h2>
 * {@link #offer}, {@link #offerFrame}, {@link #tick} run on the cacher's dispatch thread
 * (under its dispatch lock); {@link #drain} on the sink's event loop. {@link #lock} guards
 * the fields marked so; {@link #backlog} is set before the watcher is registered and then
 * used only on the event loop.
 */
public final class CacheWatcher {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CacheWatcher.class);
  static final int BATCH = 64;
  /** What one drain writes at most, give or take a batch: a fraction of a millisecond's work. */
  static final int TURN_BYTES = 256 * 1024;

  private final WatchFilter filter;
  private final WatchSink sink;
  private final int capacity;
  private final long startResourceVersion;
  private final BookmarkTimer bookmarks;
  private final Runnable onClosed;

  private final java.util.concurrent.CompletableFuture<Void> ended = new java.util.concurrent.CompletableFuture<>();
  private final Object lock = new Object();
  /** Each entry is one event line, as its parts. */
  @GuardedBy("lock")
  private final ArrayDeque<byte[][]> queue = new ArrayDeque<>();
  @GuardedBy("lock")
  private boolean drainScheduled;
  @GuardedBy("lock")
  private boolean ending;
  @GuardedBy("lock")
  private boolean closed;
  /** Events to write before the queue: initial ADDED events or replayed history. */
  private Iterator<byte[][]> backlog; // event loop, after registration
  private byte[] afterBacklog; // event loop, after registration

  /**
   * @param startResourceVersion live events at or below it are skipped (the watch starts there)
   * @param bookmarks when bookmarks and the end of the watch are due; null for none
   * @param onClosed called once when the watch ends for any reason
   */
  CacheWatcher(WatchFilter filter, WatchSink sink, int capacity, long startResourceVersion,
      BookmarkTimer bookmarks, Runnable onClosed) {
    this.filter = filter;
    this.sink = sink;
    this.capacity = capacity;
    this.startResourceVersion = startResourceVersion;
    this.bookmarks = bookmarks;
    this.onClosed = onClosed;
  }

  /**
   * Sets the initial ADDED events (a watch from "" or "0", or a watch-list), and a frame to
   * send right after them (or null).
   */
  void setInitial(List<CachedObject> objects, byte[] after) {
    WatchEncoding encoding = sink.encoding();
    Iterator<CachedObject> it = objects.iterator();
    this.backlog = new Iterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public byte[][] next() {
        // JSON: the cached bytes between a shared prefix and suffix; protobuf: encoded per watcher
        return encoding.event(WatchCacheEvent.Type.ADDED, it.next().json());
      }
    };
    this.afterBacklog = after;
  }

  /**
   * Sets the history to replay (a watch from resourceVersion N): written before the queue,
   * so it may be longer than the queue's capacity, as in kube.
   */
  void setHistory(List<WatchCacheEvent> events) {
    List<byte[][]> frames = new java.util.ArrayList<>();
    for (WatchCacheEvent e : events) {
      byte[][] f = frameFor(e);
      if (f != null) {
        frames.add(f);
      }
    }
    this.backlog = frames.iterator();
  }

  public WatchFilter filter() {
    return filter;
  }

  /** Where this watch writes (its {@code toString} names the client, for log lines). */
  WatchSink sink() {
    return sink;
  }

  // ---- dispatch thread ---------------------------------------------------------------

  /**
   * Queues {@code event} in the form this watcher should see, if any. Returns false when the
   * watcher is over or cannot keep up (the caller then terminates it).
   */
  boolean offer(WatchCacheEvent event) {
    return deliver(event) != Delivery.REFUSED;
  }

  /** What {@link #deliver} did with an event. */
  enum Delivery {
    /** Queued for the client. */
    QUEUED,
    /**
     * Not for this watcher: filtered out, at or before its starting point, or arriving after
     * the watch was asked to {@link #end} (it ends after what is queued, and its client
     * watches again from the last event it got).
     */
    SKIPPED,
    /** The watcher is over or cannot keep up: the caller terminates it. */
    REFUSED
  }

  /** Like {@link #offer}, telling whether the event was queued (the cacher counts deliveries). */
  Delivery deliver(WatchCacheEvent event) {
    byte[][] frame = frameFor(event);
    if (frame == null) {
      return Delivery.SKIPPED;
    }
    return offerParts(frame);
  }

  /** The frame of the form this watcher should see {@code event} in, or null for none. */
  private byte[][] frameFor(WatchCacheEvent event) {
    if (event.resourceVersion() <= startResourceVersion) {
      return null;
    }
    boolean now = event.type() != WatchCacheEvent.Type.DELETED && filter.matches(event.object());
    boolean before = event.prevObject() != null && filter.matches(event.prevObject());
    WatchCacheEvent.Type form;
    if (now && before) {
      form = WatchCacheEvent.Type.MODIFIED;
    } else if (now) {
      form = WatchCacheEvent.Type.ADDED;
    } else if (before) {
      form = WatchCacheEvent.Type.DELETED;
    } else {
      return null;
    }
    return event.frame(form, sink.encoding());
  }

  /** Queues a ready-made frame (a bookmark); false when over or full. */
  boolean offerFrame(byte[] frame) {
    return offerParts(new byte[][] {frame}) != Delivery.REFUSED;
  }

  private Delivery offerParts(byte[][] frame) {
    synchronized (lock) {
      if (closed) {
        return Delivery.REFUSED;
      }
      if (ending) {
        return Delivery.SKIPPED; // not queued: counting it as delivered would count an event never sent
      }
      if (queue.size() >= capacity) {
        return Delivery.REFUSED;
      }
      queue.add(frame);
      scheduleDrainLocked();
      return Delivery.QUEUED;
    }
  }

  /** Sends due bookmarks (at {@code cacheResourceVersion}) and ends the watch at its deadline. */
  void tick(long nowNanos, long cacheResourceVersion, String apiVersion, String kind) {
    if (bookmarks == null) {
      return;
    }
    if (bookmarks.deadlineReached(nowNanos)) {
      end();
    } else if (bookmarks.bookmarkDue(nowNanos) && cacheResourceVersion > 0) {
      offerFrame(sink.encoding().bookmark(apiVersion, kind, Math.max(cacheResourceVersion, startResourceVersion),
          false));
    }
  }

  /** Ends the watch normally once what is queued has been written (timeout, shutdown). */
  public void end() {
    synchronized (lock) {
      if (closed || ending) {
        return;
      }
      ending = true;
      scheduleDrainLocked();
    }
  }

  @GuardedBy("lock")
  private void scheduleDrainLocked() {
    if (!drainScheduled) {
      drainScheduled = true;
      sink.executor().execute(this::drain);
    }
  }

  /** Drops the connection: this watcher could not keep up. Idempotent. */
  void terminate() {
    if (markClosed()) {
      sink.executor().execute(sink::abort);
      ended.complete(null);
    }
  }

  // ---- event loop ----------------------------------------------------------------------

  /**
   * Writes what is queued while the connection accepts it, up to about {@link #TURN_BYTES}
   * (the rest in the sink's next turn); call again when it is writable.
   */
  public void drain() {
    synchronized (lock) {
      drainScheduled = false;
      if (closed) {
        return;
      }
    }
    boolean wrote = false;
    long turn = 0;
    try {
      while (sink.isWritable() && turn < TURN_BYTES) {
        byte[][] batch = backlog != null ? nextBacklogBatch() : nextQueuedBatch();
        if (batch == null) {
          break;
        }
        for (byte[] part : batch) {
          turn += part.length;
        }
        sink.write(batch);
        wrote = true;
      }
      if (wrote) {
        sink.flush();
      }
    } catch (RuntimeException | OutOfMemoryError e) {
      // the batch taken off the queue is lost (a sink that cannot allocate its frames, say): the
      // watch ends here, so that its client resumes from the last event it got, never past a gap
      LOG.warn("ending the watch of {}: writing its events failed: {}", sink, e.toString());
      if (markClosed()) {
        sink.abort();
        ended.complete(null);
      }
      return;
    }
    boolean finish;
    synchronized (lock) {
      if (turn >= TURN_BYTES && sink.isWritable() && !closed && (backlog != null || !queue.isEmpty())) {
        if (!drainScheduled) {
          drainScheduled = true;
          sink.nextTurn(this::drain);
        }
        return;
      }
      finish = ending && !closed && queue.isEmpty() && backlog == null;
    }
    if (finish && markClosed()) {
      sink.end();
      ended.complete(null); // after the end is written, so a shutdown that waits for it loses nothing
    }
  }

  /** Completes when the watch is over: its end written, aborted, or its client gone. */
  java.util.concurrent.CompletableFuture<Void> ended() {
    return ended;
  }

  // Both batch builders keep the WatchSink.write contract: one component per part of an event
  // (prefix, object, suffix) or per whole single-event frame, never one spanning two events.

  private byte[][] nextBacklogBatch() {
    List<byte[]> parts = new java.util.ArrayList<>(BATCH * 3 + 1);
    int events = 0;
    while (events < BATCH && backlog.hasNext()) {
      for (byte[] part : backlog.next()) {
        parts.add(part);
      }
      events++;
    }
    if (!backlog.hasNext()) {
      backlog = null;
      if (afterBacklog != null) {
        parts.add(afterBacklog);
        afterBacklog = null;
      }
    }
    if (parts.isEmpty()) {
      return nextQueuedBatch();
    }
    return parts.toArray(new byte[0][]);
  }

  private byte[][] nextQueuedBatch() {
    List<byte[]> parts;
    synchronized (lock) {
      parts = new java.util.ArrayList<>(Math.min(BATCH, queue.size()) * 3);
      for (int i = 0; i < BATCH && !queue.isEmpty(); i++) {
        for (byte[] part : queue.poll()) {
          parts.add(part);
        }
      }
    }
    if (parts.isEmpty()) {
      return null;
    }
    return parts.toArray(new byte[0][]);
  }

  /** The connection closed (the client went away). Idempotent. */
  public void onSinkClosed() {
    markClosed();
    ended.complete(null);
  }

  private boolean markClosed() {
    synchronized (lock) {
      if (closed) {
        return false;
      }
      closed = true;
      queue.clear();
    }
    onClosed.run();
    return true;
  }

  boolean isClosed() {
    synchronized (lock) {
      return closed;
    }
  }

  int queued() {
    synchronized (lock) {
      return queue.size();
    }
  }
}
