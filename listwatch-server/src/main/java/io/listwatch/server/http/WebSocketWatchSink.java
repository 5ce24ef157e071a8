package io.listwatch.server.http;

import io.listwatch.apiserver.cacher.WatchEncoding;
import io.listwatch.apiserver.cacher.WatchSink;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshaker;
import io.netty.util.ByteProcessor;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The WebSocket end of a watch, once the connection has switched protocols: it is the
 * {@link WatchSink} the watch writes to, and the last inbound handler of the connection,
 * which answers the client's control frames.
 *
 * <h2>Outbound: one message per event</h2>
 * A protobuf watch ({@link WatchEncoding#PROTOBUF}) sends each event's WatchEvent message,
 * without its length prefix, as one binary frame, as kube does; the lengths in the batch give
 * the boundaries. For JSON, each event line the watch writes (its {@code {"type":..,"object":..}} JSON and the newline
 * ending it, as kube sends it) becomes one unfragmented text frame. The frame's payload is a
 * slice of the batch the watch wrote, copied once from the event's cached bytes into an I/O
 * buffer: nothing is encoded per watcher except the frame header (Netty's frame encoder copies a
 * payload of at most 1 KiB next to its header instead of a gathering write). Event
 * boundaries come from the batch's components, as {@link WatchSink#write} promises.
 *
 * <h2>Inbound</h2>
 * Text, binary and continuation messages are discarded (a watch takes no input); a Ping is
 * answered with a Pong; a Close is answered with a Close and the connection closes, which
 * ends the watch. Frames that are not WebSocket frames, or over the size limit, make Netty's
 * frame decoder close the connection.
 *
 * <h2>Ending</h2>
 * {@link #end()} (the watch's timeout, or the server shutting down) sends a Close with
 * status 1000 and closes the connection when the client answers it, or after
 * {@link #CLOSE_WAIT_MILLIS}. {@link #abort()} (a watcher too slow to keep up) closes the
 * connection at once.
 *
 * <p>Confined to the connection's event loop, like the channel's pipeline.
 */
final class WebSocketWatchSink extends SimpleChannelInboundHandler<WebSocketFrame> implements WatchSink {

  /** How long an ended watch waits for the client's Close before closing the connection. */
  static final long CLOSE_WAIT_MILLIS = 3_000;

  private final ChannelHandlerContext api;
  private final WebSocketServerHandshaker handshaker;
  private final String path;
  private final WatchEncoding encoding;
  private final Runnable onDone;
  private boolean closeSent; // event loop only

  /**
   * @param api the context of the handler that started the watch; events are written from there
   * @param path the watch's request path and query, reported by {@link #path()}
   * @param encoding the watch's encoding: JSON events are text messages, protobuf ones binary
   * @param onDone called on the event loop when the watch's response is over (ended or aborted)
   */
  WebSocketWatchSink(ChannelHandlerContext api, WebSocketServerHandshaker handshaker, String path,
      WatchEncoding encoding, Runnable onDone) {
    this.api = api;
    this.handshaker = handshaker;
    this.path = path;
    this.encoding = encoding;
    this.onDone = onDone;
  }

  /** The request path and query of this watch. */
  String path() {
    return path;
  }

  // ---- WatchSink -------------------------------------------------------------------------

  @Override
  public java.util.concurrent.Executor executor() {
    return api.executor();
  }

  @Override
  public WatchEncoding encoding() {
    return encoding;
  }

  @Override
  public boolean isWritable() {
    return api.channel().isWritable();
  }

  @Override
  public void write(byte[][] parts) {
    ByteBuf batch = Unpooled.wrappedBuffer(parts.length, parts); // no copy: the parts stay shared
    try {
      if (encoding == WatchEncoding.PROTOBUF) {
        writeLengthPrefixed(batch);
      } else if (batch instanceof CompositeByteBuf composite) {
        writeComponents(composite);
      } else {
        writeLines(batch);
      }
    } finally {
      batch.release();
    }
  }

  /**
   * One message per event, found at the components that end with a newline: no scan. The
   * batch is first copied once into one I/O buffer, whose slices TLS or the socket then read
   * as they are (a slice of the composite would be merged into a temporary buffer per event).
   */
  private void writeComponents(CompositeByteBuf batch) {
    int count = batch.numComponents();
    int[] ends = new int[count + 1];
    int events = 0;
    int start = batch.readerIndex();
    for (int i = 0; i < count; i++) {
      int end = i + 1 < count ? batch.toByteIndex(i + 1) : batch.writerIndex();
      if (end > start && batch.getByte(end - 1) == '\n') {
        ends[events++] = end - batch.readerIndex();
        start = end;
      }
    }
    if (start < batch.writerIndex()) { // not newline-terminated: still one message
      ends[events++] = batch.writerIndex() - batch.readerIndex();
    }
    ByteBuf flat = IoBuffers.flatten(api.alloc(), batch.retain());
    try {
      int from = flat.readerIndex();
      for (int e = 0; e < events; e++) {
        int to = flat.readerIndex() + ends[e];
        writeMessage(flat, from, to);
        from = to;
      }
    } finally {
      flat.release();
    }
  }

  /**
   * One binary message per protobuf event: the batch is copied once into an I/O buffer, and each
   * event's message (after its 4-byte length) is sent as a slice of it.
   */
  private void writeLengthPrefixed(ByteBuf batch) {
    ByteBuf flat = IoBuffers.flatten(api.alloc(), batch.retain());
    try {
      int at = flat.readerIndex();
      int limit = flat.writerIndex();
      while (at + 4 <= limit) {
        int length = flat.getInt(at);
        int end = Math.min(limit, at + 4 + length);
        api.write(new BinaryWebSocketFrame(flat.retainedSlice(at + 4, end - at - 4)), api.voidPromise());
        at = end;
      }
    } finally {
      flat.release();
    }
  }

  /** One message per line of a single buffer (a bookmark or an error event). */
  private void writeLines(ByteBuf batch) {
    int start = batch.readerIndex();
    int limit = batch.writerIndex();
    while (start < limit) {
      int newline = batch.forEachByte(start, limit - start, ByteProcessor.FIND_LF);
      int end = newline < 0 ? limit : newline + 1;
      writeMessage(batch, start, end);
      start = end;
    }
  }

  private void writeMessage(ByteBuf batch, int start, int end) {
    api.write(new TextWebSocketFrame(batch.retainedSlice(start, end - start)), api.voidPromise());
  }

  @Override
  public void flush() {
    api.flush();
  }

  @Override
  public void end() {
    if (!closeSent) {
      closeSent = true;
      api.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.NORMAL_CLOSURE))
          .addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
      ScheduledFuture<?> timeout = api.executor().schedule(() -> {
        api.close();
      }, CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
      api.channel().closeFuture().addListener(f -> timeout.cancel(false));
    }
    onDone.run();
  }

  @Override
  public void abort() {
    api.close();
    onDone.run();
  }

  // ---- inbound frames ----------------------------------------------------------------------

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame frame) {
    if (frame instanceof PingWebSocketFrame) {
      ctx.writeAndFlush(new PongWebSocketFrame(frame.content().retain()));
    } else if (frame instanceof CloseWebSocketFrame close) {
      if (closeSent) {
        ctx.close(); // the client answered our Close
      } else {
        closeSent = true;
        handshaker.close(ctx.channel(), close.retain()); // echoes it, then closes the connection
      }
    }
    // text, binary, continuation and pong frames are discarded (released by the superclass)
  }
}
