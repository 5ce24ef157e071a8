package io.listwatch.client.testing;

import io.listwatch.apiserver.cacher.CacheWatcher;
import io.listwatch.apiserver.cacher.WatchSink;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One watch in memory: the API core writes its events into this {@link WatchSink} and the
 * client reads the same bytes from {@link #body()}, as it reads a watch's response body from a
 * socket. Nothing is re-encoded: the parts the watch cache serialized once are queued as they
 * are.
 *
 * <p>Thread-safe: the core writes on {@link #executor()}; one client thread reads the body;
 * closing the body (from any thread, e.g. the client closing its watch) tells the watcher that
 * its connection is gone and wakes a blocked reader, whose reads then end.
 */
final class WatchPipe implements WatchSink {

  /** The end of the stream: the server ended the watch, or the reader closed it. */
  private static final byte[] END = new byte[0];
  /** The server dropped the watch without an end (the watcher fell too far behind). */
  private static final byte[] ABORT = new byte[0];

  private final Executor executor;
  private final BlockingQueue<byte[]> parts = new LinkedBlockingQueue<>();
  private final Body body = new Body();
  /** The running watcher, once started; told when the reader closes. */
  private volatile CacheWatcher watcher;
  private volatile boolean closed;

  WatchPipe(Executor executor) {
    this.executor = executor;
  }

  /** What the client reads. */
  InputStream body() {
    return body;
  }

  /** The watcher writing here, now running; if the reader already left, it is told so. */
  void started(CacheWatcher running) {
    watcher = running;
    if (closed) {
      running.onSinkClosed();
    } else {
      running.drain();
    }
  }

  @Override
  public Executor executor() {
    return executor;
  }

  /** Always: the queue is unbounded (a test's watches are small). */
  @Override
  public boolean isWritable() {
    return true;
  }

  @Override
  public void write(byte[][] events) {
    if (closed) {
      return;
    }
    for (byte[] part : events) {
      if (part.length > 0) {
        parts.add(part);
      }
    }
  }

  @Override
  public void flush() {
  }

  @Override
  public void end() {
    parts.add(END);
  }

  @Override
  public void abort() {
    parts.add(ABORT);
  }

  /** The reader's side: blocks for the next part; ends at END, fails at ABORT. */
  private final class Body extends InputStream {
    private byte[] current = new byte[0];
    private int position;
    private boolean finished;

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      while (position == current.length) {
        if (finished || closed) {
          return -1;
        }
        byte[] next;
        try {
          next = parts.take();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted while reading a watch");
        }
        if (next == END) {
          finished = true;
        } else if (next == ABORT) {
          finished = true;
          throw new IOException("the server dropped the watch");
        } else {
          current = next;
          position = 0;
        }
      }
      int n = Math.min(len, current.length - position);
      System.arraycopy(current, position, b, off, n);
      position += n;
      return n;
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      parts.add(END); // wakes a blocked reader
      CacheWatcher running = watcher;
      if (running != null) {
        executor.execute(running::onSinkClosed);
      }
    }
  }
}
