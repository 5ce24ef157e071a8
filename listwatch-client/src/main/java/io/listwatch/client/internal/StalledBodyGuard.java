package io.listwatch.client.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Ends a response body that stops arriving. When the reader of a guarded body has waited
 * {@code timeout} for its next bytes, the body's {@code onStall} runs (the client replaces its
 * connection, as it does when response headers do not come), then the body is closed and the
 * read fails with an {@link IOException} that says so.
 *
 * <p>Why: a request's timeout in {@code java.net.http} covers its response headers only, so a
 * body that stops arriving blocks its reader for good. Two ways that happens: a connection
 * that dies silently mid-body (no FIN, no RST), and the JDK client after an {@code Upgrade:
 * h2c}: now and then (7 of 270 fresh connections through a TCP proxy, JDK 25.0.3; none of 200
 * direct) it hands over the upgraded response's headers and never its body, though every
 * DATA frame, the last with END_STREAM, reached the socket. An informer's first list then
 * never ends. Watch bodies are not guarded: a watch may rightly be silent for minutes, and the
 * reflector has its own check for them.
 *
 * <p>Only time spent blocked in a read counts, so a reader that is slow to ask for bytes is
 * never cut off. Thread-safe; a guarded body is read by one thread at a time, as any stream.
 * The checks run on one daemon thread, started with the first guarded body and stopped by
 * {@link #close()}.
 */
final class StalledBodyGuard implements AutoCloseable {

  /** The most bytes one read of a {@code skip} asks for. */
  private static final int SKIP_BUFFER = 8192;

  private final long timeoutNanos;
  private final LongSupplier nanoTime;
  /** Whether the guard checks on its own thread (false: only when {@link #check()} is called). */
  private final boolean selfChecking;
  private final Set<GuardedBody> open = ConcurrentHashMap.newKeySet();
  @GuardedBy("this")
  private ScheduledExecutorService checker;
  @GuardedBy("this")
  private boolean closed;

  /** A guard that checks on its own thread every quarter of {@code timeout}. */
  StalledBodyGuard(Duration timeout) {
    this(timeout, System::nanoTime, true);
  }

  /** A guard on {@code nanoTime}, checked only when {@link #check()} is called (for tests). */
  StalledBodyGuard(Duration timeout, LongSupplier nanoTime) {
    this(timeout, nanoTime, false);
  }

  private StalledBodyGuard(Duration timeout, LongSupplier nanoTime, boolean selfChecking) {
    this.timeoutNanos = timeout.toNanos();
    this.nanoTime = nanoTime;
    this.selfChecking = selfChecking;
  }

  /**
   * {@code body}, ended if its reader waits {@code timeout} for bytes; {@code what} names the
   * request in the error ("GET https://..."), {@code onStall} runs once if it is ended.
   */
  InputStream guard(InputStream body, String what, Runnable onStall) {
    GuardedBody guarded = new GuardedBody(body, what, onStall);
    open.add(guarded);
    startChecker();
    return guarded;
  }

  private synchronized void startChecker() {
    if (!selfChecking || checker != null || closed) {
      return;
    }
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "listwatch-client-body-guard");
      t.setDaemon(true);
      return t;
    });
    executor.setRemoveOnCancelPolicy(true);
    long period = Math.max(TimeUnit.MILLISECONDS.toNanos(10), timeoutNanos / 4);
    executor.scheduleWithFixedDelay(this::check, period, period, TimeUnit.NANOSECONDS);
    checker = executor;
  }

  /** Ends every guarded body whose reader has been blocked for the timeout or longer. */
  void check() {
    long now = nanoTime.getAsLong();
    for (GuardedBody body : open) {
      if (body.reading && now - body.blockedSince >= timeoutNanos) {
        body.stall();
      }
    }
  }

  /** Bodies guarded and not yet closed. */
  int open() {
    return open.size();
  }

  /** Stops the checks; guarded bodies stay open for their readers. Idempotent. */
  @Override
  public void close() {
    ScheduledExecutorService executor;
    synchronized (this) {
      closed = true;
      executor = checker;
      checker = null;
    }
    if (executor != null) {
      executor.shutdownNow();
    }
  }

  private final class GuardedBody extends FilterInputStream {
    private final String what;
    private final Runnable onStall;
    /** When the read in progress began; meaningful while {@link #reading}. */
    private volatile long blockedSince;
    private volatile boolean reading;
    private volatile boolean stalled;

    GuardedBody(InputStream in, String what, Runnable onStall) {
      super(in);
      this.what = what;
      this.onStall = onStall;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      blockedSince = nanoTime.getAsLong();
      reading = true;
      int n;
      try {
        n = in.read(b, off, len);
      } catch (IOException e) {
        throw stalled ? stalledError(e) : e;
      } finally {
        reading = false;
      }
      if (stalled) {
        throw stalledError(null); // an end of stream after a stall is not the body's end
      }
      if (n < 0) {
        open.remove(this); // read to its end: nothing left to wait for, closed or not
      }
      return n;
    }

    /**
     * Skips by reading, as {@link InputStream#skip} does, so that each wait for bytes is
     * guarded as a read's (the stream beneath would skip unguarded): {@code n} bytes or to the
     * end, whichever comes first.
     */
    @Override
    public long skip(long n) throws IOException {
      if (n <= 0) {
        return 0;
      }
      byte[] scratch = new byte[(int) Math.min(n, SKIP_BUFFER)];
      long skipped = 0;
      while (skipped < n) {
        int read = read(scratch, 0, (int) Math.min(n - skipped, scratch.length));
        if (read < 0) {
          break;
        }
        skipped += read;
      }
      return skipped;
    }

    private IOException stalledError(IOException cause) {
      return new IOException(what + ": no bytes of the response body for "
          + Duration.ofNanos(timeoutNanos).toMillis() + " ms; the connection is replaced", cause);
    }

    /** Ends the body for its blocked reader; once. */
    void stall() {
      synchronized (this) {
        if (stalled) {
          return;
        }
        stalled = true;
      }
      open.remove(this);
      // the connection first, so that whatever the woken reader does next (a reflector's
      // relist) goes out on the new one
      try {
        onStall.run();
      } finally {
        try {
          in.close(); // wakes the blocked read
        } catch (IOException ignored) {
          // it is being ended anyway
        }
      }
    }

    @Override
    public void close() throws IOException {
      open.remove(this);
      in.close();
    }
  }
}
