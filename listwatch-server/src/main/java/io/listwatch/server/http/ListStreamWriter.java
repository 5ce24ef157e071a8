package io.listwatch.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * Writes a body in chunks ({@link ListChunks} for a JSON list, {@link ProtobufListChunks} for
 * a protobuf one, {@link GzipBodyChunks} for a compressed body) to one connection (HTTP/1.1) or
 * stream (HTTP/2) while it is writable, and resumes when it becomes writable again: the outbound buffer holds about one
 * chunk beyond its high-water mark, whatever the list's size. This is what Netty's
 * ChunkedWriteHandler does; it is not used because it would sit in the pipeline of every
 * connection and queue each write of the watch fan-out too.
 *
 * <p>It writes one chunk per turn the event loop gives it ({@link LoopTurns}) and goes on in
 * its next turn, after the loop has read and served its other connections. A chunk is a bounded
 * piece of work: about {@link ListChunks#CHUNK_BYTES} of a list copied, or of a body compressed
 * ({@link GzipBodyChunks}, whose output is far shorter than the work it took). Whether the channel
 * is writable does not bound a turn: a client on the same machine reads as fast as the server
 * writes, so without a bound a list of 2,000 objects went out in one piece (a few ms of copying
 * and encrypting), and the lists of a flood held up every other request on their loop, however
 * few seats APF gave them ({@code bench apf}).
 *
 * <p>Confined to the connection's event loop.
 */
final class ListStreamWriter {

  private final ChannelHandlerContext ctx;
  private final ListBodyChunks chunks;
  private final Runnable onDone;
  private boolean done;
  /** A turn is asked for: writability changes wait for it. */
  private boolean scheduled;

  /** @param onDone called once on the event loop after the last chunk is handed to the connection */
  ListStreamWriter(ChannelHandlerContext ctx, ListBodyChunks chunks, Runnable onDone) {
    this.ctx = ctx;
    this.chunks = chunks;
    this.onDone = onDone;
  }

  /**
   * Asks the loop for a turn ({@link LoopTurns}) unless one is asked for already; call when the
   * list starts and whenever the channel becomes writable again.
   */
  void resume() {
    if (done || scheduled) {
      return;
    }
    scheduled = true;
    LoopTurns.ask(ctx.channel().eventLoop(), this::turn);
  }

  /**
   * Writes the next chunk if the channel is writable, and asks for the next turn if the channel
   * is still writable. How many turns a pass of the loop runs, whatever the number of lists, is
   * {@link LoopTurns}'s.
   */
  private void turn() {
    scheduled = false;
    if (done) {
      return;
    }
    if (ctx.channel().isWritable() && !chunks.isEndOfInput()) {
      ctx.write(new DefaultHttpContent(chunks.readChunk(ctx.alloc())), ctx.voidPromise());
    }
    if (chunks.isEndOfInput()) {
      done = true;
      chunks.close();
      ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
      onDone.run();
      return;
    }
    ctx.flush();
    if (ctx.channel().isWritable()) {
      resume();
    }
  }

  /** The connection is gone: stop, and free what the body holds. */
  void abandon() {
    done = true;
    chunks.close();
  }
}
