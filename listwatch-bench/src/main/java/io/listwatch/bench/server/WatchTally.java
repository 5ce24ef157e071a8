package io.listwatch.bench.server;

import java.nio.charset.StandardCharsets;

/**
 * What a fleet of watches received: events, watch states, and the write-to-receive latency
 * of every event whose send time (decimal {@link System#nanoTime()} after a marker, within
 * the event's first bytes) lies in the window set by {@link #recordSentBetween}.
 *
 * <p>The send time is stamped by a writer thread of this JVM and read back by the watch
 * reader of this JVM, so the latency is a difference of one clock. (On Linux
 * {@code System.nanoTime} is {@code CLOCK_MONOTONIC}, one clock for the whole machine, so
 * stamps would stay comparable even across the server's JVM; nothing here relies on that.)
 *
 * <p>Thread confinement: every method except the {@code published*} getters and
 * {@link #recordSentBetween} is called by the one thread that reads the watches; it calls
 * {@link #publish} after each batch of reads, which makes the counters visible to other
 * threads through volatile fields. The histogram and the first failure may be read by
 * another thread once the reading thread has ended (or been joined).
 */
final class WatchTally {

  /** How many leading bytes of each event are searched for the send time. */
  static final int HEAD = 256;

  private final byte[] marker;
  private final MicrosHistogram latencies = new MicrosHistogram();
  private volatile long windowFrom = Long.MAX_VALUE;
  private volatile long windowTo = Long.MIN_VALUE;

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

  /** Latencies are recorded for events whose send time lies in [from, to) (nanoTime). */
  void recordSentBetween(long fromNanos, long toNanos) {
    windowTo = toNanos;
    windowFrom = fromNanos;
  }

  // ---- the reading thread ----------------------------------------------------------------

  /** A watch's response head arrived: it streams from now on. */
  void started() {
    streaming++;
  }

  /**
   * A watch ended: by the server (null failure) or with {@code failure}; {@code wasStreaming}
   * says whether it had started.
   */
  void stopped(boolean wasStreaming, String failure) {
    if (wasStreaming) {
      streaming--;
    }
    if (failure == null) {
      ended++;
    } else {
      failed++;
      if (firstFailure == null) {
        firstFailure = failure;
      }
    }
  }

  /**
   * One event received at {@code now}, whose first {@code len} bytes (at most {@link #HEAD};
   * the whole event if it is shorter) are in {@code head}.
   */
  void event(byte[] head, int len, long now) {
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
    long sent = 0;
    int digits = 0;
    for (int i = at + marker.length + skip; i < len; i++) {
      int d = head[i] - '0';
      if (d < 0 || d > 9) {
        break;
      }
      sent = sent * 10 + d;
      digits++;
    }
    if (digits == 0) {
      unparsed++;
      return;
    }
    if (sent >= windowFrom && sent < windowTo) {
      latencies.record(now - sent);
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

  /** Once the reading thread has ended: latencies of the events sent in the window. */
  MicrosHistogram latencies() {
    return latencies;
  }

  /** Once the reading thread has ended: events whose send time could not be found. */
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

  private static int indexOf(byte[] h, int len, byte[] m) {
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
