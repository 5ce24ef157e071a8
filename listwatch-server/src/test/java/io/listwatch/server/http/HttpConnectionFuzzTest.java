package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.GenericApiServer;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.server.authz.Decision;
import io.listwatch.server.filters.HandlerChain;
import io.listwatch.server.metrics.ServerMetrics;
import io.listwatch.storage.memory.MemoryStorage;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Coverage-guided fuzzing (Jazzer) of the bytes a client sends on a connection, through
 * the server's own pipeline on an in-memory channel ({@link HttpServerInitializer}'s codec,
 * guards and request handlers, an {@link ApiHandler} over a {@link GenericApiServer} on a
 * {@link MemoryStorage}), as a cluster admin:
 * <ul>
 *   <li>{@code request}: the input is what the client sends (request lines, URLs with their
 *       escapes, headers, bodies, several requests in a row);
 *   <li>{@code webSocketFrames}: a WebSocket watch is opened, then the input is what the client
 *       sends on it (frames of every opcode, fragments, masks, lengths);
 *   <li>{@code http2Frames}: an HTTP/2 connection is opened, then the input is the client's
 *       frames.
 * </ul>
 *
 * <p>Invariants: no exception escapes the pipeline; every response is well-formed and none is a
 * 5xx; after a WebSocket upgrade, what the server sends is well-formed WebSocket frames with
 * nothing after its Close, and no more than the client sent plus the watch's events (a ping's
 * pong echoes at most 125 bytes); over HTTP/2, what the server sends is whole, well-formed
 * frames, no response is a 5xx, and a connection the server ends for the client's protocol
 * error ends with a GOAWAY carrying that error's code. (A connection failed for a protocol violation may close without a Close
 * frame, as RFC 6455 7.1.7 allows; Netty's decoder does so after a malformed Close.)
 *
 * <p>Not thread-safe: one server for the run, one channel per input, on the test thread.
 */
class HttpConnectionFuzzTest {

  private static final String WATCH = "GET /api/v1/namespaces/default/configmaps?watch=true HTTP/1.1\r\n"
      + "Host: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
      + "Sec-WebSocket-Key: " + RawWebSocket.KEY + "\r\n\r\n";
  /** What the server may send beyond what the client did: the watch's events and Close frame. */
  private static final int SLACK_BYTES = 64 * 1024;

  private static MemoryStorage storage;
  private static GenericApiServer core;
  private static HttpServerInitializer connections;

  @BeforeAll
  static void start() {
    storage = MemoryStorage.builder().open();
    core = GenericApiServer.builder(storage).build().start(List.of());
    HandlerChain chain = HandlerChain.builder()
        .authenticators(List.of(request -> Optional.of(
            new UserInfo("admin", "", List.of(UserInfo.MASTERS, UserInfo.AUTHENTICATED), Map.of()))))
        .authorizer(a -> Decision.allow("the fuzzer is a cluster admin"))
        .build();
    connections = new HttpServerInitializer(core.routes(), chain, ConnectionInfo.Listener.SECURE,
        new ConnectionOptions(ConnectionOptions.DEFAULT_IDLE_TIMEOUT,
            new ServerMetrics(info -> true, Clock.system()).requests(), Clock.system()));
  }

  @AfterAll
  static void stop() {
    core.close();
    storage.close();
  }

  @FuzzTest(maxDuration = "2m")
  void request(byte[] input) {
    EmbeddedChannel channel = connection();
    try {
      channel.writeInbound(Unpooled.wrappedBuffer(input));
      channel.runPendingTasks();
      channel.checkException();
      for (HttpResponse response : responses(outbound(channel))) {
        assertThat(response.status().code()).as("status of %s", response).isLessThan(500);
      }
    } finally {
      channel.finishAndReleaseAll();
    }
  }

