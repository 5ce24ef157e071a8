package io.listwatch.server.http;

import io.listwatch.apiserver.request.ApiResponse;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * A JSON list body, {@code {"kind":..,"apiVersion":..,"metadata":{..},"items":[..]}} (its parts
 * from {@link ApiResponse.ListBody#jsonParts()}), produced in chunks of about
 * {@link #CHUNK_BYTES}: each chunk copies the next parts (the cached bytes of the next items)
 * into one I/O buffer. A list is written as it is produced, never built whole, so the memory a
 * list holds in flight stays a few chunks however long it is (100,000 pods are about 100 MB),
 * and the time to write it grows linearly with its length. The length is known up front (the
 * sum of the cached objects' sizes), so the response carries a Content-Length.
 *
 * <p>Confined to the connection's event loop.
 */
final class ListChunks implements ListBodyChunks {

  /** The size a chunk is filled to (a part is never split, so a chunk may exceed it by one item). */
  static final int CHUNK_BYTES = 256 * 1024;

  private final byte[][] parts;
  private final long length;
  private int next; // the index of the first part not yet produced
  private long progress;

  ListChunks(ApiResponse.ListBody list) {
    this.parts = list.jsonParts();
    long total = 0;
    for (byte[] part : parts) {
      total += part.length;
    }
    this.length = total;
  }

  @Override
  public boolean isEndOfInput() {
    return next == parts.length;
  }

  /** The next chunk (its ownership passes to the caller), or null at the end. */
  @Override
  public ByteBuf readChunk(ByteBufAllocator allocator) {
    if (next == parts.length) {
      return null;
    }
    ByteBuf chunk = allocator.ioBuffer((int) Math.min(CHUNK_BYTES + 1024L, length - progress));
    while (next < parts.length && chunk.readableBytes() < CHUNK_BYTES) {
      chunk.writeBytes(parts[next++]);
    }
    progress += chunk.readableBytes();
    return chunk;
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public String contentType() {
    return "application/json";
  }

  /** The bytes produced so far. */
  long progress() {
    return progress;
  }
}
