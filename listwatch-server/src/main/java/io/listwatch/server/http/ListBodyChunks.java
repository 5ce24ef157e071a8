package io.listwatch.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * A list answer produced in chunks as it is written ({@link ListStreamWriter}): a JSON list
 * ({@link ListChunks}) or a protobuf one ({@link ProtobufListChunks}). Its length is known up
 * front, for a Content-Length. Confined to the connection's event loop.
 */
interface ListBodyChunks {

  /** Whether every chunk has been produced. */
  boolean isEndOfInput();

  /** The next chunk (its ownership passes to the caller), or null at the end. */
  ByteBuf readChunk(ByteBufAllocator allocator);

  /** The whole body's length in bytes. */
  long length();

  /** The media type of the body. */
  String contentType();
}
