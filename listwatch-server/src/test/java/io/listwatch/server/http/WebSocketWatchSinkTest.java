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
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshaker13;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The WebSocket sink on an in-memory channel: how batches of event lines become messages
 * (one per event, sharing the batch's bytes), and the control frames.
 */
class WebSocketWatchSinkTest {

  private final AtomicInteger done = new AtomicInteger();
  private final EmbeddedChannel channel = new EmbeddedChannel();
  private final WebSocketWatchSink sink;

  WebSocketWatchSinkTest() {
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
   * The buffer under every wrapper: Netty's leak detector wraps a sampled buffer once more, so a
   * single {@code unwrap()} may stop at a slice instead of the shared copy.
   */
  private static ByteBuf root(ByteBuf buf) {
    ByteBuf inner;
    while ((inner = buf.unwrap()) != null) {
      buf = inner;
    }
    return buf;
  }

  private List<String> writtenTexts() {
    List<String> texts = new ArrayList<>();
    Object o;
    while ((o = channel.readOutbound()) != null) {
      TextWebSocketFrame f = (TextWebSocketFrame) o;
      texts.add(f.text());
      f.release();
    }
    return texts;
  }

  @Test
  void compositeBatch_becomesOneMessagePerEvent_slicingOneCopyOfTheBatch() {
    byte[] prefix = ascii("{\"type\":\"ADDED\",\"object\":");
    byte[] suffix = ascii("}\n");
    byte[] bookmark = ascii("{\"type\":\"BOOKMARK\",\"object\":{}}\n");
    byte[][] batch = {prefix, ascii("{\"a\":1}"), suffix, prefix, ascii("{\"b\":2}"), suffix, bookmark};

    sink.write(batch);
    sink.flush();

    List<Object> frames = new ArrayList<>(channel.outboundMessages());
    ByteBuf copy = root(((TextWebSocketFrame) frames.get(0)).content());
    assertThat(copy).as("one buffer per batch").isNotNull();
    assertThat(copy.hasArray() && copy.array() == prefix).as("a copy, not the shared parts").isFalse();
    assertThat(frames).hasSize(3).allSatisfy(f -> assertThat(root(((TextWebSocketFrame) f).content()))
        .as("each message a view over the batch's one copy").isSameAs(copy));
    assertThat(writtenTexts()).containsExactly(
        "{\"type\":\"ADDED\",\"object\":{\"a\":1}}\n",
        "{\"type\":\"ADDED\",\"object\":{\"b\":2}}\n",
        "{\"type\":\"BOOKMARK\",\"object\":{}}\n");
    assertThat(copy.refCnt()).as("released once every message is written").isZero();
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
    Object o;
    while ((o = pb.readOutbound()) != null) {
      io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame f = (io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame) o;
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

  @Test
  void end_sendsNormalClosure_andClosesWhenTheClientAnswers() {
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
