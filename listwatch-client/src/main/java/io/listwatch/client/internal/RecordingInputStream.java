package io.listwatch.client.internal;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Keeps the bytes a parser has read since a mark, so a decoder can take an object's JSON
 * bytes exactly as they arrived (by the parser's byte offsets) instead of re-writing them
 * token by token. The list and watch decoders move the mark to the start of every item or
 * event, so the window holds one object plus the parser's read-ahead.
 *
 * <p>Confined to the thread that reads the stream (closing the underlying stream from
 * another thread does not touch the window).
 */
public final class RecordingInputStream extends FilterInputStream {

  private static final int SHRINK_ABOVE = 1 << 20;
  private static final int INITIAL = 16 * 1024;

  /**
   * The kept bytes are {@code window[head, head + length)}, starting at absolute offset
   * {@code windowStart}. Discarding only moves {@code head}; bytes are moved down when the
   * end of the array is reached, so each byte is copied into the window once and moved at
   * most a few times, however many objects are discarded one by one.
   */
  private byte[] window = new byte[INITIAL];
  private int head;
  private long windowStart;
  private int length;

  public RecordingInputStream(InputStream in) {
    super(in);
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b >= 0) {
      ensure(1);
      window[head + length++] = (byte) b;
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = in.read(b, off, len);
    if (n > 0) {
      ensure(n);
      System.arraycopy(b, off, window, head + length, n);
      length += n;
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    byte[] sink = new byte[(int) Math.min(n, 8192)];
    int read = read(sink, 0, sink.length);
    return Math.max(read, 0);
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  /** Forgets the bytes before absolute {@code offset}. */
  public void discardBefore(long offset) {
    int drop = (int) Math.min(offset - windowStart, length);
    if (drop <= 0) {
      return;
    }
    head += drop;
    length -= drop;
    windowStart += drop;
  }

  /**
   * A copy of the bytes at absolute offsets {@code [from, to)}, or null if they are not all
   * in the window.
   */
  public byte[] copy(long from, long to) {
    if (from < windowStart || to > windowStart + length || from > to) {
      return null;
    }
    int at = head + (int) (from - windowStart);
    return Arrays.copyOfRange(window, at, at + (int) (to - from));
  }

  /** Makes room for {@code more} bytes after the kept ones: compacts, grows or shrinks. */
  private void ensure(int more) {
    if (head + length + more <= window.length) {
      return;
    }
    int needed = length + more;
    byte[] target;
    if (needed > window.length / 2) {
      target = new byte[Math.max(needed, window.length * 2)];
    } else if (window.length > SHRINK_ABOVE && needed < window.length / 4) {
      target = new byte[Math.max(INITIAL, needed * 2)];
    } else {
      target = window;
    }
    System.arraycopy(window, head, target, 0, length);
    window = target;
    head = 0;
  }
}
