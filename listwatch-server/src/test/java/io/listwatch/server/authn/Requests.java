package io.listwatch.server.authn;

import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.Headers;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.request.RequestInfo;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

/** Requests built in memory, as they arrive on the TLS listener, for the filters' tests. */
final class Requests {

  private Requests() {
  }

  /** {@code GET path} on the secure listener with {@code headers} (name, value, name, value...). */
  static ApiRequest secure(String method, String path, String... headers) {
    return new ApiRequest(method, path, Map.of(), Headers.of(headers), new byte[0],
        new ConnectionInfo(ConnectionInfo.Listener.SECURE, List.of(), new InetSocketAddress("127.0.0.1", 40000)),
        null);
  }

  static RequestInfo info(ApiRequest request) {
    return RequestInfo.parse(request.method(), request.path(), request.query(),
        (group, resource) -> !resource.equals("namespaces") && !resource.equals("nodes"));
  }
}
