package io.listwatch.server.rest;

import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.List;
import java.util.Map;

/**
 * One HTTP request, detached from Netty's reference-counted buffers: method, path, query
 * parameters, the headers the API needs, and the body bytes. Immutable.
 */
public record ApiRequest(HttpMethod method, String path, Map<String, List<String>> query, String contentType,
    String accept, String host, boolean websocketUpgrade, byte[] body) {

  public static ApiRequest from(FullHttpRequest req) {
    QueryStringDecoder q = new QueryStringDecoder(req.uri());
    byte[] body = req.content().isReadable() ? ByteBufUtil.getBytes(req.content()) : new byte[0];
    return new ApiRequest(req.method(), q.path(), q.parameters(),
        req.headers().get(HttpHeaderNames.CONTENT_TYPE, ""), req.headers().get(HttpHeaderNames.ACCEPT, ""),
        req.headers().get(HttpHeaderNames.HOST, ""),
        req.headers().containsValue(HttpHeaderNames.UPGRADE, "websocket", true), body);
  }

  /** A GET with {@code watch} set to anything but "0" or "false" (kube's rule for booleans). */
  public boolean isWatch() {
    if (!HttpMethod.GET.equals(method)) {
      return false;
    }
    List<String> w = query.get("watch");
    if (w == null || w.isEmpty()) {
      return false;
    }
    String v = w.getFirst();
    return !v.equals("0") && !v.equalsIgnoreCase("false");
  }

  /** True for {@code dryRun=All}; any other dryRun value is refused (400), as kube does. */
  public boolean isDryRun() {
    List<String> d = query.get("dryRun");
    if (d == null || d.isEmpty()) {
      return false;
    }
    for (String v : d) {
      if (!v.equals("All")) {
        throw io.listwatch.api.StatusException.badRequest("Unsupported value: \"" + v
            + "\": supported values: \"All\"");
      }
    }
    return true;
  }

  /** The first value of a query parameter, or "". */
  public String param(String name) {
    List<String> v = query.get(name);
    return v == null || v.isEmpty() ? "" : v.getFirst();
  }

  /** The media type of the body without parameters, lower case. */
  public String mediaType() {
    int semi = contentType.indexOf(';');
    return (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(java.util.Locale.ROOT);
  }
}
