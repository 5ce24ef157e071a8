package io.listwatch.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * First handler of a TLS connection: when the client's first bytes are not a TLS record (a
 * plain-HTTP request to the HTTPS port, e.g. {@code curl http://127.0.0.1:6443}), answers
 * with the 400 text Go's servers, kube-apiserver included, send, and closes; otherwise steps
 * aside for the TLS handler. One instance per connection, confined to its event loop.
 */
final class PlainHttpOnTlsPort extends ByteToMessageDecoder {

  /** A TLS record header is 5 bytes. */
  private static final int RECORD_HEADER = 5;
  private static final byte[] ANSWER = ("HTTP/1.0 400 Bad Request\r\n\r\n"
      + "Client sent an HTTP request to an HTTPS server.\n").getBytes(StandardCharsets.US_ASCII);

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (in.readableBytes() < RECORD_HEADER) {
      return;
    }
    if (SslHandler.isEncrypted(in, false)) {
      ctx.pipeline().remove(this); // the buffered bytes go on to the TLS handler
      return;
    }
    boolean http = looksLikeHttp(in);
    in.skipBytes(in.readableBytes());
    if (http) {
      ctx.writeAndFlush(Unpooled.wrappedBuffer(ANSWER)).addListener(ChannelFutureListener.CLOSE);
    } else {
      ctx.close();
    }
  }

  private static boolean looksLikeHttp(ByteBuf in) {
    int first = in.getUnsignedByte(in.readerIndex());
    return first >= 'A' && first <= 'Z';
  }
}