  @FuzzTest(maxDuration = "2m")
  void webSocketFrames(byte[] input) {
    EmbeddedChannel channel = connection();
    try {
      channel.writeInbound(Unpooled.copiedBuffer(WATCH, StandardCharsets.US_ASCII));
      channel.runPendingTasks();
      String handshake = outbound(channel).toString(StandardCharsets.US_ASCII);
      assertThat(handshake).startsWith("HTTP/1.1 101 ");
      if (channel.isOpen()) {
        channel.writeInbound(Unpooled.wrappedBuffer(input));
        channel.runPendingTasks();
      }
      channel.checkException();
      ByteBuf sent = outbound(channel);
      assertThat(sent.readableBytes()).as("bytes sent").isLessThanOrEqualTo(input.length + SLACK_BYTES);
      List<WebSocketFrame> frames = frames(sent);
      for (int i = 0; i < frames.size() - 1; i++) {
        assertThat(frames.get(i)).as("a frame after the server's Close").isNotInstanceOf(CloseWebSocketFrame.class);
      }
      frames.forEach(ReferenceCountUtil::release);
    } finally {
      channel.finishAndReleaseAll();
    }
  }

  /**
   * An HTTP/2 connection (h2c with prior knowledge, as a client that knows the server speaks it):
   * the test sends the preface and an empty SETTINGS, then the input as the client's frames
   * (HEADERS with HPACK blocks, CONTINUATION, DATA, SETTINGS, PING, WINDOW_UPDATE, RST_STREAM,
   * PRIORITY, GOAWAY, in any order and length).
   */
  @FuzzTest(maxDuration = "2m")
  void http2Frames(byte[] input) throws Http2Exception {
    Http2Exchange exchange = http2Exchange(input);
    for (Http2Headers headers : exchange.frames().responses()) {
      assertThat(Integer.parseInt(headers.status().toString())).as("status of %s", headers).isLessThan(500);
    }
    Http2Exception refused = exchange.refused();
    if (refused != null && !(refused instanceof Http2Exception.StreamException)) {
      assertThat(exchange.frames().goAwayCodes()).as("the GOAWAY that says why: %s", refused.getMessage())
          .contains(refused.error().code());
    }
  }

  /** The HTTP/2 harness itself reads the server's answers and GOAWAYs (else the target would check nothing). */
  @Test
  void http2Exchange_readsTheAnswers_andTheGoAway() throws Http2Exception {
    byte[] getVersion = {0, 0, 23, 1, 5, 0, 0, 0, 1, (byte) 0x82, (byte) 0x86, 0x04, 8, '/', 'v', 'e', 'r', 's', 'i', 'o',
        'n', 0x01, 9, '1', '2', '7', '.', '0', '.', '0', '.', '1'};
    Http2Exchange answered = http2Exchange(getVersion);
    assertThat(answered.refused()).isNull();
    assertThat(answered.frames().responses()).singleElement()
        .satisfies(h -> assertThat(h.status().toString()).isEqualTo("200"));

    byte[] dataOnStream0 = {0, 0, 1, 0, 0, 0, 0, 0, 0, 'x'};
    Http2Exchange refused = http2Exchange(dataOnStream0);
    assertThat(refused.refused()).isNotNull();
    assertThat(refused.frames().goAwayCodes()).containsExactly(Http2Error.PROTOCOL_ERROR.code());
  }

  /** What one HTTP/2 connection did: the server's frames, and the protocol error it reported, if any. */
  private record Http2Exchange(ServerFrames frames, Http2Exception refused) {
  }

  /** Opens an HTTP/2 connection, sends the input as the client's frames, and reads what the server sent. */
  private static Http2Exchange http2Exchange(byte[] input) throws Http2Exception {
    // a connection accepted by a server channel: Netty's HTTP/2 multiplexer asks its parent which side it is
    EmbeddedChannel channel = new EmbeddedChannel(new io.netty.channel.local.LocalServerChannel(),
        io.netty.channel.DefaultChannelId.newInstance(), true, false);
    connections.addConnectionGuards(channel.pipeline());
    connections.addHttp2Handlers(channel.pipeline());
    try {
      Http2Exception refused = protocolError(() -> {
        channel.writeInbound(Unpooled.copiedBuffer(H2_PREFACE_AND_SETTINGS));
        channel.writeInbound(Unpooled.wrappedBuffer(input));
        channel.runPendingTasks();
        channel.checkException();
      });
      return new Http2Exchange(http2Frames(outbound(channel)), refused);
    } finally {
      protocolError(channel::finishAndReleaseAll);
    }
  }

  /**
   * Runs {@code step} of an HTTP/2 connection; returns the HTTP/2 error the codec reported
   * (its report of the client's protocol error, after the GOAWAY or RST_STREAM it sent), null if
   * none; any other exception escapes.
   */
  private static Http2Exception protocolError(Runnable step) {
    try {
      step.run();
      return null;
    } catch (Exception e) {
      if (e instanceof Http2Exception h2) {
        return h2;
      }
      throw e;
    }
  }

