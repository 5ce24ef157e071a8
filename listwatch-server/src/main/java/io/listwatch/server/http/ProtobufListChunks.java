package io.listwatch.server.http;

import io.listwatch.apiserver.protobuf.ProtobufList;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * A protobuf list answer ({@link ProtobufList}) produced in chunks of about
 * {@link ListChunks#CHUNK_BYTES}, as {@link ListChunks} produces a JSON one: each chunk copies
 * the next parts (the head, each item's tag, length and cached message, the tail) into one I/O
 * buffer, so the answer is never built whole and is written with a Content-Length.
 *
 * <p>Confined to the connection's event loop.
 */
final class ProtobufListChunks implements ListBodyChunks {

  private final ProtobufList list;
  private ProtobufList.Part part;
  private int partOffset; // bytes of the current part already produced
  private long progress;

  ProtobufListChunks(ProtobufList list) {
    this.list = list;
    this.part = list.first();
  }

  @Override
  public boolean isEndOfInput() {
    return part == null;
  }

  /** The next chunk (its ownership passes to the caller), or null at the end. */
  @Override
  public ByteBuf readChunk(ByteBufAllocator allocator) {
    if (part == null) {
      return null;
    }
    int size = (int) Math.min(ListChunks.CHUNK_BYTES, list.length() - progress);
    ByteBuf chunk = allocator.ioBuffer(size);
    while (part != null && chunk.readableBytes() < size) {
      int take = Math.min(part.length() - partOffset, size - chunk.readableBytes());
      chunk.writeBytes(part.bytes(), part.offset() + partOffset, take);
      partOffset += take;
      if (partOffset == part.length()) {
        part = list.next(part);
        partOffset = 0;
      }
    }
    progress += chunk.readableBytes();
    return chunk;
  }

  @Override
  public long length() {
    return list.length();
  }

  @Override
  public String contentType() {
    return io.listwatch.apiserver.protobuf.KubeProtobuf.MEDIA_TYPE;
  }
}
