package io.listwatch.server.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;

/**
 * kube's API response compression (the {@code APIResponseCompression} feature gate, beta and on
 * since kube 1.16): an answer (an object, a list, a Table, a Status, discovery, any other but a
 * watch) longer than {@link #THRESHOLD_BYTES} goes out gzip-compressed at level 1 when the request's
 * {@code Accept-Encoding} names {@code gzip}, with {@code Content-Encoding: gzip} and
 * {@code Vary: Accept-Encoding}, and without a Content-Length. client-go, kubectl and OkHttp
 * (fabric8, the official Java client) ask for gzip by default and decompress transparently.
 * Watches are never compressed: a client waits on each event. Stateless.
 */
final class ResponseCompression {

  /** kube's threshold: an answer of this many bytes or fewer goes out as it is. */
  static final int THRESHOLD_BYTES = 128 * 1024;

  private ResponseCompression() {
  }

  /**
   * Whether an answer of {@code length} bytes is compressed, {@code acceptEncoding} being the
   * request's first {@code Accept-Encoding} header (null without one): the gate is on, the
   * answer is longer than {@link #THRESHOLD_BYTES}, and that header has {@code gzip} as one of
   * its comma-separated entries, spaces aside. As kube reads the header, {@code gzip;q=0.5} or
   * {@code GZIP} are not that entry (and so a quality of zero is never honoured as a refusal,
   * nor is one above zero as an acceptance).
   */
  static boolean applies(boolean enabled, String acceptEncoding, long length) {
    if (!enabled || length <= THRESHOLD_BYTES || acceptEncoding == null) {
      return false;
    }
    for (String entry : acceptEncoding.split(",", -1)) {
      if (entry.strip().equals("gzip")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Makes {@code head} the head of a gzip-compressed body: {@code Content-Encoding: gzip}, an
   * added {@code Vary: Accept-Encoding}, and, its length unknown until the end, no Content-Length
   * (HTTP/1.1 chunked; HTTP/2 ends its stream).
   */
  static void compressed(HttpResponse head) {
    head.headers().set(HttpHeaderNames.CONTENT_ENCODING, "gzip");
    head.headers().add(HttpHeaderNames.VARY, "Accept-Encoding");
    head.headers().remove(HttpHeaderNames.CONTENT_LENGTH);
    HttpUtil.setTransferEncodingChunked(head, true);
  }
}
