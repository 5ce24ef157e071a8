package io.listwatch.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * A body produced in chunks ({@link ListBodyChunks}), gzip-compressed as it is produced
 * ({@link ResponseCompression}): each chunk of the source is deflated at level 1 (kube's level:
 * the least CPU for nearly the best ratio on JSON) into one chunk of the output, the first with
 * the gzip header, the last with the trailer (the CRC-32 and length of the uncompressed body).
 * So one chunk is still one bounded piece of work on the event loop, however well the body
 * compresses. The JDK's {@link Deflater} compresses, from and into I/O buffers, without copies.
 *
 * <p>Holds native memory (the deflater) until the last chunk is produced or {@link #close()}.
 * Confined to the connection's event loop.
 */
final class GzipBodyChunks implements ListBodyChunks {

  /**
   * The gzip member header (RFC 1952): magic, deflate, no flags, no modification time, "fastest"
   * in the extra flags (level 1), and an unknown operating system.
   */
  private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 4, (byte) 0xff};

  private final ListBodyChunks source;
  private final Deflater deflater = new Deflater(Deflater.BEST_SPEED, true);
  private final CRC32 crc = new CRC32();
  private boolean started;
  private boolean ended;

  GzipBodyChunks(ListBodyChunks source) {
    this.source = source;
  }

  @Override
  public boolean isEndOfInput() {
    return ended;
  }

  /** The next source chunk compressed (its ownership passes to the caller), or null at the end. */
  @Override
  public ByteBuf readChunk(ByteBufAllocator allocator) {
    if (ended) {
      return null;
    }
    ByteBuf in = source.readChunk(allocator);
    ByteBuf out = allocator.ioBuffer(in == null ? 64 : in.readableBytes() / 4 + 64);
    try {
      if (!started) {
        out.writeBytes(HEADER);
        started = true;
      }
      if (in != null && in.isReadable()) {
        crc.update(in.nioBuffer());
        deflater.setInput(in.nioBuffer());
        while (!deflater.needsInput()) {
          deflate(out);
        }
      }
      if (source.isEndOfInput()) {
        deflater.finish();
        while (!deflater.finished()) {
          deflate(out);
        }
        out.writeIntLE((int) crc.getValue());
        out.writeIntLE((int) deflater.getBytesRead()); // ISIZE: the length modulo 2^32
        close();
      }
      return out;
    } catch (RuntimeException e) {
      out.release();
      close();
      throw e;
    } finally {
      if (in != null) {
        in.release();
      }
    }
  }

  /** Deflates what the deflater can into {@code out}, growing it when it is full. */
  private void deflate(ByteBuf out) {
    out.ensureWritable(8 * 1024);
    int n = deflater.deflate(out.nioBuffer(out.writerIndex(), out.writableBytes()), Deflater.NO_FLUSH);
    out.writerIndex(out.writerIndex() + n);
  }

  /** The compressed length is not known until the end. */
  @Override
  public long length() {
    return -1;
  }

  @Override
  public String contentType() {
    return source.contentType();
  }

  /** Frees the deflater and the source; no more chunks. */
  @Override
  public void close() {
    if (!ended) {
      ended = true;
      deflater.end();
      source.close();
    }
  }
}
