package io.listwatch.server.http;

import io.listwatch.api.StatusException;
import io.listwatch.server.cacher.CacheWatcher;
import io.listwatch.server.cacher.WatchSink;
import io.listwatch.server.filters.HandlerChain;
import io.listwatch.server.request.ApiRequest;
import io.listwatch.server.request.ConnectionInfo;
import io.listwatch.server.request.RequestInfo;
import io.listwatch.server.rest.ApiRoutes;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one connection's requests: runs the {@link HandlerChain}'s filters (authentication,
 * authorization, ...), hands each admitted request to {@link ApiRoutes} and writes the result,
 * or, for a watch, writes the response head at once and then lets a {@link CacheWatcher}
 * stream into a {@link ChunkedWatchSink}, or, when the client asked for a WebSocket, switches
 * the connection to WebSocket ({@link WebSocketUpgrade}) and streams into a
 * {@link WebSocketWatchSink}. Every failure becomes a kube Status; an unexpected one is
 * logged and answered 500.
 *
 * <p>One instance per connection; confined to the connection's event loop, except that
 * completions of asynchronous work write through the channel (which Netty hands over to the
 * event loop).
 */
final class ApiHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

  private static final Logger LOG = LoggerFactory.getLogger(ApiHandler.class);

  private final ApiRoutes routes;
  private final HandlerChain chain;
  private final ConnectionInfo.Listener listener;
  private CacheWatcher activeWatch; // event loop only

  ApiHandler(ApiRoutes routes, HandlerChain chain, ConnectionInfo.Listener listener) {
    this.routes = routes;
    this.chain = chain;
    this.listener = listener;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
    ApiRequest request;
    RequestInfo info;
    HandlerChain.Admission admission;
    try {
      request = ApiRequest.from(req, Connections.info(ctx.channel(), listener));
      info = routes.requestInfo(request);
      admission = chain.admit(request, info);
    } catch (StatusException e) {
      ctx.writeAndFlush(Responses.status(e));
      return;
    }
    request = admission.request();
    if (request.isWatch()) {
      admission.release(); // watches are long-running: not counted in flight
      startWatch(ctx, info, request, req);
      return;
    }
    CompletableFuture<io.listwatch.server.rest.ApiResponse> response;
    try {
      response = routes.handle(info, request);
    } catch (RuntimeException e) {
      response = CompletableFuture.failedFuture(e);
    }
    ApiRequest admitted = request;
    response.whenComplete((r, e) -> {
      admission.release();
      ctx.writeAndFlush(e == null ? Responses.encode(r) : errorResponse(e, admitted));
    });
  }

  /**
   * Starts a watch the filters admitted: its options are checked first (a refusal is a normal
   * HTTP Status), then the response starts, as a WebSocket when the client asked for one on an
   * HTTP/1.1 connection, else as a streamed (chunked) body.
   */
  private void startWatch(ChannelHandlerContext ctx, RequestInfo info, ApiRequest request, FullHttpRequest req) {
    ApiRoutes.WatchStart start;
    try {
      start = routes.prepareWatch(info, request);
    } catch (RuntimeException e) {
      ctx.writeAndFlush(errorResponse(e, request));
      return;
    }
    WatchSink sink;
    Runnable onDone = () -> activeWatch = null;
    if (request.websocketUpgrade() && WebSocketUpgrade.possible(ctx.pipeline())) {
      Optional<FullHttpResponse> refused = WebSocketUpgrade.refusal(ctx, req);
      if (refused.isPresent()) {
        ctx.writeAndFlush(refused.get()).addListener(ChannelFutureListener.CLOSE);
        return;
      }
      sink = WebSocketUpgrade.upgrade(ctx, req, onDone);
    } else {
      HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
      head.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
      head.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache, private");
      HttpUtil.setTransferEncodingChunked(head, true);
      ctx.writeAndFlush(head);
      sink = new ChunkedWatchSink(ctx, onDone);
    }
    start.start(sink).whenComplete((watcher, e) -> ctx.executor().execute(() -> {
      if (e != null) {
        Throwable cause = unwrap(e);
        StatusException status = cause instanceof StatusException se ? se
            : StatusException.internal(String.valueOf(cause.getMessage()));
        if (!(cause instanceof StatusException)) {
          LOG.error("watch {} failed", request.path(), cause);
        }
        sink.write(io.netty.buffer.Unpooled.wrappedBuffer(
            io.listwatch.server.cacher.Frames.error(Responses.bytes(status.status()))));
        sink.end();
      } else if (!ctx.channel().isActive()) {
        watcher.onSinkClosed();
      } else {
        activeWatch = watcher;
        watcher.drain();
      }
    }));
  }

  private FullHttpResponse errorResponse(Throwable e, ApiRequest request) {
    Throwable cause = unwrap(e);
    if (cause instanceof StatusException se) {
      return Responses.status(se);
    }
    LOG.error("{} {} failed", request.method(), request.path(), cause);
    return Responses.status(StatusException.internal(String.valueOf(cause.getMessage())));
  }

  private static Throwable unwrap(Throwable e) {
    while (e instanceof CompletionException && e.getCause() != null) {
      e = e.getCause();
    }
    return e;
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
    if (activeWatch != null && ctx.channel().isWritable()) {
      activeWatch.drain();
    }
    super.channelWritabilityChanged(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (activeWatch != null) {
      activeWatch.onSinkClosed();
      activeWatch = null;
    }
    super.channelInactive(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("connection error; closing", cause);
    ctx.close();
  }
}
