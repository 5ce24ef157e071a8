package io.listwatch.server.http;

import io.listwatch.server.filters.HandlerChain;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.rest.ApiRoutes;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-connection pipeline of the TLS listener: TLS (client certificates requested, not
 * required, as the {@link SslContext} says), then the protocol ALPN chose: {@code h2} gets the
 * same HTTP/2 handlers as h2c (frame codec, stream multiplexer, one request pipeline per
 * stream), {@code http/1.1} (or no ALPN) the HTTP/1.1 handlers of {@link HttpServerInitializer}.
 * Every request is marked {@link ConnectionInfo.Listener#SECURE}, so the filters authenticate
 * it. A client that does not complete its handshake within the timeout or fails it is
 * disconnected; one that speaks plain HTTP to this port gets Go's 400 text first.
 *
 * <p>Thread-safe: one instance serves every connection of the listener; the negotiated
 * protocol counts are concurrent adders.
 */
public final class SecureServerInitializer extends ChannelInitializer<SocketChannel> {

  private static final Logger LOG = LoggerFactory.getLogger(SecureServerInitializer.class);

  private final SslContext sslContext;
  private final long handshakeTimeoutMillis;
  private final HttpServerInitializer http;
  private final Map<String, LongAdder> negotiated = new ConcurrentHashMap<>();

  public SecureServerInitializer(SslContext sslContext, Duration handshakeTimeout, ApiRoutes routes,
      HandlerChain chain, ConnectionOptions options) {
    this.sslContext = sslContext;
    this.handshakeTimeoutMillis = handshakeTimeout.toMillis();
    this.http = new HttpServerInitializer(routes, chain, ConnectionInfo.Listener.SECURE, options);
  }

  @Override
  protected void initChannel(SocketChannel ch) {
    ch.config().setWriteBufferWaterMark(HttpServerInitializer.WATER_MARK);
    SslHandler tls = sslContext.newHandler(ch.alloc());
    tls.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
    ChannelPipeline p = ch.pipeline();
    http.addConnectionGuards(p);
    p.addLast("plain-http-check", new PlainHttpOnTlsPort());
    p.addLast("tls", tls);
    p.addLast("alpn", new Negotiation());
  }

  /**
   * How many TLS connections negotiated each application protocol since the start:
   * {@code h2}, {@code http/1.1} (which includes clients that sent no ALPN).
   */
  public Map<String, Long> negotiatedProtocols() {
    Map<String, Long> out = new TreeMap<>();
    negotiated.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  /** Completes the pipeline once the handshake is done. */
  private final class Negotiation extends ApplicationProtocolNegotiationHandler {
    Negotiation() {
      super(ApplicationProtocolNames.HTTP_1_1);
    }

    @Override
    protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
      negotiated.computeIfAbsent(protocol, k -> new LongAdder()).increment();
      ChannelPipeline p = ctx.pipeline();
      switch (protocol) {
        case ApplicationProtocolNames.HTTP_2 -> http.addHttp2Handlers(p);
        case ApplicationProtocolNames.HTTP_1_1 -> {
          p.addLast("http1-codec", HttpServerInitializer.http1Codec());
          http.addHttp1Handlers(p);
        }
        default -> {
          LOG.debug("closing {}: unexpected application protocol {}", ctx.channel().remoteAddress(), protocol);
          ctx.close();
        }
      }
    }

    /** Scanners, plain-HTTP clients and untrusted certificates end here: close quietly. */
    @Override
    protected void handshakeFailure(ChannelHandlerContext ctx, Throwable cause) {
      LOG.debug("TLS handshake with {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
      ctx.close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      LOG.debug("closing TLS connection from {}: {}", ctx.channel().remoteAddress(), cause.toString());
      ctx.close();
    }
  }
}
