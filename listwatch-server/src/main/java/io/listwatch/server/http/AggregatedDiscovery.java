package io.listwatch.server.http;

import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ApiResponse;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Answers a discovery root ({@code /api}, {@code /apis}) as the client's Accept header asks:
 * the aggregated document when it prefers
 * {@code application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList} (or
 * {@code v2beta1}) to plain JSON, else the legacy one. The aggregated answer carries the
 * Content-Type kube gives it (client-go tells the two apart by it), an {@code ETag} (the
 * document's SHA-512, quoted), {@code Vary: Accept} and {@code Cache-Control: public}; a
 * request whose {@code If-None-Match} names the current ETag gets 304 Not Modified without a
 * body. Stateless.
 */
final class AggregatedDiscovery {

  private static final String GROUP = "apidiscovery.k8s.io";
  private static final String KIND = "APIGroupDiscoveryList";

  private AggregatedDiscovery() {
  }

  static FullHttpResponse encode(ApiResponse.DiscoveryBody body, ApiRequest request) {
    Optional<String> version = MediaRange.preferredConversion(request.accept(), KIND, GROUP, List.of("v2", "v2beta1"));
    if (version.isEmpty()) {
      return Responses.json(HttpResponseStatus.OK, Responses.bytes(body.legacy()));
    }
    byte[] document = Responses.bytes(body.aggregated().apply(GROUP + "/" + version.get()));
    String etag = "\"" + sha512(document) + "\"";
    FullHttpResponse r;
    if (etag.equals(request.header(HttpHeaderNames.IF_NONE_MATCH))) {
      r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_MODIFIED, Unpooled.EMPTY_BUFFER);
    } else {
      r = Responses.json(HttpResponseStatus.OK, document);
      r.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json;g=" + GROUP + ";v=" + version.get() + ";as=" + KIND);
    }
    r.headers().set(HttpHeaderNames.ETAG, etag);
    r.headers().set(HttpHeaderNames.VARY, "Accept");
    r.headers().set(HttpHeaderNames.CACHE_CONTROL, "public");
    return r;
  }

  private static String sha512(byte[] bytes) {
    try {
      return HexFormat.of().withUpperCase().formatHex(MessageDigest.getInstance("SHA-512").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-512 is part of every Java runtime", e);
    }
  }
}
