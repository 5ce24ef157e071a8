package io.listwatch.server.http;

import io.listwatch.apiserver.cacher.WatchEncoding;
import io.listwatch.apiserver.cacher.WatchSink;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshaker;
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
 * the boundaries. For JSON, each event line the watch writes (its {@code {"type":..,"object":..}}
 * JSON and the newline ending it, as kube sends it) becomes one unfragmented text frame; event
 * boundaries come from the batch's parts, as {@link WatchSink#write} promises.
 *
 * <p>Each batch is written as one I/O buffer holding all its frames, headers and payloads,
 * copied once from the events' cached bytes, as {@link ChunkedWatchSink} writes a batch as one
 * chunk: the frames of events are encoded here, not by Netty's frame encoder (which lets a
 * {@code ByteBuf} through as it is), because one frame object per event through the pipeline
 * and the outbound buffer (a header buffer and a payload slice each) cost the event loop more
 * than the bytes did. Server frames are unmasked, so the header is all there is to encode.
 * Control frames (Close, Pong) still go through Netty's encoder, in order with the events.
 *
 * <h2>Inbound</h2>
 * Text, binary and continuation messages are discarded (a watch takes no input); a Ping is
 * answered with a Pong; a Close is answered with a Close and the connection closes, which
 * ends the watch. Frames that are not WebSocket frames, or over the size limit, make Netty's
 * frame decoder close the connection.
 *
 * <h2>Ending</h2>
 * {@link #end()} (the watch's timeout, a watch refused once started such as one from a
 * compacted resourceVersion, or the server shutting down) sends a Close with status 1000 and
 * closes the connection when the client answers it, or after {@link #CLOSE_WAIT_MILLIS}. A
 * watch that ends within {@link #FIRST_CLOSE_AFTER_MILLIS} of its handshake (a refusal: its
 * ERROR event follows the 101 at once) sends its Close only when that time is up, unless the
 * client closed first, as clients do on an ERROR event. A client that sets its frame handlers
 * in a task after its handshake completes (fabric8 on Vert.x) would otherwise find its
 * WebSocket already closed and never report the watch started, let alone the ERROR event.
 * {@link #abort()} (a watcher too slow to keep up) closes the connection at once.
 *
 * <p>Confined to the connection's event loop, like the channel's pipeline.
 */
final class WebSocketWatchSink extends SimpleChannelInboundHandler<WebSocketFrame> implements WatchSink {

  /** How long an ended watch waits for the client's Close before closing the connection. */
  static final long CLOSE_WAIT_MILLIS = 3_000;
  /** How long after the handshake the server's Close waits at the earliest (see "Ending"). */
  static final long FIRST_CLOSE_AFTER_MILLIS = 1_000;
  /** The opcodes of event frames (RFC 6455 section 5.2). */
  private static final int OPCODE_TEXT = 0x1;
  private static final int OPCODE_BINARY = 0x2;

  private final ChannelHandlerContext api;
  private final WebSocketServerHandshaker handshaker;
  private final String path;
  private final WatchEncoding encoding;
  private final Runnable onDone;
  private boolean closeSent; // event loop only
  private boolean ended; // event loop only
  private boolean closeMayGo; // event loop only: FIRST_CLOSE_AFTER_MILLIS since the handshake are up

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
    api.executor().schedule(() -> {
      closeMayGo = true;
      if (ended) {
        sendClose();
      }
    }, FIRST_CLOSE_AFTER_MILLIS, TimeUnit.MILLISECONDS);
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

  /** A turn of the loop's bulk writers ({@link LoopTurns}): after the loop's next pass over its connections. */
  @Override
  public void nextTurn(Runnable turn) {
    LoopTurns.ask(api.channel().eventLoop(), turn);
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
    ByteBuf frames = encoding == WatchEncoding.PROTOBUF ? binaryFrames(parts)
        : parts.length == 1 ? textFramesPerLine(parts[0]) : textFramesPerEvent(parts);
    if (frames.isReadable()) {
      api.write(frames, api.voidPromise()); // a ByteBuf: the frame encoder lets it through as it is
    } else {
      frames.release();
    }
  }

  /**
   * One text frame per event, the events found at the parts that end with a newline: no scan.
   * What follows the last newline, if anything, is one more message.
   */
  private ByteBuf textFramesPerEvent(byte[][] parts) {
    int[] lengths = new int[parts.length];
    int messages = 0;
    int size = 0;
    int open = 0;
    for (byte[] part : parts) {
      open += part.length;
      if (part.length > 0 && part[part.length - 1] == '\n') {
        lengths[messages++] = open;
        size += frameSize(open);
        open = 0;
      }
    }
    if (open > 0) {
      lengths[messages++] = open;
      size += frameSize(open);
    }
    ByteBuf out = api.alloc().ioBuffer(size);
    int p = 0;
    for (int m = 0; m < messages; m++) {
      writeHeader(out, OPCODE_TEXT, lengths[m]);
      for (int left = lengths[m]; left > 0; p++) {
        out.writeBytes(parts[p]);
        left -= parts[p].length;
      }
    }
    return out;
  }

  /** One text frame per line of a single part (a bookmark or an error event). */
  private ByteBuf textFramesPerLine(byte[] part) {
    int size = 0;
    for (int start = 0; start < part.length; ) {
      int end = lineEnd(part, start);
      size += frameSize(end - start);
      start = end;
    }
    ByteBuf out = api.alloc().ioBuffer(size);
    for (int start = 0; start < part.length; ) {
      int end = lineEnd(part, start);
      writeHeader(out, OPCODE_TEXT, end - start);
      out.writeBytes(part, start, end - start);
      start = end;
    }
    return out;
  }

  /** Where the line starting at {@code start} ends: after its newline, or at the end. */
  private static int lineEnd(byte[] part, int start) {
    for (int i = start; i < part.length; i++) {
      if (part[i] == '\n') {
        return i + 1;
      }
    }
    return part.length;
  }

  /** One binary frame per protobuf event: its WatchEvent message, after its 4-byte length. */
  private ByteBuf binaryFrames(byte[][] parts) {
    ByteBuf batch = Unpooled.wrappedBuffer(parts.length, parts); // no copy: the parts stay shared
    try {
      int limit = batch.writerIndex();
      int size = 0;
      for (int at = batch.readerIndex(); at + 4 <= limit; ) {
        int length = messageLength(batch, at, limit);
        size += frameSize(length);
        at += 4 + length;
      }
      ByteBuf out = api.alloc().ioBuffer(size);
      for (int at = batch.readerIndex(); at + 4 <= limit; ) {
        int length = messageLength(batch, at, limit);
        writeHeader(out, OPCODE_BINARY, length);
        out.writeBytes(batch, at + 4, length);
        at += 4 + length;
      }
      return out;
    } finally {
      batch.release();
    }
  }

  /** The length of the message whose 4-byte length is at {@code at}, cut at {@code limit}. */
  private static int messageLength(ByteBuf batch, int at, int limit) {
    return Math.max(0, Math.min(batch.getInt(at), limit - at - 4));
  }

  // ---- frames (RFC 6455 section 5.2): FIN set, no extension bits, unmasked (server to client) ----

  /** The bytes of a frame with {@code length} bytes of payload, header included. */
  static int frameSize(int length) {
    return (length <= 125 ? 2 : length <= 0xFFFF ? 4 : 10) + length;
  }

  /** Writes the header of one unfragmented, unmasked frame, in the shortest length form. */
  static void writeHeader(ByteBuf out, int opcode, int length) {
    out.writeByte(0x80 | opcode);
    if (length <= 125) {
      out.writeByte(length);
    } else if (length <= 0xFFFF) {
      out.writeByte(126);
      out.writeShort(length);
    } else {
      out.writeByte(127);
      out.writeLong(length);
    }
  }

  @Override
  public void flush() {
    api.flush();
  }

  @Override
  public void end() {
    if (!ended) {
      ended = true;
      if (closeMayGo) {
        sendClose();
      } else {
        api.flush(); // the events before the end go now; the Close when closeMayGo
      }
    }
    onDone.run();
  }

  /** Sends the Close (once, and not on a closed connection) and closes if the client does not answer. */
  private void sendClose() {
    if (!closeSent && api.channel().isActive()) {
      closeSent = true;
      api.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.NORMAL_CLOSURE))
          .addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
      ScheduledFuture<?> timeout = api.executor().schedule(() -> {
        api.close();
      }, CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
      api.channel().closeFuture().addListener(f -> timeout.cancel(false));
    }
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
