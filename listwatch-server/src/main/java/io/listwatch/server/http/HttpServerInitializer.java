package io.listwatch.server.http;

import io.listwatch.api.StatusException;
import io.listwatch.server.filters.HandlerChain;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.rest.ApiRoutes;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http2.CleartextHttp2ServerUpgradeHandler;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.UniformStreamByteDistributor;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.flow.FlowControlHandler;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;

/**
 * The per-connection pipeline. Plain HTTP/1.1, or HTTP/2 without TLS (h2c) by prior
 * knowledge or by {@code Upgrade: h2c}; each HTTP/2 stream gets the same handlers as an
 * HTTP/1.1 connection through Netty's stream-to-HTTP codec, so there is one request path
 * and one watch fan-out path for both. Per request: the body aggregator (bodies over the
 * limit get a 413 Status), then the {@link ApiHandler}, which runs the filters (authentication,
 * authorization) before its handlers. An admitted watch that asks for a WebSocket switches
 * its HTTP/1.1 connection to WebSocket: the HTTP handlers leave the pipeline and Netty's frame
 * codec takes their place ({@link WebSocketUpgrade}).
 *
 * <p>Every connection is guarded: {@link IdleConnections} closes one with nothing to do,
 * {@link WriteBackpressure} stops reading from one whose client does not read its responses.
 */
public final class HttpServerInitializer extends ChannelInitializer<SocketChannel> {

  /** The name of an HTTP/1.1 connection's keep-alive handler in its pipeline. */
  static final String KEEP_ALIVE = "keep-alive";
  /** kube-apiserver's request body limit: 3 MiB. */
  public static final int MAX_BODY_BYTES = 3 * 1024 * 1024;
  /** Concurrent streams per HTTP/2 connection (kube's default). */
  static final int MAX_CONCURRENT_STREAMS = 1000;
  /**
   * A flush from one HTTP/2 stream flushes the whole connection (the flow controller hands out
   * bytes to every stream, then TLS encrypts what it got); when a watch event goes to many
   * streams of one connection at once, their flushes are merged into one per loop turn, or one
   * per this many.
   */
  private static final int FLUSHES_PER_CONNECTION_FLUSH = 256;
  /** How long closing an HTTP/2 connection waits for streams in flight. */
  public static final long GRACEFUL_SHUTDOWN_MILLIS = 1000;
  static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(256 * 1024, 1024 * 1024);

  private final ApiRoutes routes;
  private final HandlerChain chain;
  private final ConnectionInfo.Listener listener;
  private final ConnectionOptions options;

  public HttpServerInitializer(ApiRoutes routes, HandlerChain chain, ConnectionInfo.Listener listener,
      ConnectionOptions options) {
    this.routes = routes;
    this.chain = chain;
    this.listener = listener;
    this.options = options;
  }

