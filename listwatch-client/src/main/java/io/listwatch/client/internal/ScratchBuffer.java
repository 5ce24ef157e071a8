package io.listwatch.client.internal;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A growable byte sink reused by one thread for one object at a time: decoding copies each
 * object's JSON into it, then takes an exact-size copy, so decoding allocates one array per
 * object. Confined to one thread (see {@link #forThread()}).
 */
public final class ScratchBuffer extends OutputStream {

  private static final int INITIAL = 4096;
  /** A buffer grown past this is dropped after use, so one huge object does not stay pinned. */
  private static final int KEEP_MAX = 256 * 1024;
  private static final ThreadLocal<ScratchBuffer> PER_THREAD = ThreadLocal.withInitial(ScratchBuffer::new);

  private byte[] bytes = new byte[INITIAL];
  private int size;

  /** This thread's buffer, emptied. */
  public static ScratchBuffer forThread() {
    ScratchBuffer b = PER_THREAD.get();
    b.size = 0;
    if (b.bytes.length > KEEP_MAX) {
      b.bytes = new byte[INITIAL];
    }
    return b;
  }

  @Override
  public void write(int b) {
    ensure(size + 1);
    bytes[size++] = (byte) b;
  }

  @Override
  public void write(byte[] src, int off, int len) {
    ensure(size + len);
    System.arraycopy(src, off, bytes, size, len);
    size += len;
  }

  /** An exact-size copy of what was written. */
  public byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }

  private void ensure(int capacity) {
    if (capacity > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(capacity, bytes.length * 2));
    }
  }
}
