/**
 * A request as every layer after the transport sees it: {@link io.listwatch.apiserver.request.ApiRequest}
 * (method, path, query, headers, body, connection, user), what it means
 * ({@link io.listwatch.apiserver.request.RequestInfo}, kube's RequestInfoFactory: verb and resource
 * parts) and where it came from ({@link io.listwatch.apiserver.request.ConnectionInfo}).
 */
package io.listwatch.apiserver.request;
