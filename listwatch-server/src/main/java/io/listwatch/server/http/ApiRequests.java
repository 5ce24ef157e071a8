package io.listwatch.server.http;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.AuditAnnotations;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.request.Headers;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.List;
import java.util.Map;

/** Turns a Netty request into the transport-free {@link ApiRequest} the API core takes. Stateless. */
public final class ApiRequests {

  private ApiRequests() {
  }

  /** {@link #from(FullHttpRequest, ConnectionInfo, AuditAnnotations)} of a request nobody audits. */
  public static ApiRequest from(FullHttpRequest req, ConnectionInfo connection) {
    return from(req, connection, new AuditAnnotations());
  }

  /**
   * Copies what the API needs out of {@code req} (which the caller releases); its audit
   * annotations are collected in {@code auditAnnotations}.
   *
   * @throws StatusException 400 when the request target has a malformed escape
   */
  public static ApiRequest from(FullHttpRequest req, ConnectionInfo connection, AuditAnnotations auditAnnotations) {
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
    return new ApiRequest(req.method().name(), path, query, Headers.of(req.headers()), body, connection, null,
        auditAnnotations);
  }
}
