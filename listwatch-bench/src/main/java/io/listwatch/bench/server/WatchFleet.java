package io.listwatch.bench.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Many watch connections read by one thread: a {@link Selector} over non-blocking sockets,
 * each carrying one {@code GET ...?watch=true} whose chunked HTTP/1.1 body is parsed by hand.
 * Every {@code '\n'} in a chunk's data ends one watch event; the thread counts them, and for
 * each event looks for a send time (decimal {@link System#nanoTime()}) right after
 * {@code marker} in the event's first {@value #HEAD} bytes, recording the send-to-receive
 * latency of events sent inside the window set by {@link #recordSentBetween}.
 *
 * <p>Why this shape: with 1,000 watchers, 1,000 threads (or 1,000 HttpClient streams) would
 * take the CPU the server needs on a 2-core machine. Here one thread reads into one direct
 * buffer, finds newlines eight bytes at a time, and allocates nothing per event.
 *
 * <p>Threads: the constructor starts the reader thread; {@link #open} (connecting and
 * sending the requests, blocking) runs on the caller's thread and hands the sockets over
 * through a queue. Counters are published through volatile fields about every select
 * round; the latency histogram and per-connection details may be read once {@link #close}
 * has joined the reader thread.
 */
final class WatchFleet implements AutoCloseable {

  static final int HEAD = 256;
  private static final int READ_BUFFER = 256 * 1024;
  private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  private final InetSocketAddress address;
  private final byte[] marker;
  private final Selector selector;
  private final Thread reader;
  private final ConcurrentLinkedQueue<Conn> pending = new ConcurrentLinkedQueue<>();
  private final List<Conn> conns = new ArrayList<>(); // reader thread
  private final ByteBuffer rb = ByteBuffer.allocateDirect(READ_BUFFER).order(ByteOrder.LITTLE_ENDIAN);
  private final MicrosHistogram latencies = new MicrosHistogram(); // reader thread
  private volatile boolean stop;
  private volatile long windowFrom = Long.MAX_VALUE;
  private volatile long windowTo = Long.MIN_VALUE;

  // reader thread's running totals, published below
  private long events;
  private long bytes;
  private long unparsed;
  private int streaming;
  private int ended;
  private int failed;
  private String firstFailure;
  private int markerAt = -1;

  private volatile long publishedEvents;
  private volatile long publishedBytes;
  private volatile int publishedStreaming;
  private volatile int publishedEnded;
  private volatile int publishedFailed;

  WatchFleet(InetSocketAddress address, String marker) throws IOException {
    this.address = address;
    this.marker = marker.getBytes(StandardCharsets.US_ASCII);
    this.selector = Selector.open();
    this.reader = Thread.ofPlatform().name("watch-fleet-reader").daemon(true).start(this::loop);
  }

  /** The reader thread, for its CPU time. */
  Thread readerThread() {
    return reader;
  }

  /** Opens {@code count} watches on {@code pathAndQuery}; returns once every request is sent. */
  void open(String pathAndQuery, int count) throws IOException {
    byte[] request = ("GET " + pathAndQuery + " HTTP/1.1\r\nHost: " + address.getHostString() + ":"
        + address.getPort() + "\r\nAccept: application/json\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < count; i++) {
      SocketChannel ch = SocketChannel.open();
      ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
      ch.connect(address);
      ByteBuffer req = ByteBuffer.wrap(request);
      while (req.hasRemaining()) {
        ch.write(req);
      }
      ch.configureBlocking(false);
      pending.add(new Conn(ch));
      if ((i & 63) == 63) {
        selector.wakeup();
      }
    }
    selector.wakeup();
  }

  /** Latencies are recorded for events whose send time lies in [from, to) (nanoTime). */
  void recordSentBetween(long fromNanos, long toNanos) {
    windowTo = toNanos;
    windowFrom = fromNanos;
  }

  long events() {
    return publishedEvents;
  }

  long bytes() {
    return publishedBytes;
  }

  /** Watches whose response head (200, chunked) has arrived and that have not ended. */
  int streaming() {
    return publishedStreaming;
  }

  /** Watches the server ended (end of body or connection closed). */
  int ended() {
    return publishedEnded;
  }

  /** Watches that failed (not 200, a bad chunk, an I/O error). */
  int failed() {
    return publishedFailed;
  }

  /** After {@link #close}: latencies of the events sent in the window. */
  MicrosHistogram latencies() {
    return latencies;
  }

  /** After {@link #close}: events whose send time could not be found. */
  long unparsed() {
    return unparsed;
  }

  /** After {@link #close}: the first failure, or null. */
  String firstFailure() {
    return firstFailure;
  }

  /** Closes every connection and stops the reader thread. */
  @Override
  public void close() {
    stop = true;
    selector.wakeup();
    boolean interrupted = false;
    while (true) {
      try {
        reader.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true; // the reader stops within one select round: wait for it anyway
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  // ---- reader thread ---------------------------------------------------------------------

  private void loop() {
    try {
      while (!stop) {
        for (Conn c; (c = pending.poll()) != null; ) {
          c.ch.register(selector, SelectionKey.OP_READ, c);
          conns.add(c);
        }
        selector.select(10);
        var keys = selector.selectedKeys();
        if (!keys.isEmpty()) {
          for (SelectionKey key : keys) {
            read((Conn) key.attachment(), key);
          }
          keys.clear();
        }
        publish();
      }
    } catch (IOException | RuntimeException e) {
      failed++;
      if (firstFailure == null) {
        firstFailure = "reader: " + e;
      }
      publish();
    } finally {
      for (Conn c : conns) {
        closeQuietly(c);
      }
      for (Conn c; (c = pending.poll()) != null; ) {
        closeQuietly(c);
      }
      try {
        selector.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
  }

  private void publish() {
    publishedEvents = events;
    publishedBytes = bytes;
    publishedStreaming = streaming;
    publishedEnded = ended;
    publishedFailed = failed;
  }

  private void read(Conn c, SelectionKey key) {
    try {
      for (int round = 0; round < 4; round++) {
        rb.clear();
        int n = c.ch.read(rb);
        if (n < 0) {
          finish(c, key, c.state == Conn.HEADERS ? "connection closed before the response head" : null);
          return;
        }
        if (n == 0) {
          return;
        }
        bytes += n;
        parse(c, key, n, System.nanoTime());
        if (c.state == Conn.DONE || n < READ_BUFFER) {
          return;
        }
      }
    } catch (IOException | RuntimeException e) {
      finish(c, key, e.toString());
    }
  }

  private void finish(Conn c, SelectionKey key, String failure) {
    if (c.state == Conn.DONE) {
      return;
    }
    if (c.state != Conn.HEADERS) {
      streaming--;
    }
    c.state = Conn.DONE;
    if (failure != null) {
      failed++;
      if (firstFailure == null) {
        firstFailure = failure;
      }
    } else {
      ended++;
    }
    key.cancel();
    closeQuietly(c);
  }

  private void parse(Conn c, SelectionKey key, int n, long now) {
    ByteBuffer b = rb;
    int p = 0;
    while (p < n) {
      switch (c.state) {
        case Conn.HEADERS -> {
          byte x = b.get(p++);
          if (c.statusLen < c.status.length) {
            c.status[c.statusLen++] = x;
          }
          // progress through "\r\n\r\n", the end of the response head
          if (x == '\r') {
            c.crlf = c.crlf == 2 ? 3 : 1;
          } else if (x == '\n') {
            c.crlf = c.crlf == 1 ? 2 : c.crlf == 3 ? 4 : 0;
          } else {
            c.crlf = 0;
          }
          if (c.crlf == 4) {
            String status = new String(c.status, 0, Math.min(c.statusLen, 12), StandardCharsets.US_ASCII);
            if (!status.startsWith("HTTP/1.1 200")) {
              finish(c, key, "watch answered " + status);
              return;
            }
            c.state = Conn.SIZE;
            streaming++;
          }
        }
        case Conn.SIZE -> {
          byte x = b.get(p++);
          if (x == '\n') {
            if (c.size == 0) {
              finish(c, key, null); // the last chunk: the server ended the watch
              return;
            }
            c.remaining = c.size;
            c.size = 0;
            c.sizeDone = false;
            c.state = Conn.DATA;
          } else if (!c.sizeDone) {
            int v = Character.digit(x, 16);
            if (v >= 0) {
              c.size = c.size * 16 + v;
            } else {
              c.sizeDone = true; // '\r' or a chunk extension
            }
          }
        }
        case Conn.DATA -> {
          int end = (int) Math.min(n, p + c.remaining);
          data(c, p, end, now);
          c.remaining -= end - p;
          p = end;
          if (c.remaining == 0) {
            c.state = Conn.DATA_END;
            c.crlf = 0;
          }
        }
        case Conn.DATA_END -> {
          byte x = b.get(p++);
          if (x == '\n') {
            c.state = Conn.SIZE;
          }
        }
        default -> {
          return;
        }
      }
    }
  }

  /**
   * Chunk data [from, to) of the read buffer: counts lines and reads send times. The first
   * {@value #HEAD} bytes of each line (or the whole line, if shorter) are copied in bulk into
   * the connection's head buffer, across reads when a line starts near the end of one; the
   * rest of the line is only searched for its newline.
   */
  private void data(Conn c, int from, int to, long now) {
    ByteBuffer b = rb;
    int p = from;
    while (p < to) {
      int nl = indexOfNewline(b, p, to);
      if (c.capturing) {
        int need = HEAD - c.headLen;
        int lineEnd = nl < 0 ? to : nl;
        int take = Math.min(lineEnd - p, need);
        b.get(p, c.head, c.headLen, take);
        c.headLen += take;
        if (nl >= 0 && nl - p <= need) { // the line ends within its head
          sendTime(c, now);
          events++;
          c.headLen = 0;
          p = nl + 1;
        } else if (c.headLen == HEAD) {
          sendTime(c, now);
          if (nl < 0) {
            c.capturing = false; // the rest of this read belongs to the same line
            return;
          }
          events++;
          c.headLen = 0;
          p = nl + 1;
        } else {
          return;
        }
      } else if (nl < 0) {
        return;
      } else {
        events++;
        p = nl + 1;
        c.capturing = true;
        c.headLen = 0;
      }
    }
  }

  /** Reads the send time after the marker in the head of the current line, if in the window. */
  private void sendTime(Conn c, long now) {
    byte[] h = c.head;
    int len = c.headLen;
    int at = markerAt;
    if (!matchesAt(h, len, at)) {
      at = indexOf(h, len, marker);
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
    for (int i = at + marker.length; i < len; i++) {
      int d = h[i] - '0';
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

  /** The index of the first '\n' in [from, to), or -1; eight bytes at a time. */
  static int indexOfNewline(ByteBuffer b, int from, int to) {
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long v = b.getLong(i) ^ NEWLINES;
      long t = (v - ONES) & ~v & HIGHS;
      if (t != 0) {
        return i + (Long.numberOfTrailingZeros(t) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (b.get(i) == '\n') {
        return i;
      }
    }
    return -1;
  }

  private static void closeQuietly(Conn c) {
    try {
      c.ch.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  /** One watch connection's parser state; reader thread only. */
  private static final class Conn {
    static final int HEADERS = 0;
    static final int SIZE = 1;
    static final int DATA = 2;
    static final int DATA_END = 3;
    static final int DONE = 4;

    final SocketChannel ch;
    int state = HEADERS;
    final byte[] status = new byte[16];
    int statusLen;
    int crlf;
    long size;
    boolean sizeDone;
    long remaining;
    final byte[] head = new byte[HEAD];
    int headLen;
    boolean capturing = true;

    Conn(SocketChannel ch) {
      this.ch = ch;
    }
  }
}
