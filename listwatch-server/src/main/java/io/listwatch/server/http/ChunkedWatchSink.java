package io.listwatch.server.http;

import io.listwatch.apiserver.cacher.WatchEncoding;
import io.listwatch.apiserver.cacher.WatchSink;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.EventExecutor;

/**
 * A watch response body on HTTP/1.1 (chunked) or on an HTTP/2 stream behind Netty's
 * stream-to-HTTP codec: each write is one chunk or DATA frame holding one or more events (JSON
 * lines, or length-prefixed protobuf WatchEvents). Confined to the channel's event loop, like the channel itself.
 */
final class ChunkedWatchSink implements WatchSink {

  private final ChannelHandlerContext ctx;
  private final Runnable onDone;
  private final WatchEncoding encoding;
  /**
   * Whether batches are copied into an I/O buffer before the write: on an HTTP/1.1 connection,
   * plain or TLS. Written as a composite of heap arrays, a batch is merged into a temporary heap
   * buffer and copied again by the socket write, or, behind TLS, by the engine's input queue
   * (a JFR profile of {@code bench apf}'s watch flood: the merges were a third of the server's
   * allocation); copied once here into a pooled direct buffer, it is read as it is by both.
   * The copy lives only until the flush that follows the batch's writes. An HTTP/2 stream
   * writes the shared parts as they are: its DATA frames may wait in the connection's flow
   * control, and a copy per stream would hold each event once per watcher while they wait
   * (1,000 streams of one connection, each with up to the water mark pending, ran the server
   * out of direct memory); uncopied, the waiting frames share the event's bytes.
   */
  private final boolean copyToIoBuffer;

  /**
   * @param encoding the events' encoding (the bytes are written as they are either way)
   * @param onDone called on the event loop when the response is over (ended or aborted)
   */
  ChunkedWatchSink(ChannelHandlerContext ctx, WatchEncoding encoding, Runnable onDone) {
    this.ctx = ctx;
    this.encoding = encoding;
    this.onDone = onDone;
    this.copyToIoBuffer = ctx.channel() instanceof SocketChannel;
  }

  @Override
  public java.util.concurrent.Executor executor() {
    return ctx.executor();
  }

  /** A turn of the loop's bulk writers ({@link LoopTurns}): after the loop's next pass over its connections. */
  @Override
  public void nextTurn(Runnable turn) {
    LoopTurns.ask(ctx.channel().eventLoop(), turn);
  }

  @Override
  public WatchEncoding encoding() {
    return encoding;
  }

  @Override
  public boolean isWritable() {
    return ctx.channel().isWritable();
  }

  @Override
  public void write(byte[][] parts) {
    ByteBuf data = copyToIoBuffer ? IoBuffers.copy(ctx.alloc(), parts)
        : Unpooled.wrappedBuffer(parts.length, parts); // no copy: the parts stay shared
    ctx.write(new DefaultHttpContent(data), ctx.voidPromise());
  }

  @Override
  public void flush() {
    ctx.flush();
  }

  @Override
  public void end() {
    ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
    onDone.run();
  }

  /** Names the client, for the log line of a watch closed for being slow. */
  @Override
  public String toString() {
    Channel connection = ctx.channel() instanceof Http2StreamChannel s ? s.parent() : ctx.channel();
    return "watch connection from " + connection.remoteAddress();
  }

  @Override
  public void abort() {
    ctx.close();
    onDone.run();
  }
}
