package io.listwatch.bench.server;

import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * How the watches of a fan-out point reach the server. The writers use HTTP/1.1 keep-alive
 * connections ({@link RawHttp}), over TLS for the TLS transports. On the command line each is
 * named by its {@link EnumLabels label}.
 */
enum Transport {
  /** Plain HTTP/1.1, chunked: the raw selector client, one connection per watch. */
  HTTP1(false),
  /** As {@link #HTTP1}, with the watches in kube's protobuf (length-prefixed WatchEvents). */
  HTTP1_PROTOBUF(false),
  /** HTTP/1.1 over TLS (ALPN http/1.1), chunked: one connection per watch. */
  HTTP1_TLS(true),
  /** HTTP/2 over TLS (ALPN h2): the watches as streams of as few connections as the stream limit allows. */
  H2_TLS(true),
  /** WebSocket over TLS: one connection per watch, one message per event. */
  WS_TLS(true),
  /** HTTP/2 without TLS, by prior knowledge (h2c), on the plain listener. */
  H2C(false),
  /** WebSocket without TLS, on the plain listener. */
  WS(false);

  final boolean tls;

  Transport(boolean tls) {
    this.tls = tls;
  }

  /** The transport {@code s} names, e.g. {@code http1-tls}. */
  static Transport parse(String s) {
    return EnumLabels.parse(Transport.class, "transport", s);
  }

  /** A fleet of watches over this transport to {@code address}; {@code tls} for the TLS ones. */
  WatchFleet fleet(InetSocketAddress address, TlsClient tls, int streamsPerConnection) throws IOException {
    SslContext http1 = this.tls ? tls.http1() : null;
    return switch (this) {
      case HTTP1 -> new RawWatchFleet(address, WatchWire.JSON, false);
      case HTTP1_PROTOBUF -> new RawWatchFleet(address, WatchWire.PROTOBUF, false);
      case HTTP1_TLS -> new NettyWatchFleet(address, NettyWatchFleet.Protocol.HTTP1, http1, 1);
      case H2_TLS -> new NettyWatchFleet(address, NettyWatchFleet.Protocol.H2, tls.h2(), streamsPerConnection);
      case WS -> new RawWatchFleet(address, WatchWire.JSON, true);
      case WS_TLS -> new NettyWatchFleet(address, NettyWatchFleet.Protocol.WEBSOCKET, http1, 1);
      case H2C -> new NettyWatchFleet(address, NettyWatchFleet.Protocol.H2, null, streamsPerConnection);
    };
  }

  /** Its label on the command line, e.g. {@code http1-tls}. */
  @Override
  public String toString() {
    return EnumLabels.of(this);
  }
}
