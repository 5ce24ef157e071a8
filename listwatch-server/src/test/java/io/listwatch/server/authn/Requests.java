package io.listwatch.server.authn;

import io.listwatch.server.request.ApiRequest;
import io.listwatch.server.request.ConnectionInfo;
import io.listwatch.server.request.RequestInfo;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

/** Requests built in memory, as they arrive on the TLS listener, for the filters' tests. */
final class Requests {

  private Requests() {
  }

  /** {@code GET path} on the secure listener with {@code headers} (name, value, name, value...). */
  static ApiRequest secure(HttpMethod method, String path, String... headers) {
    HttpHeaders h = new DefaultHttpHeaders();
    for (int i = 0; i < headers.length; i += 2) {
      h.add(headers[i], headers[i + 1]);
    }
    return new ApiRequest(method, path, Map.of(), h, new byte[0],
        new ConnectionInfo(ConnectionInfo.Listener.SECURE, List.of(), new InetSocketAddress("127.0.0.1", 40000)),
        null);
  }

  static RequestInfo info(ApiRequest request) {
    return RequestInfo.parse(request.method().name(), request.path(), request.query(),
        (group, resource) -> !resource.equals("namespaces") && !resource.equals("nodes"));
  }
}
