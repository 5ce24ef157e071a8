package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.flow.FlowControlHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link WriteBackpressure} in memory: unsent bytes above the high-water mark stop reading. */
class WriteBackpressureHandlerTest {

  @Test
  void unsentResponsesAboveTheHighWaterMark_stopReading_andHoldRequestsAlreadyRead_untilDrained() {
    AtomicInteger paused = new AtomicInteger();
    List<Object> handled = new ArrayList<>();
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8, 16));
    ch.pipeline().addLast(new WriteBackpressure(paused), new FlowControlHandler(), new ChannelInboundHandlerAdapter() {
      @Override
      public void channelRead(ChannelHandlerContext ctx, Object msg) {
        handled.add(msg);
      }
    });

    ch.writeInbound("request 1");
    assertThat(handled).containsExactly("request 1");

    ch.write(Unpooled.wrappedBuffer(new byte[32])); // an answer the client has not taken
    assertThat(ch.isWritable()).isFalse();
    assertThat(ch.config().isAutoRead()).as("reading stops").isFalse();
    assertThat(paused.get()).isEqualTo(1);

    ch.writeInbound("request 2", "request 3"); // already read from the socket before the pause
    assertThat(handled).as("requests read before the pause wait").containsExactly("request 1");

    ch.flush();
    ch.readOutbound(); // the client takes the answer
    ch.runPendingTasks();
    assertThat(ch.isWritable()).isTrue();
    assertThat(ch.config().isAutoRead()).as("reading resumes").isTrue();
    assertThat(paused.get()).isZero();
    assertThat(handled).containsExactly("request 1", "request 2", "request 3");
    ch.finishAndReleaseAll();
  }
}
