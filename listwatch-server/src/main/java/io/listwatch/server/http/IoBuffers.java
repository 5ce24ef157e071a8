package io.listwatch.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * Turns a watch batch (a composite over the shared bytes of its events) into one buffer from
 * the connection's I/O allocator (pooled, direct where the platform allows), which a socket or
 * a TLS engine reads as it is. Written as given, a composite, or a slice of one, is merged
 * into a temporary heap buffer and then copied again on its way out, per watcher; this copies
 * each part once, straight from its array. Stateless.
 */
final class IoBuffers {

  private IoBuffers() {
  }

  /** {@code data} as one I/O buffer; takes ownership of {@code data}. */
  static ByteBuf flatten(ByteBufAllocator alloc, ByteBuf data) {
    if (data.isDirect() && data.nioBufferCount() == 1) {
      return data;
    }
    try {
      ByteBuf out = alloc.ioBuffer(data.readableBytes());
      if (data instanceof CompositeByteBuf parts && parts.readerIndex() == 0
          && parts.writerIndex() == parts.capacity()) {
        for (int i = 0, n = parts.numComponents(); i < n; i++) {
          copy(parts.internalComponent(i), out);
        }
      } else {
        copy(data, out);
      }
      return out;
    } finally {
      data.release();
    }
  }

  /** Appends {@code part}'s readable bytes to {@code out}, from its array when it has one. */
  private static void copy(ByteBuf part, ByteBuf out) {
    if (part.hasArray()) {
      out.writeBytes(part.array(), part.arrayOffset() + part.readerIndex(), part.readableBytes());
    } else {
      out.writeBytes(part, part.readerIndex(), part.readableBytes());
    }
  }
}
