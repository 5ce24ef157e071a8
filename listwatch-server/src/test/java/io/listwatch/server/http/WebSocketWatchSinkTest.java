package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshaker13;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The WebSocket sink on an in-memory channel: how batches of events become messages (one
 * frame per event, all of a batch's frames in one buffer, as a client's decoder reads them),
 * and the control frames.
 */
class WebSocketWatchSinkTest {

  private final AtomicInteger done = new AtomicInteger();
  private final EmbeddedChannel channel = new EmbeddedChannel();
  private final WebSocketWatchSink sink;

  WebSocketWatchSinkTest() {
    channel.freezeTime(); // the sink's timers run when a test advances the channel's clock
    ChannelHandlerContext[] api = new ChannelHandlerContext[1];
    channel.pipeline().addLast("api", new ChannelInboundHandlerAdapter() {
      @Override
      public void handlerAdded(ChannelHandlerContext ctx) {
        api[0] = ctx;
      }
    });
    sink = new WebSocketWatchSink(api[0], new WebSocketServerHandshaker13("ws://127.0.0.1/api/v1/pods", null,
        io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig.newBuilder().build()), "/api/v1/pods?watch=true",
        io.listwatch.apiserver.cacher.WatchEncoding.JSON, done::incrementAndGet);
    channel.pipeline().addLast(sink);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * The frames in what {@code ch} wrote, as a client reads them (Netty's decoder, unmasked frames
   * expected), and how many buffers carried them.
   */
  private static List<WebSocketFrame> decodedFrames(EmbeddedChannel ch, int[] buffers) {
    EmbeddedChannel client = new EmbeddedChannel(new WebSocket13FrameDecoder(WebSocketDecoderConfig.newBuilder()
        .expectMaskedFrames(false).allowExtensions(false).maxFramePayloadLength(1 << 20).build()));
    Object o;
    while ((o = ch.readOutbound()) != null) {
      assertThat(o).as("frames written as bytes").isInstanceOf(ByteBuf.class);
      buffers[0]++;
      client.writeInbound(o);
    }
    List<WebSocketFrame> frames = new ArrayList<>();
    WebSocketFrame f;
    while ((f = client.readInbound()) != null) {
      assertThat(f.isFinalFragment()).as("unfragmented").isTrue();
      assertThat(f.rsv()).as("no extension bits").isZero();
      frames.add(f);
    }
    client.finishAndReleaseAll();
    return frames;
  }

  private List<String> writtenTexts() {
    List<String> texts = new ArrayList<>();
    for (WebSocketFrame f : decodedFrames(channel, new int[1])) {
      texts.add(((TextWebSocketFrame) f).text());
      f.release();
    }
    return texts;
  }

  @Test
  void compositeBatch_becomesOneTextFramePerEvent_allInOneBuffer() {
    byte[] prefix = ascii("{\"type\":\"ADDED\",\"object\":");
    byte[] suffix = ascii("}\n");
    byte[] bookmark = ascii("{\"type\":\"BOOKMARK\",\"object\":{}}\n");
    byte[] large = ascii("{\"type\":\"ADDED\",\"object\":{\"c\":\"" + "x".repeat(70_000) + "\"}}\n");
    byte[] medium = ascii("{\"type\":\"ADDED\",\"object\":{\"d\":\"" + "y".repeat(200) + "\"}}\n");
    byte[][] batch = {prefix, ascii("{\"a\":1}"), suffix, prefix, ascii("{\"b\":2}"), suffix, bookmark, large, medium};

    sink.write(batch);
    sink.flush();

    int[] buffers = new int[1];
    List<String> texts = new ArrayList<>();
    for (WebSocketFrame f : decodedFrames(channel, buffers)) {
      texts.add(((TextWebSocketFrame) f).text());
      f.release();
    }
    assertThat(buffers[0]).as("one buffer per batch").isEqualTo(1);
    assertThat(texts).containsExactly(
        "{\"type\":\"ADDED\",\"object\":{\"a\":1}}\n",
        "{\"type\":\"ADDED\",\"object\":{\"b\":2}}\n",
        "{\"type\":\"BOOKMARK\",\"object\":{}}\n",
        new String(large, StandardCharsets.US_ASCII),
        new String(medium, StandardCharsets.US_ASCII));
  }

  @Test
  void batchWithoutFinalNewline_sendsTheRestAsOneMoreMessage() {
    sink.write(new byte[][] {ascii("{\"a\":1}\n"), ascii("{\"b\":"), ascii("2}")});
    sink.flush();

    assertThat(writtenTexts()).containsExactly("{\"a\":1}\n", "{\"b\":2}");
  }

  @Test
  void protobufWatch_sendsEachWatchEventAsOneBinaryMessage_withoutItsLength() {
    EmbeddedChannel pb = new EmbeddedChannel();
    ChannelHandlerContext[] api = new ChannelHandlerContext[1];
    pb.pipeline().addLast("api", new ChannelInboundHandlerAdapter() {
      @Override
      public void handlerAdded(ChannelHandlerContext ctx) {
        api[0] = ctx;
      }
    });
    WebSocketWatchSink binary = new WebSocketWatchSink(api[0], new WebSocketServerHandshaker13(
        "ws://127.0.0.1/api/v1/pods", null, io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig.newBuilder()
            .build()), "/api/v1/pods?watch=true", io.listwatch.apiserver.cacher.WatchEncoding.PROTOBUF, () -> { });
    pb.pipeline().addLast(binary);
    byte[] first = {1, 2, 3};
    byte[] second = {9, 8, 7, 6, 5};

    binary.write(new byte[][] {{0, 0, 0, 3}, first, {0, 0, 0, 5}, second});
    binary.flush();

    List<byte[]> messages = new ArrayList<>();
    for (WebSocketFrame f : decodedFrames(pb, new int[1])) {
      assertThat(f).isInstanceOf(io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame.class);
      messages.add(io.netty.buffer.ByteBufUtil.getBytes(f.content()));
      f.release();
    }
    assertThat(messages).containsExactly(first, second);
    pb.finishAndReleaseAll();
  }

  @Test
  void singleBufferWithSeveralLines_becomesOneMessagePerLine() {
    sink.write(new byte[][] {ascii("{\"type\":\"ERROR\",\"object\":{}}\n{\"type\":\"X\",\"object\":{}}\n")});
    sink.flush();

    assertThat(writtenTexts()).containsExactly("{\"type\":\"ERROR\",\"object\":{}}\n", "{\"type\":\"X\",\"object\":{}}\n");
  }

  /** Moves the channel's clock on and runs the timers that are due. */
  private void advanceMillis(long millis) {
    channel.advanceTimeBy(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
    channel.runScheduledPendingTasks();
  }

  @Test
  void end_sendsNormalClosure_andClosesWhenTheClientAnswers() {
    advanceMillis(WebSocketWatchSink.FIRST_CLOSE_AFTER_MILLIS);
    sink.end();

    CloseWebSocketFrame close = channel.readOutbound();
    assertThat(close.statusCode()).isEqualTo(1000);
    close.release();
    assertThat(done).hasValue(1);
    assertThat(channel.isOpen()).as("waits for the client's Close").isTrue();

    channel.writeInbound(new CloseWebSocketFrame(1000, ""));
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void end_rightAfterTheHandshake_sendsTheErrorAtOnce_andTheCloseOnlyWhenTheFirstSecondIsUp() {
    sink.write(new byte[][] {ascii("{\"type\":\"ERROR\",\"object\":{\"code\":410}}\n")});
    sink.end();

    assertThat(done).as("the watch's limits are released at once").hasValue(1);
    assertThat(writtenTexts()).containsExactly("{\"type\":\"ERROR\",\"object\":{\"code\":410}}\n");
    advanceMillis(WebSocketWatchSink.FIRST_CLOSE_AFTER_MILLIS - 1);
    assertThat((Object) channel.readOutbound()).as("no Close before the first second is up").isNull();

    advanceMillis(1);
    CloseWebSocketFrame close = channel.readOutbound();
    assertThat(close.statusCode()).isEqualTo(1000);
    close.release();
    advanceMillis(WebSocketWatchSink.CLOSE_WAIT_MILLIS);
    assertThat(channel.isOpen()).as("closed when the client does not answer").isFalse();
  }

  @Test
  void clientCloseWhileAnEndedWatchWaitsToClose_isEchoed_andNoSecondCloseFollows() {
    sink.end();
    channel.writeInbound(new CloseWebSocketFrame(1000, ""));

    CloseWebSocketFrame echo = channel.readOutbound();
    assertThat(echo.statusCode()).isEqualTo(1000);
    echo.release();
    advanceMillis(WebSocketWatchSink.FIRST_CLOSE_AFTER_MILLIS);
    assertThat((Object) channel.readOutbound()).isNull();
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void clientClose_isEchoed_andClosesTheConnection() {
    channel.writeInbound(new CloseWebSocketFrame(1001, "going away"));

    CloseWebSocketFrame echo = channel.readOutbound();
    assertThat(echo.statusCode()).isEqualTo(1001);
    echo.release();
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void ping_isAnsweredWithPongCarryingItsData_andTextIsDiscarded() {
    channel.writeInbound(new TextWebSocketFrame("ignored"));
    channel.writeInbound(new PingWebSocketFrame(Unpooled.wrappedBuffer(ascii("hi"))));

    PongWebSocketFrame pong = channel.readOutbound();
    assertThat(pong.content().toString(StandardCharsets.US_ASCII)).isEqualTo("hi");
    pong.release();
    Object more = channel.readOutbound();
    assertThat(more).as("nothing but the Pong").isNull();
    Object passedOn = channel.readInbound();
    assertThat(passedOn).as("nothing passed on").isNull();
  }

  @Test
  void abort_closesAtOnce() {
    sink.abort();

    assertThat(channel.isOpen()).isFalse();
    assertThat(done).hasValue(1);
  }
}
