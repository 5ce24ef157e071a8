package io.listwatch.bench.server;

import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Locale;

/**
 * How the watches of a fan-out point reach the server. The writers use HTTP/1.1 keep-alive
 * connections ({@link RawHttp}), over TLS for the TLS transports.
 */
enum Transport {
  /** Plain HTTP/1.1, chunked: the raw selector client, one connection per watch. */
  HTTP1("http1", false),
  /** As {@link #HTTP1}, with the watches in kube's protobuf (length-prefixed WatchEvents). */
  HTTP1_PROTOBUF("http1-protobuf", false),
  /** HTTP/1.1 over TLS (ALPN http/1.1), chunked: one connection per watch. */
  HTTP1_TLS("http1-tls", true),
  /** HTTP/2 over TLS (ALPN h2): the watches as streams of as few connections as the stream limit allows. */
  H2_TLS("h2-tls", true),
  /** WebSocket over TLS: one connection per watch, one message per event. */
  WS_TLS("ws-tls", true),
  /** HTTP/2 without TLS, by prior knowledge (h2c), on the plain listener. */
  H2C("h2c", false),
  /** WebSocket without TLS, on the plain listener. */
  WS("ws", false);

  final String label;
  final boolean tls;

  Transport(String label, boolean tls) {
    this.label = label;
    this.tls = tls;
  }

  static Transport parse(String s) {
    String t = s.trim().toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(v -> v.label.equals(t)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown transport '" + s + "'; one of "
            + Arrays.stream(values()).map(v -> v.label).toList()));
  }

  /** A fleet of watches over this transport to {@code address}; {@code tls} for the TLS ones. */
  WatchFleet fleet(InetSocketAddress address, TlsClient tls, int streamsPerConnection)
      throws IOException, InterruptedException {
    SslContext http1 = this.tls ? tls.http1() : null;
    return switch (this) {
      case HTTP1 -> new RawWatchFleet(address, WatchWire.JSON);
      case HTTP1_PROTOBUF -> new RawWatchFleet(address, WatchWire.PROTOBUF);
      case HTTP1_TLS -> new NettyWatchFleet(address, NettyWatchFleet.Protocol.HTTP1, http1, 1);
      case H2_TLS -> new NettyWatchFleet(address, NettyWatchFleet.Protocol.H2, tls.h2(), streamsPerConnection);
      case WS_TLS, WS -> new NettyWatchFleet(address, NettyWatchFleet.Protocol.WEBSOCKET, http1, 1);
      case H2C -> new NettyWatchFleet(address, NettyWatchFleet.Protocol.H2, null, streamsPerConnection);
    };
  }

  @Override
  public String toString() {
    return label;
  }
}
