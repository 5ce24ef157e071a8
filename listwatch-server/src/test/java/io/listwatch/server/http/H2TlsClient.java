package io.listwatch.server.http;

import io.listwatch.server.tls.CertifiedKey;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2PingFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Netty HTTP/2 client over one TLS connection (ALPN h2, a client certificate), for tests
 * that need what the JDK client hides: many streams on one connection, a small per-stream
 * flow-control window, a stream that stops reading, and the server's GOAWAY.
 *
 * <p>Thread-safe: stream state is updated on the client's event loop and read through
 * atomics and latches.
 */
final class H2TlsClient implements AutoCloseable {

  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final Channel connection;
  private final String authority;
  /** Counted down when the server's GOAWAY arrives. */
  final CountDownLatch goAway = new CountDownLatch(1);
  /** Completes with the payload of the first PING acknowledgement from the server. */
  final CompletableFuture<Long> pingAck = new CompletableFuture<>();

  /**
   * Connects to {@code baseUrl} presenting {@code client}, trusting {@code ca}, advertising
   * {@code streamWindow} bytes as each stream's initial flow-control window.
   */
  H2TlsClient(String baseUrl, CertifiedKey client, X509Certificate ca, int streamWindow) throws Exception {
    URI uri = URI.create(baseUrl);
    authority = uri.getHost() + ":" + uri.getPort();
    SslContext ssl = SslContextBuilder.forClient()
        .keyManager(client.privateKey(), client.chain().toArray(X509Certificate[]::new))
        .trustManager(ca)
        .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
            ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
            ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, ApplicationProtocolNames.HTTP_2))
        .build();
    CompletableFuture<String> alpn = new CompletableFuture<>();
    connection = new Bootstrap().group(group).channel(NioSocketChannel.class)
        .handler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            SslHandler tls = ssl.newHandler(ch.alloc(), uri.getHost(), uri.getPort());
            tls.handshakeFuture().addListener(f -> {
              if (f.isSuccess()) {
                alpn.complete(String.valueOf(tls.applicationProtocol()));
              } else {
                alpn.completeExceptionally(f.cause());
              }
            });
            ch.pipeline().addLast(tls,
                Http2FrameCodecBuilder.forClient()
                    .initialSettings(Http2Settings.defaultSettings().initialWindowSize(streamWindow))
                    .build(),
                new Http2MultiplexHandler(new ChannelInboundHandlerAdapter()),
                new ChannelInboundHandlerAdapter() {
                  @Override
                  public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    if (msg instanceof Http2GoAwayFrame) {
                      goAway.countDown();
                    } else if (msg instanceof Http2PingFrame ping && ping.ack()) {
                      pingAck.complete(ping.content());
                    }
                    ReferenceCountUtil.release(msg);
                  }
                });
          }
        })
        .connect(uri.getHost(), uri.getPort()).sync().channel();
    String protocol = alpn.get(15, TimeUnit.SECONDS);
    if (!ApplicationProtocolNames.HTTP_2.equals(protocol)) {
      throw new AssertionError("the server did not negotiate h2 by ALPN: " + protocol);
    }
  }

  /** Opens {@code GET path} as a new stream on the connection. */
  Stream get(String path) throws Exception {
    Stream s = new Stream();
    Http2StreamChannel channel = new Http2StreamChannelBootstrap(connection).handler(s).open().sync().getNow();
    s.channel = channel;
    DefaultHttp2Headers headers = new DefaultHttp2Headers();
    headers.method("GET").scheme("https").authority(authority).path(path).add("accept", "application/json");
    channel.writeAndFlush(new DefaultHttp2HeadersFrame(headers, true)).sync();
    return s;
  }

  /** Sends a PING with {@code payload} on the connection. */
  void ping(long payload) throws InterruptedException {
    connection.writeAndFlush(new DefaultHttp2PingFrame(payload)).sync();
  }

  /** Grows the connection's flow-control window by {@code bytes} (a WINDOW_UPDATE on stream 0), as client-go does. */
  void growConnectionWindow(int bytes) throws InterruptedException {
    connection.writeAndFlush(new io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame(bytes)).sync();
  }

  /** Stops or resumes reading the connection's socket (every stream at once). */
  void readConnection(boolean read) throws Exception {
    connection.eventLoop().submit(() -> connection.config().setAutoRead(read)).get(5, TimeUnit.SECONDS);
  }

  /** Whether every stream still runs on the one connection this client opened. */
  boolean connected() {
    return connection.isActive();
  }

  @Override
  public void close() {
    connection.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }

  /** One request stream: its status, the lines of its body as they arrive, how it ended. */
  static final class Stream extends ChannelInboundHandlerAdapter {
    volatile Http2StreamChannel channel;
    final CompletableFuture<String> status = new CompletableFuture<>();
    /** Complete body lines received. */
    final AtomicInteger lines = new AtomicInteger();
    final AtomicLong bytes = new AtomicLong();
    /** Completes with "end-stream" (DATA or HEADERS with END_STREAM), "reset" or "closed". */
    final CompletableFuture<String> ended = new CompletableFuture<>();
    private final StringBuilder partial = new StringBuilder();
    /** Notified on every complete line. */
    private final Object progress = new Object();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      try {
        if (msg instanceof Http2HeadersFrame h) {
          if (h.headers().status() != null) {
            status.complete(h.headers().status().toString());
          }
          if (h.isEndStream()) {
            ended.complete("end-stream");
          }
        } else if (msg instanceof Http2DataFrame d) {
          ByteBuf content = d.content();
          bytes.addAndGet(content.readableBytes());
          partial.append(content.toString(StandardCharsets.UTF_8));
          for (int nl; (nl = partial.indexOf("\n")) >= 0; ) {
            partial.delete(0, nl + 1);
            lines.incrementAndGet();
            synchronized (progress) {
              progress.notifyAll();
            }
          }
          if (d.isEndStream()) {
            ended.complete("end-stream");
          }
        } else if (msg instanceof Http2ResetFrame) {
          ended.complete("reset");
        }
      } finally {
        ReferenceCountUtil.release(msg);
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      ended.complete("closed");
    }

    /** Stops taking data from this stream: its flow-control window is no longer returned to the server. */
    void stopReading() throws Exception {
      channel.eventLoop().submit(() -> channel.config().setAutoRead(false)).get(5, TimeUnit.SECONDS);
    }

    /** Waits at most {@code bound} for {@code n} lines; returns whether they arrived. */
    boolean awaitLines(int n, Duration bound) throws InterruptedException {
      long deadline = System.nanoTime() + bound.toNanos();
      synchronized (progress) {
        for (long left; lines.get() < n && (left = deadline - System.nanoTime()) > 0; ) {
          TimeUnit.NANOSECONDS.timedWait(progress, left);
        }
      }
      return lines.get() >= n;
    }
  }
}
