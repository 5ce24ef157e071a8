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

  /** Bytes from absolute offset {@code windowStart}, {@code length} of them. */
  private byte[] window = new byte[16 * 1024];
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
      window[length++] = (byte) b;
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = in.read(b, off, len);
    if (n > 0) {
      ensure(n);
      System.arraycopy(b, off, window, length, n);
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
    length -= drop;
    if (window.length > SHRINK_ABOVE && length < window.length / 4) {
      byte[] smaller = new byte[Math.max(16 * 1024, length * 2)];
      System.arraycopy(window, drop, smaller, 0, length);
      window = smaller;
    } else {
      System.arraycopy(window, drop, window, 0, length);
    }
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
    return Arrays.copyOfRange(window, (int) (from - windowStart), (int) (to - windowStart));
  }

  private void ensure(int more) {
    if (length + more > window.length) {
      window = Arrays.copyOf(window, Math.max(length + more, window.length * 2));
    }
  }
}