  @Override
  protected void initChannel(SocketChannel ch) {
    ch.config().setWriteBufferWaterMark(WATER_MARK);
    addConnectionGuards(ch.pipeline());
    HttpServerCodec http1 = http1Codec();
    ChannelPipeline p = ch.pipeline();
    HttpServerUpgradeHandler upgrade = new HttpServerUpgradeHandler(http1, protocol ->
        AsciiString.contentEquals(Http2CodecUtil.HTTP_UPGRADE_PROTOCOL_NAME, protocol) ? upgradeToHttp2(p) : null,
        MAX_BODY_BYTES);
    p.addLast("h2c", new CleartextHttp2ServerUpgradeHandler(http1, upgrade, new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel c) {
        addHttp2Handlers(c.pipeline());
      }
    }));
    p.addLast("http1", new Http1Fallback());
  }

  /**
   * Adds HTTP/2 to a connection: the frame codec, around it the {@link LingeringClose} that lets
   * a GOAWAY for a connection error reach the peer, and the stream multiplexer whose streams get
   * the request handlers. Used for h2c with prior knowledge and for h2 negotiated by ALPN (and,
   * put in place by the upgrade codec, for {@code Upgrade: h2c}: {@link #upgradeToHttp2}).
   */
  void addHttp2Handlers(ChannelPipeline p) {
    LingeringClose lingeringClose = new LingeringClose();
    p.addLast(lingeringClose.beforeCodec(), http2FrameCodec());
    p.addLast(afterFrameCodec(lingeringClose));
  }

  /**
   * What follows the HTTP/2 frame codec in every HTTP/2 pipeline, in order: the lingering
   * close's second half, flush consolidation, the stream multiplexer.
   */
  private ChannelHandler[] afterFrameCodec(LingeringClose lingeringClose) {
    return new ChannelHandler[] {lingeringClose.afterCodec(),
        new FlushConsolidationHandler(FLUSHES_PER_CONNECTION_FLUSH, true), new Http2MultiplexHandler(streamInitializer())};
  }

  /**
   * The codec that switches a connection to HTTP/2 when an HTTP/1.1 request asks for it with
   * {@code Upgrade: h2c}: the same handlers as {@link #addHttp2Handlers}. The codec puts the frame
   * codec and what follows it where the upgrade handler is; the {@link LingeringClose} half that
   * goes before the frame codec is put there now. If the upgrade is then refused (a malformed
   * {@code HTTP2-Settings}), that half stays in an HTTP/1.1 pipeline, where it does nothing: it
   * acts only on an HTTP/2 connection error, which only its other half reports.
   */
  private Http2ServerUpgradeCodec upgradeToHttp2(ChannelPipeline p) {
    LingeringClose lingeringClose = new LingeringClose();
    p.addBefore(p.context(HttpServerUpgradeHandler.class).name(), null, lingeringClose.beforeCodec());
    return new Http2ServerUpgradeCodec(http2FrameCodec(), afterFrameCodec(lingeringClose));
  }

  /**
   * Adds what guards every connection, first in its pipeline: {@link IdleConnections} and
   * {@link WriteBackpressure}.
   */
  void addConnectionGuards(ChannelPipeline p) {
    p.addLast("idle", new IdleConnections(options.idleTimeout().toNanos(), options.clock()));
    p.addLast("backpressure", new WriteBackpressure(options.readingPausedCounter()));
  }

  /** Adds the request handlers of an HTTP/1.1 connection, after its codec at the end of {@code p}. */
  void addHttp1Handlers(ChannelPipeline p) {
    // with reading paused (WriteBackpressure), requests already read wait here undecoded
    p.addLast("flow-control", new FlowControlHandler());
    p.addLast(KEEP_ALIVE, new HttpServerKeepAliveHandler());
    p.addLast("aggregator", new StatusAggregator(MAX_BODY_BYTES));
    p.addLast("api", new ApiHandler(routes, chain, listener, options));
  }

  /** The HTTP/1.1 codec with kube's limit on the request line and headers ({@link MalformedRequests}). */
  static HttpServerCodec http1Codec() {
    return new HttpServerCodec(MalformedRequests.MAX_HEADER_BYTES, MalformedRequests.MAX_HEADER_BYTES, 8192);
  }

  /**
   * The request path and query of the watch {@code connection} serves over WebSocket, if it
   * has switched to WebSocket for one (for tests and diagnostics).
   */
  public static java.util.Optional<String> webSocketWatch(Channel connection) {
    return WebSocketUpgrade.watchPath(connection);
  }

  private static io.netty.handler.codec.http2.Http2FrameCodec http2FrameCodec() {
    return new Http2FrameCodecBuilder() {
      {
        // (a server connection: the builder takes that from it.) Watch streams all want bytes at once and have no priorities worth honouring: the
        // uniform distributor shares the connection's window round-robin, at a fraction of the
        // weighted-fair one's cost per flush (kube's Go server has no priorities either).
        Http2Connection connection = new DefaultHttp2Connection(true);
        connection.remote().flowController(
            new DefaultHttp2RemoteFlowController(connection, new UniformStreamByteDistributor(connection)));
        connection(connection);
      }
    }
        .initialSettings(Http2Settings.defaultSettings().maxConcurrentStreams(MAX_CONCURRENT_STREAMS)
            .maxHeaderListSize(MalformedRequests.MAX_HEADER_BYTES))
        // Closing a connection (server shutdown) sends GOAWAY and waits at most this long for
        // streams in flight; watches have been ended by then (Netty's default is 30 s).
        .gracefulShutdownTimeoutMillis(GRACEFUL_SHUTDOWN_MILLIS)
        .build();
  }

  private ChannelInitializer<Channel> streamInitializer() {
    return new ChannelInitializer<>() {
      @Override
      protected void initChannel(Channel stream) {
        stream.config().setWriteBufferWaterMark(WATER_MARK);
        stream.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(true),
            new StatusAggregator(MAX_BODY_BYTES), new ApiHandler(routes, chain, listener, options));
      }
    };
  }

  /**
   * Completes the pipeline for a plain HTTP/1.1 connection once the first request shows no
   * upgrade happened.
   */
  private final class Http1Fallback extends SimpleChannelInboundHandler<HttpMessage> {
    Http1Fallback() {
      super(false);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpMessage msg) {
      ChannelPipeline p = ctx.pipeline();
      addHttp1Handlers(p); // this handler is last: they go right after it
      p.remove(this);
      ctx.fireChannelRead(msg);
    }
  }

  /** An aggregator that answers an oversized body with a kube Status instead of plain text. */
  private static final class StatusAggregator extends HttpObjectAggregator {
    StatusAggregator(int max) {
      super(max);
    }

    /** With "Expect: 100-continue", a too-large body is refused before it is sent: as a Status too. */
    @Override
    protected Object newContinueResponse(HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
      Object response = super.newContinueResponse(start, maxContentLength, pipeline);
      if (response instanceof FullHttpResponse r
          && r.status().code() == HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE.code()) {
        ReferenceCountUtil.release(r);
        return tooLarge();
      }
      return response;
    }

    /**
     * Answers 413 as soon as the body is known to be too large. A keep-alive connection stays
     * open and the rest of the body is discarded as it arrives: closing while the client is
     * still sending would make the kernel reset the connection and lose the answer.
     */
    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
      boolean keepOpen = !(oversized instanceof io.netty.handler.codec.http.FullHttpMessage)
          && HttpUtil.isKeepAlive(oversized);
      FullHttpResponse r = Responses.status(StatusException.tooLarge(
          "the request body is larger than the limit of " + MAX_BODY_BYTES + " bytes"));
      HttpUtil.setKeepAlive(r, keepOpen);
      ctx.writeAndFlush(r).addListener(keepOpen ? ChannelFutureListener.CLOSE_ON_FAILURE : ChannelFutureListener.CLOSE);
    }

    private static FullHttpResponse tooLarge() {
      FullHttpResponse r = Responses.status(StatusException.tooLarge(
          "the request body is larger than the limit of " + MAX_BODY_BYTES + " bytes"));
      HttpUtil.setKeepAlive(r, false);
      return r;
    }
  }
}
