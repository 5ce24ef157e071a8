package io.listwatch.server.http;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Ends an HTTP/2 connection that failed with a connection error (a malformed frame, a rapid
 * reset, a CONTINUATION flood) so that the peer can read the GOAWAY saying why: after the GOAWAY
 * is written the server stops writing (TLS close_notify, then FIN), reads and discards whatever
 * the peer still sends, and closes when the peer does or after {@link #LINGER_MILLIS}, as Go's
 * HTTP/2 server gives a GOAWAY a second before it closes.
 *
 * <p>Closing at once would close a socket with unread input, which the kernel answers with a
 * reset instead of an orderly end, and a reset makes the peer's kernel drop what it has not sent
 * on or read yet: the client would see "connection reset" rather than the GOAWAY. Connections
 * closed for any other reason (server shutdown, idle timeout, the peer's own close) close as
 * before; a close asked for while a connection lingers (the codec asks twice, the server's
 * shutdown once more) completes when the lingering ends, at most {@link #LINGER_MILLIS} later.
 *
 * <p>One instance per HTTP/2 connection: {@link #beforeCodec()} goes between the connection's
 * guards (and TLS) and the HTTP/2 codec, where the codec's close passes; {@link #afterCodec()}
 * right after the codec, where the codec reports its connection errors. Both run on the
 * connection's event loop only, so the state needs no locking.
 */
final class LingeringClose {

  /** How long a failed connection keeps reading before it closes anyway. */
  static final long LINGER_MILLIS = 1000;

  private boolean connectionError;
  private boolean lingering;

  /** The handler that turns the codec's close after a connection error into a lingering one. */
  ChannelHandler beforeCodec() {
    return new ChannelDuplexHandler() {
      @Override
      public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (lingering) {
          // the codec closes twice after a GOAWAY for an error; the lingering ends both
          ctx.channel().closeFuture().addListener(closed -> promise.trySuccess());
        } else if (connectionError && ctx.channel() instanceof DuplexChannel socket && socket.isActive()) {
          linger(ctx, socket, promise);
        } else {
          ctx.close(promise);
        }
      }

      @Override
      public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (lingering) {
          ReferenceCountUtil.release(msg); // the connection is over: what the peer still sends is dropped
          return;
        }
        ctx.fireChannelRead(msg);
      }
    };
  }

  /** The handler that learns of the codec's connection errors (a stream's error ends only its stream). */
  ChannelHandler afterCodec() {
    return new ChannelInboundHandlerAdapter() {
      @Override
      public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Http2Exception error = Http2CodecUtil.getEmbeddedHttp2Exception(cause);
        if (error != null && !(error instanceof Http2Exception.StreamException)) {
          connectionError = true;
        }
        ctx.fireExceptionCaught(cause);
      }
    };
  }

  private void linger(ChannelHandlerContext ctx, DuplexChannel socket, ChannelPromise promise) {
    lingering = true;
    Future<?> deadline = ctx.executor().schedule(() -> {
      ctx.close(promise);
    }, LINGER_MILLIS, TimeUnit.MILLISECONDS);
    // the peer's end (Netty closes a connection whose input ended) or any other close ends the wait
    socket.closeFuture().addListener(closed -> {
      deadline.cancel(false);
      promise.trySuccess();
    });
    socket.config().setAutoRead(true); // whatever paused reading (write backpressure) no longer matters
    ctx.read();
    SslHandler tls = ctx.pipeline().get(SslHandler.class);
    Future<?> closeNotify = tls == null ? ctx.newSucceededFuture() : tls.closeOutbound();
    closeNotify.addListener(sent -> socket.shutdownOutput().addListener(shut -> {
      if (!shut.isSuccess()) {
        ctx.close(promise);
      }
    }));
  }
}
