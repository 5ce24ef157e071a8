/**
 * The values every layer after the transport passes around: a request as the API sees it,
 * {@link io.listwatch.apiserver.request.ApiRequest} (method, path decoded once, query,
 * {@link io.listwatch.apiserver.request.Headers}, body, connection, and the
 * {@link io.listwatch.apiserver.request.UserInfo} asking once authentication has run), what it
 * means ({@link io.listwatch.apiserver.request.RequestInfo}, kube's RequestInfoFactory: verb and
 * resource parts), where it came from ({@link io.listwatch.apiserver.request.ConnectionInfo}),
 * what its audit event will note ({@link io.listwatch.apiserver.request.AuditAnnotations}),
 * and the answer ({@link io.listwatch.apiserver.request.ApiResponse}), which a transport encodes.
 * Nothing here knows a transport.
 */
package io.listwatch.apiserver.request;
