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
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Coverage-guided fuzzing (Jazzer) of the bytes a client sends on an HTTP/1.1 connection, through
 * the server's own pipeline on an in-memory channel ({@link HttpServerInitializer}'s codec,
 * guards and request handlers, an {@link ApiHandler} over a {@link GenericApiServer} on a
 * {@link MemoryStorage}), as a cluster admin:
 * <ul>
 *   <li>{@code request}: the input is what the client sends (request lines, URLs with their
 *       escapes, headers, bodies, several requests in a row);
 *   <li>{@code webSocketFrames}: a WebSocket watch is opened, then the input is what the client
 *       sends on it (frames of every opcode, fragments, masks, lengths).
 * </ul>
 *
 * <p>Invariants: no exception escapes the pipeline; every response is well-formed and none is a
 * 5xx; after a WebSocket upgrade, what the server sends is well-formed WebSocket frames with
 * nothing after its Close, and no more than the client sent plus the watch's events (a ping's
 * pong echoes at most 125 bytes). (A connection failed for a protocol violation may close
 * without a Close frame, as RFC 6455 7.1.7 allows; Netty's decoder does so after a malformed
 * Close.)
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
