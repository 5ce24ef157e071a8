package io.listwatch.server.http;

import io.listwatch.api.clock.Clock;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.AttributeKey;
import java.time.Duration;
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
 * through {@link #of}. Time is the server's {@link Clock}: it measures idleness and schedules
 * the checks, which hop onto the event loop. Confined to the connection's event loop;
 * {@link #requestEnded} and the clock's checks hop onto it when called elsewhere.
 */
final class IdleConnections extends ChannelInboundHandlerAdapter {

  private static final Logger LOG = LoggerFactory.getLogger(IdleConnections.class);
  private static final AttributeKey<IdleConnections> KEY = AttributeKey.valueOf("listwatch.idle");
  /** For connections without this handler (in-memory test channels). */
  private static final IdleConnections NONE = new IdleConnections(Long.MAX_VALUE, Clock.system());

  private final long timeoutNanos;
  private final Clock clock;
  private ChannelHandlerContext ctx;
  private int active; // requests being served and watches open
  private long idleSince;
  private Clock.Cancellable check;

  IdleConnections(long timeoutNanos, Clock clock) {
    this.timeoutNanos = timeoutNanos;
    this.clock = clock;
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
    idleSince = clock.nanoTime();
    schedule(timeoutNanos);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (check != null) {
      check.cancel();
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
      idleSince = clock.nanoTime();
    }
  }

  private void schedule(long delayNanos) {
    check = clock.schedule(Duration.ofNanos(delayNanos), () -> ctx.executor().execute(this::check));
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
    long idle = clock.nanoTime() - idleSince;
    if (idle >= timeoutNanos) {
      LOG.info("closing connection from {}: no request for {} ms", ch.remoteAddress(),
          TimeUnit.NANOSECONDS.toMillis(idle));
      ctx.close();
    } else {
      schedule(timeoutNanos - idle);
    }
  }
}
