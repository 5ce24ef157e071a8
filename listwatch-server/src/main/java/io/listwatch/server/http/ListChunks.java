package io.listwatch.server.http;

import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.request.ApiResponse;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A JSON list body, {@code {"kind":..,"apiVersion":..,"metadata":{..},"items":[..]}}, produced
 * in chunks of about {@link #CHUNK_BYTES}: each chunk copies the cached bytes of the next items
 * into one I/O buffer. A list is written as it is produced, never built whole, so the memory a
 * list holds in flight stays a few chunks however long it is (100,000 pods are about 100 MB),
 * and the time to write it grows linearly with its length. The length is known up front (the
 * sum of the cached objects' sizes), so the response carries a Content-Length.
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
  private int next; // the index of the first item not yet produced
  private boolean headDone;
  private boolean tailDone;
  private long progress;

  ListChunks(ApiResponse.ListBody list) {
    StringBuilder h = new StringBuilder(128)
        .append("{\"kind\":\"").append(list.kind()).append("\",\"apiVersion\":\"").append(list.apiVersion())
        .append("\",\"metadata\":{\"resourceVersion\":\"").append(list.resourceVersion()).append('"');
    if (list.continueToken() != null) {
      h.append(",\"continue\":\"").append(list.continueToken()).append('"');
    }
    if (list.remainingItemCount() != null) {
      h.append(",\"remainingItemCount\":").append(list.remainingItemCount());
    }
    h.append("},\"items\":[");
    this.head = h.toString().getBytes(StandardCharsets.UTF_8);
    this.items = list.items();
    long total = head.length + TAIL.length + Math.max(0, items.size() - 1);
    for (CachedObject o : items) {
      total += o.json().length;
    }
    this.length = total;
  }

  @Override
  public boolean isEndOfInput() {
    return tailDone;
  }

  /** The next chunk (its ownership passes to the caller), or null at the end. */
  @Override
  public ByteBuf readChunk(ByteBufAllocator allocator) {
    if (tailDone) {
      return null;
    }
    ByteBuf chunk = allocator.ioBuffer((int) Math.min(CHUNK_BYTES + 1024L, length - progress));
    if (!headDone) {
      chunk.writeBytes(head);
      headDone = true;
    }
    while (next < items.size() && chunk.readableBytes() < CHUNK_BYTES) {
      if (next > 0) {
        chunk.writeByte(',');
      }
      chunk.writeBytes(items.get(next++).json());
    }
    if (next == items.size()) {
      chunk.writeBytes(TAIL);
      tailDone = true;
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