  private static final byte[] H2_PREFACE_AND_SETTINGS;

  static {
    byte[] preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    H2_PREFACE_AND_SETTINGS = java.util.Arrays.copyOf(preface, preface.length + 9);
    H2_PREFACE_AND_SETTINGS[preface.length + 3] = 0x4; // an empty SETTINGS frame
  }

  /** What an HTTP/2 server sent: its responses' headers and its GOAWAY codes. */
  private record ServerFrames(List<Http2Headers> responses, List<Long> goAwayCodes) {
  }

  /**
   * Reads what an HTTP/2 server sent as a client does (frames, HPACK); fails unless it is whole,
   * well-formed frames.
   */
  private static ServerFrames http2Frames(ByteBuf bytes) throws Http2Exception {
    ServerFrames out = new ServerFrames(new ArrayList<>(), new ArrayList<>());
    Http2FrameAdapter listener = new Http2FrameAdapter() {
      @Override
      public void onHeadersRead(io.netty.channel.ChannelHandlerContext ctx, int streamId, Http2Headers headers,
          int padding, boolean endOfStream) {
        if (headers.status() != null) {
          out.responses().add(headers);
        }
      }

      @Override
      public void onGoAwayRead(io.netty.channel.ChannelHandlerContext ctx, int lastStreamId, long errorCode,
          ByteBuf debugData) {
        out.goAwayCodes().add(errorCode);
      }
    };
    EmbeddedChannel client = new EmbeddedChannel(new io.netty.channel.ChannelInboundHandlerAdapter());
    try (DefaultHttp2FrameReader reader = new DefaultHttp2FrameReader()) {
      reader.readFrame(client.pipeline().firstContext(), bytes, listener);
      assertThat(bytes.readableBytes()).as("bytes of a last frame cut short").isZero();
    } finally {
      bytes.release();
      client.finishAndReleaseAll();
    }
    return out;
  }

  /** An in-memory connection with the handlers a plain HTTP/1.1 connection gets. */
  private static EmbeddedChannel connection() {
    EmbeddedChannel channel = new EmbeddedChannel();
    connections.addConnectionGuards(channel.pipeline());
    channel.pipeline().addLast("codec", HttpServerInitializer.http1Codec());
    connections.addHttp1Handlers(channel.pipeline());
    return channel;
  }

  /** Everything the server wrote, in one buffer. */
  private static ByteBuf outbound(EmbeddedChannel channel) {
    ByteBuf all = Unpooled.buffer();
    Object o;
    while ((o = channel.readOutbound()) != null) {
      if (o instanceof ByteBuf b) {
        all.writeBytes(b);
      }
      ReferenceCountUtil.release(o);
    }
    return all;
  }

  /** The HTTP responses in {@code bytes}; fails on bytes that are not responses. */
  private static List<HttpResponse> responses(ByteBuf bytes) {
    EmbeddedChannel client = new EmbeddedChannel(new HttpResponseDecoder());
    client.writeInbound(bytes);
    client.finish();
    List<HttpResponse> out = new ArrayList<>();
    Object o;
    while ((o = client.readInbound()) != null) {
      if (o instanceof HttpObject h) {
        assertThat(h.decoderResult().isSuccess()).as("a well-formed response: %s", h).isTrue();
      }
      if (o instanceof HttpResponse r) {
        out.add(r);
      }
      ReferenceCountUtil.release(o);
    }
    return out;
  }

  /** The WebSocket frames in {@code bytes}, as a client reads them; fails on anything else. */
  private static List<WebSocketFrame> frames(ByteBuf bytes) {
    EmbeddedChannel client = new EmbeddedChannel(new WebSocket13FrameDecoder(WebSocketDecoderConfig.newBuilder()
        .expectMaskedFrames(false).allowMaskMismatch(false).maxFramePayloadLength(Integer.MAX_VALUE)
        .closeOnProtocolViolation(false).build()));
    client.writeInbound(bytes);
    client.checkException();
    List<WebSocketFrame> out = new ArrayList<>();
    Object o;
    while ((o = client.readInbound()) != null) {
      out.add((WebSocketFrame) o);
    }
    client.finishAndReleaseAll();
    return out;
  }
}
