package io.listwatch.bench.server;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.handler.ssl.SslContext;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Watches over Netty on one event-loop thread, for the transports the raw selector client
 * does not speak: HTTP/1.1 over TLS (one connection per watch, the chunked body parsed by
 * {@link ChunkedWatchResponse}), HTTP/2 with or without TLS (up to
 * {@code streamsPerConnection} watches as streams of one connection, DATA frames parsed by
 * {@link EventLines}), and WebSocket with or without TLS (one connection per watch, one
 * message per event). TLS is Netty's {@code SslHandler} with the given context, so the
 * client's TLS costs what the chosen provider costs.
 *
 * <p>HTTP/2 connections advertise a 1 MiB stream window and grow the connection window to
 * 64 MiB, as Go's HTTP/2 client (client-go) does in spirit (4 MiB and 1 GiB there), so flow
 * control does not throttle 1,000 streams on one connection.
 *
 * <p>Threads: every handler runs on the one event-loop thread, which owns the
 * {@link WatchTally} and publishes it after each read; {@link #open} and {@link #close} run
 * on the caller's thread.
 */
final class NettyWatchFleet implements WatchFleet {

  /** The watch protocol. */
  enum Protocol { HTTP1, H2, WEBSOCKET }

  private static final int STREAM_WINDOW = 1 << 20;
  private static final int CONNECTION_WINDOW = 64 << 20;

  private final InetSocketAddress address;
  private final Protocol protocol;
  private final SslContext ssl;
  private final int streamsPerConnection;
  private final WatchTally tally;
  private final EventLoopGroup group;

  /**
   * @param ssl null for plain TCP; its ALPN offer must fit the protocol ({@link TlsClient})
   */
  NettyWatchFleet(InetSocketAddress address, Protocol protocol, SslContext ssl, int streamsPerConnection) {
    this.address = address;
    this.protocol = protocol;
    this.ssl = ssl;
    this.streamsPerConnection = streamsPerConnection;
    this.tally = WatchWire.JSON.tally();
    this.group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("watch-fleet-netty", true),
        NioIoHandler.newFactory());
    group.scheduleAtFixedRate(tally::publish, 10, 10, TimeUnit.MILLISECONDS);
  }

  @Override
  public WatchTally tally() {
    return tally;
  }

  @Override
  public void open(String pathAndQuery, int count) throws IOException, InterruptedException {
    switch (protocol) {
      case HTTP1 -> {
        byte[] request = ("GET " + pathAndQuery + " HTTP/1.1\r\nHost: " + authority()
            + "\r\nAccept: application/json\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < count; i++) {
          connect(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
              addTls(ch.pipeline(), ch);
              ch.pipeline().addLast(new Http1Watch(request));
            }
          });
        }
      }
      case H2 -> {
        for (int opened = 0; opened < count; ) {
          Channel parent = connect(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
              addTls(ch.pipeline(), ch);
              ch.pipeline().addLast(Http2FrameCodecBuilder.forClient()
                      .initialSettings(Http2Settings.defaultSettings().initialWindowSize(STREAM_WINDOW))
                      .build(),
                  new Http2MultiplexHandler(new ChannelInboundHandlerAdapter()));
            }
          });
          parent.writeAndFlush(new DefaultHttp2WindowUpdateFrame(CONNECTION_WINDOW - 65_535));
          int n = Math.min(streamsPerConnection, count - opened);
          Http2StreamChannelBootstrap streams = new Http2StreamChannelBootstrap(parent);
          for (int i = 0; i < n; i++) {
            Http2StreamChannel stream = streams.handler(new H2Watch()).open().sync().getNow();
            Http2Headers headers = new DefaultHttp2Headers().method("GET").path(pathAndQuery)
                .scheme(ssl != null ? "https" : "http").authority(authority());
            headers.add("accept", "application/json");
            stream.writeAndFlush(new DefaultHttp2HeadersFrame(headers, true));
          }
          opened += n;
        }
      }
      case WEBSOCKET -> {
        URI uri = URI.create((ssl != null ? "wss://" : "ws://") + authority() + pathAndQuery);
        for (int i = 0; i < count; i++) {
          connect(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
              addTls(ch.pipeline(), ch);
              ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(64 * 1024),
                  new WebSocketClientProtocolHandler(WebSocketClientProtocolConfig.newBuilder()
                      .webSocketUri(uri).version(WebSocketVersion.V13).allowExtensions(false)
                      .customHeaders(new DefaultHttpHeaders().add("Accept", "application/json"))
                      .maxFramePayloadLength(16 << 20).handshakeTimeoutMillis(60_000).dropPongFrames(true)
                      // Netty checks text frames' UTF-8 byte by byte by default, which cost this one
                      // thread more than all else (JFR) and capped the WebSocket figures; the other
                      // clients here do not validate the bytes either
                      .withUTF8Validator(false)
                      .build()),
                  new WebSocketWatch());
            }
          });
        }
      }
      default -> throw new IllegalStateException();
    }
  }

  private String authority() {
    return address.getHostString() + ":" + address.getPort();
  }

  private void addTls(ChannelPipeline p, Channel ch) {
    if (ssl != null) {
      p.addLast(ssl.newHandler(ch.alloc(), address.getHostString(), address.getPort()));
    }
  }

  /** Connects (blocking until the TCP connection is up; TLS goes on in the background). */
  private Channel connect(ChannelInitializer<Channel> init) throws IOException, InterruptedException {
    ChannelFuture f = new Bootstrap().group(group).channel(NioSocketChannel.class)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
        .handler(init).connect(address).await();
    if (!f.isSuccess()) {
      throw new IOException("cannot connect to " + address, f.cause());
    }
    return f.channel();
  }

  @Override
  public void close() {
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
  }

  /** Calls {@code lines} for each NIO view of {@code buf}'s readable bytes. */
  private static void eachBuffer(ByteBuf buf, BufferReader reader) {
    if (buf.nioBufferCount() == 1) {
      ByteBuffer b = buf.internalNioBuffer(buf.readerIndex(), buf.readableBytes());
      reader.read(b, b.position(), b.limit());
    } else {
      for (ByteBuffer b : buf.nioBuffers()) {
        reader.read(b, b.position(), b.limit());
      }
    }
  }

  @FunctionalInterface
  private interface BufferReader {
    void read(ByteBuffer b, int from, int to);
  }

  /** One HTTP/1.1 watch connection (after TLS, if any). */
  private final class Http1Watch extends ChannelInboundHandlerAdapter {
    private final byte[] request;
    private final ChunkedWatchResponse response = new ChunkedWatchResponse(tally, WatchWire.JSON);
    private boolean open = true;

    Http1Watch(byte[] request) {
      this.request = request;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      ctx.writeAndFlush(Unpooled.wrappedBuffer(request));
      ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      try {
        if (open) {
          long now = System.nanoTime();
          eachBuffer(buf, (b, from, to) -> {
            if (open && !response.read(b, from, to, now)) {
              open = false;
            }
          });
          if (!open) {
            ctx.close();
          }
        }
      } finally {
        buf.release();
      }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      tally.publish();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      response.connectionClosed(null);
      tally.publish();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      response.connectionClosed(cause.toString());
      ctx.close();
    }
  }

  /** One HTTP/2 watch stream. */
  /**
   * How an HTTP/2 or WebSocket watch ends: once, counted in the tally as failed (with why) or
   * not, whether it ends by the server, an error, or the channel closing.
   */
  private abstract class WatchHandler extends ChannelInboundHandlerAdapter {
    boolean streaming;
    boolean done;

    /** The failure to count when the channel closes before the watch started streaming. */
    abstract String closedBeforeStart();

    /** The record of the writes this watch saw. */
    abstract SeenWrites watch();

    final void end(ChannelHandlerContext ctx, String failure) {
      if (!done) {
        done = true;
        tally.stopped(watch(), streaming, failure);
        ctx.close();
      }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      tally.publish();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      if (!done) {
        done = true;
        tally.stopped(watch(), streaming, streaming ? null : closedBeforeStart());
      }
      tally.publish();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      end(ctx, cause.toString());
    }
  }

  private final class H2Watch extends WatchHandler {
    private final EventLines lines = new EventLines(tally);

    @Override
    SeenWrites watch() {
      return lines.watch();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      try {
        if (done) {
          return;
        }
        if (msg instanceof Http2HeadersFrame h) {
          if (!streaming) {
            CharSequence status = h.headers().status();
            if (status == null || !"200".contentEquals(status)) {
              end(ctx, "watch answered :status " + status);
              return;
            }
            streaming = true;
            tally.started();
          }
          if (h.isEndStream()) {
            end(ctx, null);
          }
        } else if (msg instanceof Http2DataFrame d) {
          long now = System.nanoTime();
          eachBuffer(d.content(), (b, from, to) -> lines.data(b, from, to, now));
          if (d.isEndStream()) {
            end(ctx, null);
          }
        } else if (msg instanceof Http2ResetFrame r) {
          end(ctx, "stream reset by the server, error code " + r.errorCode()); // a watch ends with END_STREAM
        }
      } finally {
        ReferenceCountUtil.release(msg);
      }
    }

    @Override
    String closedBeforeStart() {
      return "stream closed before its response head";
    }
  }

  /** One WebSocket watch connection: one text (or binary) message per event. */
  private final class WebSocketWatch extends WatchHandler {
    private final byte[] head = new byte[WatchTally.HEAD];
    private final SeenWrites watch = tally.watch();

    @Override
    SeenWrites watch() {
      return watch;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_COMPLETE && !streaming) {
        streaming = true;
        tally.started();
      } else if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_TIMEOUT) {
        end(ctx, "WebSocket handshake timed out");
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      try {
        if (!done && (msg instanceof TextWebSocketFrame || msg instanceof BinaryWebSocketFrame)) {
          ByteBuf c = ((io.netty.handler.codec.http.websocketx.WebSocketFrame) msg).content();
          int len = Math.min(head.length, c.readableBytes());
          c.getBytes(c.readerIndex(), head, 0, len);
          tally.event(watch, head, len, System.nanoTime());
        }
      } finally {
        ReferenceCountUtil.release(msg);
      }
    }

    @Override
    String closedBeforeStart() {
      return "connection closed before the WebSocket handshake";
    }
  }
}
