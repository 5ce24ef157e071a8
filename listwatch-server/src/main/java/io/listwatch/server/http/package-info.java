/**
 * The HTTP transport: Netty pipeline, request parsing, response writing, and the watch sink
 * for HTTP/1.1 chunked bodies (also used for HTTP/2 streams through Netty's stream-to-HTTP
 * codec).
 *
 * <ul>
 *   <li>{@link io.listwatch.server.http.HttpServerInitializer}: the pipeline: codec, body
 *       size limit (413 as a kube Status), the {@link io.listwatch.server.http.ApiHandler}.
 *       Authentication and authorization slot in as handlers before it.</li>
 *   <li>{@link io.listwatch.server.http.RequestInfo}: what a request path means (group,
 *       version, namespace, resource, name, subresource) - kube's RequestInfoFactory.</li>
 *   <li>{@link io.listwatch.server.http.Responses}: JSON, Status and list bodies.</li>
 *   <li>{@link io.listwatch.server.http.ChunkedWatchSink}: a watch response as a
 *       {@link io.listwatch.server.cacher.WatchSink}.</li>
 * </ul>
 */
package io.listwatch.server.http;
