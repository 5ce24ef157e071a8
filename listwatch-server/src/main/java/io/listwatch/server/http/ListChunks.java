package io.listwatch.server.http;

import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.request.ApiResponse;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;

/**
 * A JSON list body, {@code {"kind":..,"apiVersion":..,"metadata":{..},"items":[..]}} (its head
 * from {@link ApiResponse.ListBody#jsonHead()}, then its items' cached bytes), produced in chunks
 * of about {@link #CHUNK_BYTES}: each chunk copies the next items' cached bytes into one I/O
 * buffer, walking the list's items rather than an array of every part. A list is written as it
 * is produced, never built whole, so the memory a list holds in flight stays a few chunks however
 * long it is (100,000 pods are about 100 MB), and the time to write it grows linearly with its
 * length. The length is known up front (the sum of the cached objects' sizes), so the response
 * carries a Content-Length.
 *
 * <p>Confined to the connection's event loop.
 */
final class ListChunks implements ListBodyChunks {

  /** The size a chunk is filled to (an item is never split, so a chunk may exceed it by one item). */
  static final int CHUNK_BYTES = 256 * 1024;

  private static final byte[] TAIL = {']', '}'};

  private final byte[] head;
  private final List<CachedObject> items;
  private final long length;
  private int next = -1; // the index of the first item not yet produced; -1 before the head
  private boolean ended;
  private long progress;

  ListChunks(ApiResponse.ListBody list) {
    this.head = list.jsonHead();
    this.items = list.items();
    long total = head.length + TAIL.length + Math.max(0, items.size() - 1); // the commas
    for (CachedObject item : items) {
      total += item.json().length;
    }
    this.length = total;
  }

  @Override
  public boolean isEndOfInput() {
    return ended;
  }

  /** The next chunk (its ownership passes to the caller), or null at the end. */
  @Override
  public ByteBuf readChunk(ByteBufAllocator allocator) {
    if (ended) {
      return null;
    }
    ByteBuf chunk = allocator.ioBuffer((int) Math.min(CHUNK_BYTES + 1024L, length - progress));
    if (next < 0) {
      chunk.writeBytes(head);
      next = 0;
    }
    while (next < items.size() && chunk.readableBytes() < CHUNK_BYTES) {
      if (next > 0) {
        chunk.writeByte(',');
      }
      chunk.writeBytes(items.get(next++).json());
    }
    if (next == items.size()) {
      chunk.writeBytes(TAIL);
      ended = true;
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
