package io.listwatch.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops reading from a connection while its unsent responses are above the write buffer's
 * high-water mark, and reads again once they drain below the low-water mark. A client that
 * pipelines requests and never reads the answers therefore costs at most about the high-water
 * mark of memory (plus what one read already brought in, held undecoded by a
 * {@link io.netty.handler.flow.FlowControlHandler}): the server simply stops taking its
 * requests, while every other connection is served as usual.
 *
 * <p>Sits on a connection's pipeline (HTTP/1.1, or the HTTP/2 connection under its streams).
 * Confined to the connection's event loop; the shared counter is atomic.
 */
final class WriteBackpressure extends ChannelInboundHandlerAdapter {

  private static final Logger LOG = LoggerFactory.getLogger(WriteBackpressure.class);

  private final AtomicInteger paused;
  private boolean pausedHere;

  /** @param paused counts connections with reading paused (a metric) */
  WriteBackpressure(AtomicInteger paused) {
    this.paused = paused;
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
    boolean writable = ctx.channel().isWritable();
    if (!writable && !pausedHere) {
      pausedHere = true;
      paused.incrementAndGet();
      ctx.channel().config().setAutoRead(false);
      LOG.debug("{}: responses above the high-water mark; reading paused until the client reads",
          ctx.channel().remoteAddress());
    } else if (writable && pausedHere) {
      resume(ctx);
    }
    super.channelWritabilityChanged(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (pausedHere) {
      pausedHere = false;
      paused.decrementAndGet();
    }
    super.channelInactive(ctx);
  }

  private void resume(ChannelHandlerContext ctx) {
    pausedHere = false;
    paused.decrementAndGet();
    ctx.channel().config().setAutoRead(true);
  }
}
