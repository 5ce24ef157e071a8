/**
 * A request as every layer after the transport sees it: {@link io.listwatch.server.request.ApiRequest}
 * (method, path, query, headers, body, connection, user), what it means
 * ({@link io.listwatch.server.request.RequestInfo}, kube's RequestInfoFactory: verb and resource
 * parts) and where it came from ({@link io.listwatch.server.request.ConnectionInfo}).
 */
package io.listwatch.server.request;
