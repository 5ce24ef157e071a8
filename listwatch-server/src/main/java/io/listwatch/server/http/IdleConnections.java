package io.listwatch.server.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a connection that has had nothing to do for the idle timeout: no request being
 * served, no watch open, and no complete request received. The clock starts when the
 * connection opens and again whenever its last request or watch ends; bytes of an incomplete
 * request do not stop it, so a client trickling a request header cannot hold a connection
 * (and its file descriptor) forever. A connection serving a request or a watch is never idle.
 * Each closure logs one line with the client's address.
 *
 * <p>Sits first on a connection's pipeline. The {@link ApiHandler}s of the connection (one on
 * HTTP/1.1, one per stream on HTTP/2, all on the connection's event loop) report requests
 * through {@link #of}. Confined to the connection's event loop; {@link #requestEnded} hops
 * onto it when called elsewhere.
 */
final class IdleConnections extends ChannelInboundHandlerAdapter {

  private static final Logger LOG = LoggerFactory.getLogger(IdleConnections.class);
  private static final AttributeKey<IdleConnections> KEY = AttributeKey.valueOf("listwatch.idle");
  /** For connections without this handler (in-memory test channels). */
  private static final IdleConnections NONE = new IdleConnections(Long.MAX_VALUE);

  private final long timeoutNanos;
  private ChannelHandlerContext ctx;
  private int active; // requests being served and watches open
  private long idleSince;
  private ScheduledFuture<?> check;

  IdleConnections(long timeoutNanos) {
    this.timeoutNanos = timeoutNanos;
  }

  /** The tracker of the connection {@code channel} belongs to (its parent for an HTTP/2 stream). */
  static IdleConnections of(Channel channel) {
    Channel connection = channel instanceof Http2StreamChannel ? channel.parent() : channel;
    IdleConnections t = connection.attr(KEY).get();
    return t == null ? NONE : t;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    ctx.channel().attr(KEY).set(this);
    idleSince = System.nanoTime();
    schedule(timeoutNanos);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (check != null) {
      check.cancel(false);
      check = null;
    }
    super.channelInactive(ctx);
  }

  /** A complete request arrived (a watch counts until it ends). Event loop only. */
  void requestStarted() {
    if (this != NONE) {
      active++;
    }
  }

  /** A request's response was handed to the connection, or a watch ended. */
  void requestEnded() {
    if (this == NONE) {
      return;
    }
    if (!ctx.executor().inEventLoop()) {
      ctx.executor().execute(this::requestEnded);
      return;
    }
    if (active > 0 && --active == 0) {
      idleSince = System.nanoTime();
    }
  }

  private void schedule(long delayNanos) {
    check = ctx.executor().schedule(this::check, delayNanos, TimeUnit.NANOSECONDS);
  }

  private void check() {
    check = null;
    Channel ch = ctx.channel();
    if (!ch.isActive()) {
      return;
    }
    if (active > 0) {
      schedule(timeoutNanos);
      return;
    }
    long idle = System.nanoTime() - idleSince;
    if (idle >= timeoutNanos) {
      LOG.info("closing connection from {}: no request for {} ms", ch.remoteAddress(),
          TimeUnit.NANOSECONDS.toMillis(idle));
      ctx.close();
    } else {
      schedule(timeoutNanos - idle);
    }
  }
}
