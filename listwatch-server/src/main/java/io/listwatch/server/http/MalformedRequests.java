package io.listwatch.server.http;

import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import java.util.concurrent.TimeUnit;

/**
 * What the server answers an HTTP/1.1 request whose head it could not decode, and the size a
 * request head may have.
 *
 * <p>kube-apiserver's Go server reads at most {@link #MAX_HEADER_BYTES} of request line and
 * headers ({@code MaxHeaderBytes: 1 << 20}, plus the 4,096 bytes Go allows beyond it). A head
 * over that is answered 431 Request Header Fields Too Large; a head that is not HTTP at all (a
 * bad character in a header name, a malformed request line) 400. Either way nothing of the
 * request is served and the connection is closed: the decoder has lost its place in the byte
 * stream. As Go does, the answer goes out first and the connection closes
 * {@link #CLOSE_DELAY_MILLIS} later, while the server goes on discarding what the client still
 * sends, so the client reads the answer instead of a reset. Unlike Go, whose answer here is
 * plain text, the body is a kube Status.
 *
 * <p>HTTP/2 streams get the same limit as {@code SETTINGS_MAX_HEADER_LIST_SIZE}; Netty answers
 * a stream over it 431 itself.
 *
 * <p>Thread-safe: stateless.
 */
final class MalformedRequests {

  /** The most bytes of request line and of headers a request may have: Go's 1 MiB + 4 KiB. */
  static final int MAX_HEADER_BYTES = (1 << 20) + 4096;
  /** How long the connection stays open after the answer (Go's {@code rstAvoidanceDelay}). */
  static final long CLOSE_DELAY_MILLIS = 500;

  private MalformedRequests() {
  }

  /** The Status for a request head that failed to decode with {@code cause}. */
  static StatusException statusOf(Throwable cause) {
    if (cause instanceof TooLongFrameException) {
      return new StatusException(Status.failure(431, "",
          "Request Header Fields Too Large: the request line and headers may have at most "
              + MAX_HEADER_BYTES + " bytes each", null));
    }
    return StatusException.badRequest("malformed HTTP request: " + cause.getMessage());
  }

  /**
   * Answers the undecodable request on {@code ctx}'s connection, then closes it. The answer is
   * written past the keep-alive handler, which would close the connection as soon as it is
   * written.
   */
  static void refuse(ChannelHandlerContext ctx, Throwable cause) {
    FullHttpResponse answer = Responses.status(statusOf(cause));
    HttpUtil.setKeepAlive(answer, false);
    ChannelHandlerContext out = ctx.pipeline().context(HttpServerInitializer.KEEP_ALIVE);
    (out == null ? ctx : out).writeAndFlush(answer).addListener(written ->
        ctx.executor().schedule(() -> ctx.channel().close(), CLOSE_DELAY_MILLIS, TimeUnit.MILLISECONDS));
  }
}
