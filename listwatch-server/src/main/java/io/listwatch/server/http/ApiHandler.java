package io.listwatch.server.http;

import io.listwatch.api.StatusException;
import io.listwatch.server.audit.RequestAudit;
import io.listwatch.apiserver.cacher.CacheWatcher;
import io.listwatch.apiserver.cacher.WatchEncoding;
import io.listwatch.apiserver.cacher.WatchSink;
import io.listwatch.apiserver.protobuf.KubeProtobuf;
import io.listwatch.server.filters.HandlerChain;
import io.listwatch.server.metrics.RequestMetrics;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.rest.ApiRoutes;
import io.listwatch.apiserver.flowcontrol.Rejection;
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
 * logged and answered 500. Every answer is counted in the {@link RequestMetrics} and audited
 * ({@link RequestAudit}: stage ResponseComplete when a response is complete, for a watch
 * ResponseStarted when its head is sent and ResponseComplete when it ends), and carries the
 * request's {@code Audit-Id} header; a
 * request's hold on the limits ({@link HandlerChain.Admission#release()}) ends when its response
 * is handed to the connection, a watch's when the watch ends.
 *
 * <p>One instance per connection; confined to the connection's event loop, except that
 * completions of asynchronous work write through the channel (which Netty hands over to the
 * event loop).
 */
