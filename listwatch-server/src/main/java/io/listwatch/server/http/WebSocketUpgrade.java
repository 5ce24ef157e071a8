package io.listwatch.server.http;

import io.listwatch.api.StatusException;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshaker;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshakerFactory;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import io.netty.handler.ssl.SslHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Switches an HTTP/1.1 connection that asked for a WebSocket watch to the WebSocket
 * protocol, with Netty's handshaker and frame codec. Called by {@link ApiHandler} only after
 * the request passed the filters and the watch's options were accepted, so a refused
 * request gets a normal HTTP Status answer, never a 101.
 *
 * <h2>Subprotocols</h2>
 * A watch needs none and kube's watch handler negotiates none, but clients built for
 * kube's streaming endpoints may offer {@code channel.k8s.io}, {@code v4.channel.k8s.io},
 * {@code v5.channel.k8s.io}, {@code base64.channel.k8s.io}, {@code binary.k8s.io} or
 * {@code base64.binary.k8s.io}. The upgrade is accepted whatever the client offers; the
 * first of these the client offered is selected and echoed in {@code Sec-WebSocket-Protocol}
 * (others are not, and then none is). The messages are the same for every subprotocol: one
 * text message of plain event JSON per event, with no channel byte and no base64, which is
 * what kube-apiserver sends a watch client whatever it offered. A client that works against
 * kube therefore works here, and every watcher shares the same event bytes.
 *
 * <p>Stateless.
 */
final class WebSocketUpgrade {

  private static final Logger LOG = LoggerFactory.getLogger(WebSocketUpgrade.class);

  /** The subprotocols a watch accepts, in no order of preference: the client's order decides. */
  static final List<String> SUBPROTOCOLS = List.of("v5.channel.k8s.io", "v4.channel.k8s.io",
      "channel.k8s.io", "base64.channel.k8s.io", "binary.k8s.io", "base64.binary.k8s.io");
  /** The largest frame a client may send (a watch ignores messages); larger ones close the connection. */
  static final int MAX_CLIENT_FRAME_BYTES = 64 * 1024;

  private static final WebSocketDecoderConfig DECODER = WebSocketDecoderConfig.newBuilder()
      .maxFramePayloadLength(MAX_CLIENT_FRAME_BYTES)
      .allowExtensions(false)
      .expectMaskedFrames(true)
      .closeOnProtocolViolation(true)
      .build();

  private WebSocketUpgrade() {
  }

  /**
   * True when the connection can switch protocols: an HTTP/1.1 connection (cleartext or
   * TLS). An HTTP/2 stream cannot; a watch there is served as a normal streamed response.
   */
  static boolean possible(ChannelPipeline pipeline) {
    return pipeline.get(HttpServerCodec.class) != null || pipeline.get(HttpRequestDecoder.class) != null;
  }

  /**
   * A Status to answer instead of switching, when the handshake request is not valid
   * (unsupported WebSocket version, no key); the connection is closed after it.
   */
  static Optional<FullHttpResponse> refusal(ChannelHandlerContext api, FullHttpRequest req) {
    if (handshakers(api, req).newHandshaker(req) == null) {
      FullHttpResponse refused = refusal("unsupported WebSocket version "
          + req.headers().get(HttpHeaderNames.SEC_WEBSOCKET_VERSION) + "; this server speaks version "
          + WebSocketVersion.V13.toHttpHeaderValue());
      refused.headers().set(HttpHeaderNames.SEC_WEBSOCKET_VERSION, WebSocketVersion.V13.toHttpHeaderValue());
      return Optional.of(refused);
    }
    if (!req.headers().contains(HttpHeaderNames.SEC_WEBSOCKET_KEY)) {
      return Optional.of(refusal("a WebSocket upgrade needs a Sec-WebSocket-Key header"));
    }
    return Optional.empty();
  }

  /**
   * Answers the handshake (101) of a request {@link #refusal} accepted, and installs the
   * WebSocket frame codec and the returned sink on the connection. Should the handshake still
   * fail, the connection is closed, which ends the watch.
   *
   * @param api the context of the {@link ApiHandler} that admitted the request
   * @param encoding the watch's encoding (protobuf events are binary messages)
   * @param onDone see {@link WebSocketWatchSink}
   * @param responseHeaders headers to add to the 101 response (its {@code Audit-Id})
   */
  static WebSocketWatchSink upgrade(ChannelHandlerContext api, FullHttpRequest req,
      io.listwatch.apiserver.cacher.WatchEncoding encoding, Runnable onDone,
      io.netty.handler.codec.http.HttpHeaders responseHeaders) {
    WebSocketServerHandshaker handshaker = handshakers(api, req).newHandshaker(req);
    // the connection stops being HTTP: nothing may aggregate or keep-alive-track what follows
    ChannelPipeline p = api.pipeline();
    List<ChannelHandler> http = new ArrayList<>();
    for (Map.Entry<String, ChannelHandler> e : p) {
      ChannelHandler h = e.getValue();
      if (h instanceof HttpObjectAggregator || h instanceof HttpServerKeepAliveHandler
          || h instanceof HttpServerUpgradeHandler) { // (the last is an aggregator too)
        http.add(h);
      }
    }
    http.forEach(p::remove);
    WebSocketWatchSink sink = new WebSocketWatchSink(api, handshaker, req.uri(), encoding, onDone);
    p.addAfter(api.name(), "websocket-watch", sink);
    try {
      handshaker.handshake(api.channel(), req, responseHeaders, api.channel().newPromise())
          .addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    } catch (WebSocketHandshakeException e) {
      LOG.debug("WebSocket handshake failed; closing", e);
      api.close();
    }
    return sink;
  }

  private static WebSocketServerHandshakerFactory handshakers(ChannelHandlerContext api, FullHttpRequest req) {
    String scheme = api.pipeline().get(SslHandler.class) != null ? "wss://" : "ws://";
    return new WebSocketServerHandshakerFactory(
        scheme + req.headers().get(HttpHeaderNames.HOST, "localhost") + req.uri(),
        String.join(",", SUBPROTOCOLS), DECODER);
  }

  /** A 400 Status after which the connection closes. */
  private static FullHttpResponse refusal(String message) {
    FullHttpResponse r = Responses.status(StatusException.badRequest(message));
    HttpUtil.setKeepAlive(r, false);
    return r;
  }

  /**
   * The request path of the WebSocket watch served on {@code connection}, if it serves one.
   */
  static Optional<String> watchPath(Channel connection) {
    WebSocketWatchSink sink = connection.pipeline().get(WebSocketWatchSink.class);
    return sink == null ? Optional.empty() : Optional.of(sink.path());
  }
}
