package io.listwatch.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * A body already built whole (a complete response's content) handed out in chunks of at most
 * {@link ListChunks#CHUNK_BYTES}, so that it can be written as a list is
 * ({@link ListStreamWriter}), a turn of the event loop per chunk: used for an answer compressed
 * on its way out ({@link GzipBodyChunks}). Owns the body: releases it once every chunk is handed
 * out, or on {@link #close()}.
 *
 * <p>Confined to the connection's event loop.
 */
final class FullBodyChunks implements ListBodyChunks {

  private final ByteBuf body;
  private final long length;
  private final String contentType;
  private boolean released;

  /** Takes ownership of {@code body}. */
  FullBodyChunks(ByteBuf body, String contentType) {
    this.body = body;
    this.length = body.readableBytes();
    this.contentType = contentType;
  }

  @Override
  public boolean isEndOfInput() {
    return released;
  }

  @Override
  public ByteBuf readChunk(ByteBufAllocator allocator) {
    if (released) {
      return null;
    }
    ByteBuf chunk = body.readRetainedSlice(Math.min(ListChunks.CHUNK_BYTES, body.readableBytes()));
    if (!body.isReadable()) {
      close();
    }
    return chunk;
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public String contentType() {
    return contentType;
  }

  @Override
  public void close() {
    if (!released) {
      released = true;
      body.release();
    }
  }
}
