package io.listwatch.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * A body produced in chunks as it is written ({@link ListStreamWriter}): a JSON list
 * ({@link ListChunks}) or a protobuf one ({@link ProtobufListChunks}), whose length is known up
 * front, for a Content-Length; or a body compressed on its way out ({@link GzipBodyChunks}), whose
 * length is not. Confined to the connection's event loop.
 */
interface ListBodyChunks {

  /** Whether every chunk has been produced. */
  boolean isEndOfInput();

  /** The next chunk (its ownership passes to the caller), or null at the end. */
  ByteBuf readChunk(ByteBufAllocator allocator);

  /** The whole body's length in bytes, or -1 when it is not known up front. */
  long length();

  /** The media type of the body. */
  String contentType();

  /** No more chunks will be read (the body is written, or its connection is gone): frees what it holds. */
  default void close() {
  }
}
