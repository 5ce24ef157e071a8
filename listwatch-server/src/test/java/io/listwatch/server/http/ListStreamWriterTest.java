package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.registry.ResourceRegistry;
import io.listwatch.apiserver.request.ApiResponse;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A list goes out a turn of the event loop at a time: the connection's other work (and the
 * loop's other connections) is served between its turns, even while the client reads as fast
 * as the server writes.
 */
class ListStreamWriterTest {

  private static final io.listwatch.apiserver.registry.ResourceDefinition PODS =
      ResourceRegistry.builtins().find("", "v1", "pods").orElseThrow();

  private static ApiResponse.ListBody list(int n, int size) {
    List<CachedObject> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String json = "{\"metadata\":{\"name\":\"p" + i + "\"},\"pad\":\"" + "y".repeat(size) + "\"}";
      out.add(new CachedObject("/k/p" + i, "ns", "p" + i, i + 1, json.getBytes(StandardCharsets.UTF_8),
          Map.of(), Map.of()));
    }
    return new ApiResponse.ListBody(PODS, 42, null, null, out);
  }

  /** Takes what the channel wrote so far; true when the last content was among it. */
  private static boolean take(EmbeddedChannel channel, ByteArrayOutputStream body, AtomicInteger bytes) {
    boolean last = false;
    for (Object m; (m = channel.readOutbound()) != null; ) {
      HttpContent c = (HttpContent) m;
      bytes.addAndGet(c.content().readableBytes());
      body.writeBytes(ByteBufUtil.getBytes(c.content()));
      last |= c instanceof LastHttpContent;
      c.release();
    }
    return last;
  }

  @Test
  void aLongList_goesOutOneTurnAtATime_andWhole() {
    EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
    ChannelHandlerContext ctx = channel.pipeline().firstContext();
    ApiResponse.ListBody list = list(2_000, 1_000); // about 2 MB: eight turns
    AtomicInteger done = new AtomicInteger();
    ListStreamWriter writer = new ListStreamWriter(ctx, new ListChunks(list), done::incrementAndGet);
    ByteArrayOutputStream body = new ByteArrayOutputStream();

    writer.resume();
    writer.resume(); // a writability change while a turn is scheduled writes nothing more
    int turns = 0;
    boolean last = false;
    while (!last) {
      AtomicInteger turnBytes = new AtomicInteger();
      last = take(channel, body, turnBytes);
      assertThat(turnBytes.get()).as("turn %d", turns).isLessThanOrEqualTo(ListChunks.CHUNK_BYTES + 2_000);
      assertThat(done.get()).isEqualTo(last ? 1 : 0);
      turns++;
      assertThat(turns).isLessThan(100);
      channel.runScheduledPendingTasks();
    }

    assertThat(turns).isGreaterThan(5);
    assertThat(body.toByteArray()).isEqualTo(ByteBufUtil.getBytes(Responses.list(list)));
    channel.finishAndReleaseAll();
  }

  /** Writes {@code body} to the end a turn at a time; returns the number of turns. */
  private static int turns(EmbeddedChannel channel, ListStreamWriter writer, ByteArrayOutputStream body) {
    writer.resume();
    int turns = 0;
    for (boolean last = false; !last; turns++) {
      last = take(channel, body, new AtomicInteger());
      assertThat(turns).isLessThan(100);
      channel.runScheduledPendingTasks();
    }
    return turns;
  }

  @Test
  void aCompressedList_goesOutAChunkOfTheListPerTurn_andInflatesToTheList() throws Exception {
    ApiResponse.ListBody list = list(2_000, 1_000);
    EmbeddedChannel plainChannel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
    int plainTurns = turns(plainChannel, new ListStreamWriter(plainChannel.pipeline().firstContext(),
        new ListChunks(list), () -> { }), new ByteArrayOutputStream());
    EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
    ByteArrayOutputStream gzipped = new ByteArrayOutputStream();
    AtomicInteger done = new AtomicInteger();

    int turns = turns(channel, new ListStreamWriter(channel.pipeline().firstContext(),
        new GzipBodyChunks(new ListChunks(list)), done::incrementAndGet), gzipped);

    // a turn compresses at most 64 KiB of the list: far less on the wire, and no more work than a plain turn
    int listBytes = ByteBufUtil.getBytes(Responses.list(list)).length;
    assertThat(turns).isGreaterThanOrEqualTo(listBytes / GzipBodyChunks.INPUT_BYTES)
        .isGreaterThan(3 * plainTurns);
    assertThat(done.get()).isEqualTo(1);
    assertThat(gzipped.size()).isLessThan(listBytes / 10);
    try (java.io.InputStream in = new java.util.zip.GZIPInputStream(
        new java.io.ByteArrayInputStream(gzipped.toByteArray()))) {
      assertThat(in.readAllBytes()).isEqualTo(ByteBufUtil.getBytes(Responses.list(list)));
    }
    plainChannel.finishAndReleaseAll();
    channel.finishAndReleaseAll();
  }

  @Test
  void anAbandonedCompressedBody_releasesTheBodyItHeld() {
    EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
    io.netty.buffer.ByteBuf whole = io.netty.buffer.Unpooled.buffer(1 << 20).writeZero(1 << 20);
    ListStreamWriter writer = new ListStreamWriter(channel.pipeline().firstContext(),
        new GzipBodyChunks(new FullBodyChunks(whole, "application/json")), () -> { });

    writer.resume();
    assertThat(take(channel, new ByteArrayOutputStream(), new AtomicInteger())).isFalse();
    assertThat(whole.refCnt()).isEqualTo(1);
    writer.abandon();

    assertThat(whole.refCnt()).isZero();
    channel.runScheduledPendingTasks();
    assertThat((Object) channel.readOutbound()).isNull();
    channel.finishAndReleaseAll();
  }

  @Test
  void anAbandonedList_writesNoMoreTurns() {
    EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
    ChannelHandlerContext ctx = channel.pipeline().firstContext();
    AtomicInteger done = new AtomicInteger();
    ListStreamWriter writer = new ListStreamWriter(ctx, new ListChunks(list(2_000, 1_000)), done::incrementAndGet);

    writer.resume();
    assertThat(take(channel, new ByteArrayOutputStream(), new AtomicInteger())).isFalse();
    writer.abandon();
    channel.runScheduledPendingTasks();

    assertThat((Object) channel.readOutbound()).isNull();
    assertThat(done.get()).isZero();
    channel.finishAndReleaseAll();
  }
}