final class ApiHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

  private static final Logger LOG = LoggerFactory.getLogger(ApiHandler.class);
  /** Where lists' objects are converted to protobuf: virtual threads, off the event loops. */
  private static final java.util.concurrent.Executor CONVERSIONS =
      java.util.concurrent.Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("protobuf-list-", 0).factory());

  private final ApiRoutes routes;
  private final HandlerChain chain;
  private final ConnectionInfo.Listener listener;
  private final RequestMetrics metrics;
  private final ConnectionOptions options;
  private CacheWatcher activeWatch; // event loop only
  /** Aborts the request being proxied to an aggregated API on this channel, if any; event loop only. */
  private Runnable activeProxy;
  /** The list response being streamed on this channel, if any, and its hold on the limits; event loop only. */
  private ListStreamWriter activeList;
  private HandlerChain.Admission listAdmission;
  /** The running watch's hold on the limits and on the connection's idle clock; event loop only. */
  private HandlerChain.Admission watchAdmission;
  private IdleConnections watchIdle;
  /** The running watch's audit record, completed when the watch ends; event loop only. */
  private RequestAudit watchAudit;
  private int watchCode;

  ApiHandler(ApiRoutes routes, HandlerChain chain, ConnectionInfo.Listener listener, ConnectionOptions options) {
    this.routes = routes;
    this.chain = chain;
    this.listener = listener;
    this.metrics = options.metrics();
    this.options = options;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
    if (req.decoderResult().isFailure()) {
      MalformedRequests.refuse(ctx, req.decoderResult().cause());
      return;
    }
    long startNanos = metrics.startTime();
    IdleConnections idle = IdleConnections.of(ctx.channel());
    idle.requestStarted();
    RequestAudit audit = RequestAudit.begin(options.audit(), options.clock(), req.method().name(), req.uri(),
        req.headers(), ctx.channel().remoteAddress());
    ApiRequest request;
    RequestInfo info = null;
    CompletableFuture<HandlerChain.Admission> pending;
    try {
      request = ApiRequests.from(req, Connections.info(ctx.channel(), listener), audit.annotations());
      info = routes.requestInfo(request);
      audit.requestInfo(info);
      pending = chain.admitAsync(request, info, audit);
    } catch (StatusException e) {
      refuse(ctx, req, info, e, java.util.Map.of(), idle, audit, startNanos);
      return;
    }
    RequestInfo admittedInfo = info;
    if (pending.isDone() && !pending.isCancelled()) {
      // admitted or refused at once, as most requests are: answered here, nothing retained
      boolean refused = pending.isCompletedExceptionally();
      admitted(ctx, req, admittedInfo, refused ? null : pending.resultNow(), refused ? pending.exceptionNow() : null,
          idle, audit, startNanos);
      return;
    }
    // waits in an API Priority and Fairness queue: the request outlives this call, and leaves its
    // queue if the client goes away. handle, not whenComplete: the stage whenComplete returns
    // would wrap a refusal in a CompletionException with a stack trace of its own
    req.retain();
    io.netty.util.concurrent.GenericFutureListener<io.netty.util.concurrent.Future<Void>> gone = f -> pending.cancel(false);
    ctx.channel().closeFuture().addListener(gone);
    pending.handle((admission, e) -> {
      onEventLoop(ctx, () -> {
        try {
          ctx.channel().closeFuture().removeListener(gone);
          admitted(ctx, req, admittedInfo, admission, e, idle, audit, startNanos);
        } finally {
          req.release();
        }
      });
      return null;
    });
  }

  /**
   * Serves a request API Priority and Fairness let through ({@code admission}), or answers its
   * refusal ({@code e}: a {@link Rejection} is kube's 429, cancellation means the client went
   * away). Event loop.
   */
  private void admitted(ChannelHandlerContext ctx, FullHttpRequest req, RequestInfo info,
      HandlerChain.Admission admission, Throwable e, IdleConnections idle, RequestAudit audit, long startNanos) {
    if (e == null) {
      serve(ctx, req, info, admission, idle, audit, startNanos);
    } else if (unwrap(e) instanceof Rejection rejection) {
      refuse(ctx, req, info, rejection.status(), HandlerChain.responseHeaders(rejection.classification()), idle,
          audit, startNanos);
    } else if (!(unwrap(e) instanceof java.util.concurrent.CancellationException)) {
      LOG.error("{} {} failed in flow control", req.method(), req.uri(), e);
      refuse(ctx, req, info, StatusException.internal(String.valueOf(unwrap(e).getMessage())), java.util.Map.of(),
          idle, audit, startNanos);
    } else {
      idle.requestEnded();
    }
  }

  /** Answers a request the filters refused (401, 403, 429) with its Status and {@code headers}. */
  private void refuse(ChannelHandlerContext ctx, FullHttpRequest req, RequestInfo info, StatusException e,
      java.util.Map<String, String> headers, IdleConnections idle, RequestAudit audit, long startNanos) {
    if (info != null) {
      record(info, req.headers().get(HttpHeaderNames.CONTENT_TYPE), e.code(), startNanos);
    }
    FullHttpResponse refused = Responses.status(e, Negotiation.prefersProtobuf(req.headers().get(HttpHeaderNames.ACCEPT)));
    headers.forEach((k, v) -> refused.headers().set(k, v));
    audit.stamp(refused);
    audit.responseComplete(e.code(), e.status());
    ctx.writeAndFlush(refused);
    idle.requestEnded();
  }

  /** Serves a request the filters admitted. Event loop. */
  private void serve(ChannelHandlerContext ctx, FullHttpRequest req, RequestInfo info, HandlerChain.Admission admission,
      IdleConnections idle, RequestAudit audit, long startNanos) {
    ApiRequest request = admission.request();
    if (!ctx.channel().isActive()) {
      admission.release();
      idle.requestEnded();
      return;
    }
    if (proxied(ctx, info, request, admission, idle, audit, startNanos)) {
      return;
    }
    if (request.isWatch()) {
      // watches are long-running: not counted in flight, but held against the user's watch limit
      startWatch(ctx, info, request, req, admission, idle, audit);
      return;
    }
    CompletableFuture<io.listwatch.apiserver.request.ApiResponse> response;
    try {
      response = routes.handle(info, request);
    } catch (RuntimeException e) {
      response = CompletableFuture.failedFuture(e);
    }
    ApiRequest admitted = request;
    // a protobuf list whose items were never converted converts them off the event loop (100,000
    // pods take seconds), so that the connections sharing it are not held up
    response = response.thenCompose(r -> Responses.needsProtobufForms(r, admitted)
        ? CompletableFuture.supplyAsync(() -> Responses.convertProtobufForms(r), CONVERSIONS)
        : CompletableFuture.completedFuture(r));
    RequestInfo served = info;
    String acceptEncoding = req.headers().get(HttpHeaderNames.ACCEPT_ENCODING);
    response.whenComplete((r, e) -> onEventLoop(ctx, () -> {
      Optional<ListBodyChunks> list = e == null ? Responses.streamedList(r, admitted) : Optional.empty();
      if (list.isPresent()) {
        // a streamed list holds its seats until its last chunk is handed to the connection
        record(served, admitted.contentType(), r.code(), startNanos);
        HttpResponse head = Responses.streamedListHead(r, list.get());
        admission.responseHeaders().forEach((k, v) -> head.headers().set(k, v));
        ListBodyChunks body = list.get();
        if (ResponseCompression.applies(options.responseCompression(), acceptEncoding, body.length())) {
          body = new GzipBodyChunks(body);
          ResponseCompression.compressed(head);
        }
        audit.stamp(head);
        audit.responseComplete(r.code(), null);
        ctx.write(head);
        stream(ctx, body, admission, idle);
        return;
      }
      FullHttpResponse out = e == null ? Responses.encode(r, admitted) : errorResponse(e, admitted);
      admission.responseHeaders().forEach((k, v) -> out.headers().set(k, v));
      if (e != null) {
        addDeprecationWarnings(out, served); // a success has them from the routes
      }
      record(served, admitted.contentType(), out.status().code(), startNanos);
      audit.stamp(out);
      audit.responseComplete(out.status().code(), e == null ? statusBody(r) : errorStatus(e));
      if (ResponseCompression.applies(options.responseCompression(), acceptEncoding, out.content().readableBytes())) {
        // compressed a chunk per turn of the loop, as a list is written, holding its seats until the end
        HttpResponse head = new DefaultHttpResponse(out.protocolVersion(), out.status(), out.headers());
        ResponseCompression.compressed(head);
        ctx.write(head);
        stream(ctx, new GzipBodyChunks(new FullBodyChunks(out.content(), out.headers().get(
            HttpHeaderNames.CONTENT_TYPE))), admission, idle);
        return;
      }
      admission.release();
      ctx.writeAndFlush(out);
      idle.requestEnded();
    }));
  }

  /**
   * Writes a body after its head, a chunk per turn of the event loop ({@link ListStreamWriter}),
   * holding the request's seats ({@code admission}) until its last chunk is handed to the
   * connection.
   */
  private void stream(ChannelHandlerContext ctx, ListBodyChunks body, HandlerChain.Admission admission,
      IdleConnections idle) {
    listAdmission = admission;
    activeList = new ListStreamWriter(ctx, body, () -> {
      activeList = null;
      listAdmission = null;
      admission.release();
      idle.requestEnded();
    });
    activeList.resume();
  }

  /**
   * Sends a request of an aggregated API on to its server ({@link AggregatedApiProxy}), or
   * answers 503 as kube's proxy does while that API is unavailable; false when this server
   * answers the request itself.
   */
  private boolean proxied(ChannelHandlerContext ctx, RequestInfo info, ApiRequest request,
      HandlerChain.Admission admission, IdleConnections idle, RequestAudit audit, long startNanos) {
    Optional<io.listwatch.apiserver.rest.AggregatedApis.ProxyTarget> target;
    try {
      target = routes.proxyTarget(request);
    } catch (StatusException e) {
      admission.release();
      record(info, request.contentType(), e.code(), startNanos);
      FullHttpResponse refused = Responses.text(HttpResponseStatus.valueOf(e.code()), e.getMessage() + "\n");
      audit.stamp(refused);
      audit.responseComplete(e.code(), e.status());
      ctx.writeAndFlush(refused);
      idle.requestEnded();
      return true;
    }
    if (target.isEmpty()) {
      return false;
    }
    activeProxy = AggregatedApiProxy.forward(ctx, request, target.get(), code -> {
      activeProxy = null;
      admission.release();
      record(info, request.contentType(), code, startNanos);
      audit.responseComplete(code, null);
      idle.requestEnded();
    });
    return true;
  }

  private void record(RequestInfo info, String contentType, int code, long startNanos) {
    if (info.verb().equals("watch")) {
      metrics.watchStarted(info, code);
    } else {
      metrics.completed(info, contentType, code, startNanos);
    }
  }

  private static void onEventLoop(ChannelHandlerContext ctx, Runnable task) {
    if (ctx.executor().inEventLoop()) {
      task.run();
    } else {
      ctx.executor().execute(task);
    }
  }

  /**
   * Starts a watch the filters admitted: its options are checked first (a refusal is a normal
   * HTTP Status), then the response starts, as a WebSocket when the client asked for one on an
   * HTTP/1.1 connection, else as a streamed (chunked) body.
   */
  private void startWatch(ChannelHandlerContext ctx, RequestInfo info, ApiRequest request, FullHttpRequest req,
      HandlerChain.Admission admission, IdleConnections idle, RequestAudit audit) {
    io.listwatch.apiserver.request.WatchStart start;
    Optional<TableOptions> table;
    try {
      start = (io.listwatch.apiserver.request.WatchStart) routes.handle(info, request).join().body();
      table = TableOptions.negotiate(request);
    } catch (RuntimeException e) {
      admission.release();
      FullHttpResponse refused = errorResponse(e, request);
      addDeprecationWarnings(refused, info);
      metrics.watchStarted(info, refused.status().code());
      audit.stamp(refused);
      audit.responseComplete(refused.status().code(), errorStatus(e));
      ctx.writeAndFlush(refused);
      idle.requestEnded();
      return;
    }
    WatchSink sink;
    // a Table watch (kubectl get -w) prints from JSON events
    WatchEncoding encoding = table.isEmpty() && Negotiation.prefersProtobuf(request.accept()) && routes.resources().hasProtobuf(info)
        ? WatchEncoding.PROTOBUF : WatchEncoding.JSON;
    if (request.websocketUpgrade() && WebSocketUpgrade.possible(ctx.pipeline())) {
      Optional<FullHttpResponse> refused = WebSocketUpgrade.refusal(ctx, req);
      if (refused.isPresent()) {
        admission.release();
        metrics.watchStarted(info, refused.get().status().code());
        audit.stamp(refused.get());
        audit.responseComplete(refused.get().status().code(), null);
        ctx.writeAndFlush(refused.get()).addListener(ChannelFutureListener.CLOSE);
        idle.requestEnded();
        return;
      }
      metrics.watchStarted(info, HttpResponseStatus.SWITCHING_PROTOCOLS.code());
      watchAdmission = admission;
      watchIdle = idle;
      watchAudit = audit;
      watchCode = HttpResponseStatus.SWITCHING_PROTOCOLS.code();
      audit.responseStarted(watchCode);
      sink = WebSocketUpgrade.upgrade(ctx, req, encoding, this::watchOver,
          new io.netty.handler.codec.http.DefaultHttpHeaders().set(RequestAudit.AUDIT_ID_HEADER, audit.auditId()));
    } else {
      HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
      head.headers().set(HttpHeaderNames.CONTENT_TYPE, encoding == WatchEncoding.PROTOBUF
          ? KubeProtobuf.WATCH_MEDIA_TYPE : HttpHeaderValues.APPLICATION_JSON.toString());
      head.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache, private");
      addDeprecationWarnings(head, info);
      HttpUtil.setTransferEncodingChunked(head, true);
      admission.responseHeaders().forEach((k, v) -> head.headers().set(k, v));
      metrics.watchStarted(info, HttpResponseStatus.OK.code());
      audit.stamp(head);
      ctx.writeAndFlush(head);
      watchAdmission = admission;
      watchIdle = idle;
      watchAudit = audit;
      watchCode = HttpResponseStatus.OK.code();
      audit.responseStarted(watchCode);
      sink = new ChunkedWatchSink(ctx, encoding, this::watchOver);
    }
    // kubectl get -w: this watcher alone pays for printing its events
    WatchSink out = table.isPresent() ? new TableWatchSink(sink, start.resource().tableConvertor(), table.get()) : sink;
    var begun = start.begin(out);
    begun.whenComplete((w, e) -> admission.initialized()); // its initial events are queued: APF's seats go back
    begun.thenAccept(started -> started.ifPresent(watcher -> {
      if (!ctx.channel().isActive()) {
        watcher.onSinkClosed();
      } else {
        activeWatch = watcher;
        watcher.drain();
      }
    }));
  }

  /** The watch on this channel is over (ended, aborted, or its client gone): release its limits. Event loop. */
  private void watchOver() {
    activeWatch = null;
    if (watchAudit != null) {
      watchAudit.responseComplete(watchCode, null);
      watchAudit = null;
    }
    if (watchAdmission != null) {
      watchAdmission.release();
      watchAdmission = null;
      watchIdle.requestEnded();
      watchIdle = null;
    }
  }

  /** kube warns of a deprecated custom resource version on every answer, failures included. */
  private void addDeprecationWarnings(HttpResponse response, RequestInfo info) {
    for (String warning : routes.deprecationWarnings(info)) {
      response.headers().add("Warning", io.listwatch.apiserver.request.ApiResponse.warningHeader(warning));
    }
  }

  private FullHttpResponse errorResponse(Throwable e, ApiRequest request) {
    Throwable cause = unwrap(e);
    boolean protobuf = Negotiation.prefersProtobuf(request.accept());
    if (cause instanceof StatusException se) {
      return Responses.status(se, protobuf);
    }
    LOG.error("{} {} failed", request.method(), request.path(), cause);
    return Responses.status(StatusException.internal(String.valueOf(cause.getMessage())), protobuf);
  }

  /** The Status a failure is answered with (an unexpected failure's is a 500 InternalError). */
  private static io.listwatch.api.Status errorStatus(Throwable e) {
    Throwable cause = unwrap(e);
    return cause instanceof StatusException se ? se.status()
        : StatusException.internal(String.valueOf(cause.getMessage())).status();
  }

  /** The Status a successful response carries as its body (a delete's), else null. */
  private static io.listwatch.api.Status statusBody(io.listwatch.apiserver.request.ApiResponse r) {
    return r.body() instanceof io.listwatch.apiserver.request.ApiResponse.Value v
        && v.value() instanceof io.listwatch.api.Status s ? s : null;
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
    if (activeList != null && ctx.channel().isWritable()) {
      activeList.resume();
    }
    super.channelWritabilityChanged(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (activeProxy != null) {
      activeProxy.run();
    }
    if (activeWatch != null) {
      activeWatch.onSinkClosed();
    }
    if (activeList != null) {
      activeList.abandon();
      activeList = null;
    }
    if (listAdmission != null) {
      listAdmission.release();
      listAdmission = null;
    }
    watchOver();
    super.channelInactive(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("connection error; closing", cause);
    ctx.close();
  }
}
