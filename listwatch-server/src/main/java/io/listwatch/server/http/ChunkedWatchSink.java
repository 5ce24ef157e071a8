package io.listwatch.server.http;

import io.listwatch.server.cacher.WatchSink;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.EventExecutor;

/**
 * A watch response body on HTTP/1.1 (chunked) or on an HTTP/2 stream behind Netty's
 * stream-to-HTTP codec: each write is one chunk or DATA frame holding one or more event
 * lines. Confined to the channel's event loop, like the channel itself.
 */
final class ChunkedWatchSink implements WatchSink {

  private final ChannelHandlerContext ctx;
  private final Runnable onDone;

  /** @param onDone called on the event loop when the response is over (ended or aborted) */
  ChunkedWatchSink(ChannelHandlerContext ctx, Runnable onDone) {
    this.ctx = ctx;
    this.onDone = onDone;
  }

  @Override
  public EventExecutor executor() {
    return ctx.executor();
  }

  @Override
  public boolean isWritable() {
    return ctx.channel().isWritable();
  }

  @Override
  public void write(ByteBuf data) {
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
