package io.listwatch.bench.server;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What a fleet of watches received: events, watch states, the write-to-receive latency
 * of every event whose send time (decimal {@link System#nanoTime()} after a marker, within
 * the event's first bytes) lies in the window set by {@link #recordSentBetween}, and per
 * watch the writes it saw ({@link SeenWrites}: the sequence number after the send time and a
 * {@code '-'}, see {@link Pods#sentPatch}).
 *
 * <p>The send time is the write's intended send time, its slot on the writers' schedule, not
 * when it left: so a write the load generator sent late counts its wait too (no coordinated
 * omission). Latencies go into an HdrHistogram (3 significant digits, nanoseconds, resized as
 * needed: no allocation per event once it has grown).
 *
 * <p>The send time is stamped by a writer thread of this JVM and read back by the watch
 * reader of this JVM, so the latency is a difference of one clock. (On Linux
 * {@code System.nanoTime} is {@code CLOCK_MONOTONIC}, one clock for the whole machine, so
 * stamps would stay comparable even across the server's JVM; nothing here relies on that.)
 *
 * <p>Thread confinement: every method except the {@code published*} getters,
 * {@link #recordSentBetween} and {@link #watch} (any thread) is called by the one thread that
 * reads the watches; it calls {@link #publish} after each batch of reads, which makes the
 * counters visible to other threads through volatile fields. The histogram, the watches'
 * records and the first failure may be read by another thread once the reading thread has
 * ended (or been joined).
 */
final class WatchTally {

  /** How many leading bytes of each event are searched for the send time. */
  static final int HEAD = 256;

  private final byte[] marker;
  private final Histogram latencies = new Histogram(3);
  private final List<SeenWrites> watches = new ArrayList<>(); // guarded by itself
  private volatile long windowFrom = Long.MAX_VALUE;
  private volatile long windowTo = Long.MIN_VALUE;
  private volatile boolean closing;

  private long events;
  private long unparsed;
  private int streaming;
  private int ended;
  private int failed;
  private String firstFailure;
  private int markerAt = -1;

  private volatile long publishedEvents;
  private volatile int publishedStreaming;
  private volatile int publishedEnded;
  private volatile int publishedFailed;
  private volatile String publishedFirstFailure;

  private final int skip;

  /**
   * @param marker what precedes the send time in an event
   * @param skipAfterMarker bytes between the marker and the send time's digits (a protobuf
   *     string's length)
   */
  WatchTally(String marker, int skipAfterMarker) {
    this.marker = marker.getBytes(StandardCharsets.US_ASCII);
    this.skip = skipAfterMarker;
  }

  /**
   * The benchmark is about to close the watches (any thread): ends from now on are its own,
   * not the server's.
   */
  void closing() {
    closing = true;
  }

  /** Latencies are recorded for events whose send time lies in [from, to) (nanoTime). */
  void recordSentBetween(long fromNanos, long toNanos) {
    windowTo = toNanos;
    windowFrom = fromNanos;
  }

  /**
   * A new watch's record of the writes it sees, for its parser to pass to {@link #event}; any
   * thread (parsers are made on the thread that opens the watches, or on the reading one).
   */
  SeenWrites watch() {
    SeenWrites w = new SeenWrites();
    synchronized (watches) {
      watches.add(w);
    }
    return w;
  }

  /** Once the reading thread has ended: every watch's record, in the order they were made. */
  List<SeenWrites> watches() {
    synchronized (watches) {
      return List.copyOf(watches);
    }
  }

  // ---- the reading thread ----------------------------------------------------------------

  /** A watch's response head arrived: it streams from now on. */
  void started() {
    streaming++;
  }

  /**
   * A watch ended: by the server (null failure) or with {@code failure}; {@code wasStreaming}
   * says whether it had started. {@code watch} is its record (null when the failure is not
   * one watch's); one the server ended before {@link #closing} is marked so.
   */
  void stopped(SeenWrites watch, boolean wasStreaming, String failure) {
    if (wasStreaming) {
      streaming--;
    }
    if (failure == null) {
      ended++;
      if (watch != null && wasStreaming && !closing) {
        watch.endedByServer();
      }
    } else {
      failed++;
      if (firstFailure == null) {
        firstFailure = failure;
      }
    }
  }

  /**
   * One event of {@code watch} received at {@code now}, whose first {@code len} bytes (at most
   * {@link #HEAD}; the whole event if it is shorter) are in {@code head}.
   */
  void event(SeenWrites watch, byte[] head, int len, long now) {
    events++;
    int at = markerAt;
    if (!matchesAt(head, len, at)) {
      at = indexOf(head, len, marker);
      if (at < 0) {
        if (len > 0) {
          unparsed++;
        }
        return;
      }
      markerAt = at; // the marker sits at the same offset in nearly every event: try it first
    }
    int i = at + marker.length + skip;
    long sent = 0;
    int digits = 0;
    for (; i < len && head[i] >= '0' && head[i] <= '9'; i++) {
      sent = sent * 10 + (head[i] - '0');
      digits++;
    }
    int seq = 0;
    int seqDigits = 0;
    if (i < len && head[i] == '-') {
      for (i++; i < len && head[i] >= '0' && head[i] <= '9' && seqDigits < 9; i++) {
        seq = seq * 10 + (head[i] - '0');
        seqDigits++;
      }
    }
    if (digits == 0 || seqDigits == 0) {
      unparsed++;
      return;
    }
    watch.saw(seq);
    if (sent >= windowFrom && sent < windowTo) {
      latencies.recordValue(Math.max(0, now - sent));
    }
  }

  /** Makes the counters visible to other threads. */
  void publish() {
    publishedEvents = events;
    publishedStreaming = streaming;
    publishedEnded = ended;
    publishedFailed = failed;
    publishedFirstFailure = firstFailure;
  }

  // ---- any thread ------------------------------------------------------------------------

  long events() {
    return publishedEvents;
  }

  /** Watches whose response head (or upgrade) has arrived and that have not ended. */
  int streaming() {
    return publishedStreaming;
  }

  /** Watches the server ended. */
  int ended() {
    return publishedEnded;
  }

  /** Watches that failed (refused, a protocol error, an I/O error). */
  int failed() {
    return publishedFailed;
  }

  String firstFailure() {
    return publishedFirstFailure;
  }

  /**
   * Once the reading thread has ended: latencies, in nanoseconds from each write's intended
   * send time, of the events of writes intended in the window.
   */
  Histogram latencies() {
    return latencies;
  }

  /** Once the reading thread has ended: events whose send time and sequence number could not be found. */
  long unparsed() {
    return unparsed;
  }

  private boolean matchesAt(byte[] h, int len, int at) {
    byte[] m = marker;
    if (at < 0 || at + m.length > len) {
      return false;
    }
    for (int j = 0; j < m.length; j++) {
      if (h[at + j] != m[j]) {
        return false;
      }
    }
    return true;
  }

  /** The index of the first {@code m} in the first {@code len} bytes of {@code h}, or -1. */
  static int indexOf(byte[] h, int len, byte[] m) {
    outer:
    for (int i = 0; i + m.length <= len; i++) {
      for (int j = 0; j < m.length; j++) {
        if (h[i + j] != m[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
