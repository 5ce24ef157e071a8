package io.listwatch.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * Writes a list body in chunks ({@link ListChunks} for JSON, {@link ProtobufListChunks} for
 * protobuf) to one connection (HTTP/1.1) or stream (HTTP/2) while it is
 * writable, and resumes when it becomes writable again: the outbound buffer holds about one
 * chunk beyond its high-water mark, whatever the list's size. This is what Netty's
 * ChunkedWriteHandler does; it is not used because it would sit in the pipeline of every
 * connection and queue each write of the watch fan-out too.
 *
 * <p>Confined to the connection's event loop.
 */
final class ListStreamWriter {

  private final ChannelHandlerContext ctx;
  private final ListBodyChunks chunks;
  private final Runnable onDone;
  private boolean done;

  /** @param onDone called once on the event loop after the last chunk is handed to the connection */
  ListStreamWriter(ChannelHandlerContext ctx, ListBodyChunks chunks, Runnable onDone) {
    this.ctx = ctx;
    this.chunks = chunks;
    this.onDone = onDone;
  }

  /** Writes chunks while the channel is writable; call again when it becomes writable. */
  void resume() {
    if (done) {
      return;
    }
    while (ctx.channel().isWritable() && !chunks.isEndOfInput()) {
      ctx.write(new DefaultHttpContent(chunks.readChunk(ctx.alloc())), ctx.voidPromise());
    }
    if (chunks.isEndOfInput()) {
      done = true;
      ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
      onDone.run();
    } else {
      ctx.flush();
    }
  }

  /** The connection is gone: stop. */
  void abandon() {
    done = true;
  }
}
