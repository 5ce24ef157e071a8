package io.listwatch.server.request;

import io.listwatch.api.StatusException;
import io.listwatch.server.authn.UserInfo;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One HTTP request, detached from Netty's reference-counted buffers: method, path, query
 * parameters, headers, body bytes, the connection it came on, and (once the authentication
 * filter has run) the user it acts as. Immutable; {@link #withUser} returns a copy.
 *
 * @param user who the request acts as; null until authentication has run
 */
public record ApiRequest(HttpMethod method, String path, Map<String, List<String>> query, HttpHeaders headers,
    byte[] body, ConnectionInfo connection, UserInfo user) {

  public ApiRequest {
    Objects.requireNonNull(method);
    Objects.requireNonNull(path);
    Objects.requireNonNull(query);
    Objects.requireNonNull(headers);
    Objects.requireNonNull(body);
    Objects.requireNonNull(connection);
  }

  /** Copies what the API needs out of a Netty request (the request itself is released by the caller). */
  public static ApiRequest from(FullHttpRequest req, ConnectionInfo connection) {
    QueryStringDecoder q = new QueryStringDecoder(req.uri());
    String path;
    Map<String, List<String>> query;
    try {
      path = q.path(); // decoded once, as Go's URL.Path: a segment's %2F is a '/', its %252F a "%2F"
      query = q.parameters();
    } catch (IllegalArgumentException e) { // a '%' not followed by two hex digits
      throw StatusException.badRequest("invalid URL escape in the request target: " + e.getMessage());
    }
    byte[] body = req.content().isReadable() ? ByteBufUtil.getBytes(req.content()) : new byte[0];
    HttpHeaders headers = new DefaultHttpHeaders().set(req.headers());
    return new ApiRequest(req.method(), path, query, headers, body, connection, null);
  }

  /** This request acting as {@code user}. */
  public ApiRequest withUser(UserInfo user) {
    return new ApiRequest(method, path, query, headers, body, connection, Objects.requireNonNull(user));
  }

  /** The first value of a header, or "". */
  public String header(CharSequence name) {
    return headers.get(name, "");
  }

  public String contentType() {
    return header(HttpHeaderNames.CONTENT_TYPE);
  }

  public String accept() {
    return header(HttpHeaderNames.ACCEPT);
  }

  public String host() {
    return header(HttpHeaderNames.HOST);
  }

  /**
   * True when the client asks to upgrade this request to a WebSocket: {@code Connection} has
   * the token {@code Upgrade} and {@code Upgrade} is {@code websocket} (kube's test).
   */
  public boolean websocketUpgrade() {
    return headers.containsValue(HttpHeaderNames.CONNECTION, "upgrade", true)
        && headers.containsValue(HttpHeaderNames.UPGRADE, "websocket", true);
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
        throw StatusException.badRequest("Unsupported value: \"" + v + "\": supported values: \"All\"");
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
    String contentType = contentType();
    int semi = contentType.indexOf(';');
    return (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
  }
}
