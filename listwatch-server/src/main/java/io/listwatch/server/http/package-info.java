/**
 * The HTTP transport: Netty pipelines (plain and TLS), request parsing, response writing, and
 * the watch sinks: HTTP/1.1 chunked bodies (also used for HTTP/2 streams through Netty's
 * stream-to-HTTP codec) and WebSocket watches on HTTP/1.1 connections.
 *
 * <ul>
 *   <li>{@link io.listwatch.server.http.HttpServerInitializer}: the pipeline: codec, body
 *       size limit (413 as a kube Status), the {@link io.listwatch.server.http.ApiHandler},
 *       which runs the {@link io.listwatch.server.filters.HandlerChain} before the routes.</li>
 *   <li>{@link io.listwatch.server.http.SecureServerInitializer}: the TLS listener's pipeline:
 *       TLS with optional client certificates, then HTTP/2 or HTTP/1.1 as ALPN chose, with the
 *       same handlers as the plain pipeline.</li>
 *   <li>{@link io.listwatch.server.http.Responses}: encodes the REST layer's
 *       {@link io.listwatch.apiserver.request.ApiResponse}s and Status errors; this package owns all
 *       encoding, {@code rest} returns plain results.</li>
 *   <li>Content negotiation by {@link io.listwatch.server.http.MediaRange}: a Table
 *       ({@link io.listwatch.server.http.TableOptions}, {@link io.listwatch.server.http.Tables},
 *       rows from {@code io.listwatch.apiserver.printers}) for {@code kubectl get}, and
 *       {@link io.listwatch.server.http.AggregatedDiscovery} for {@code /api} and {@code /apis}.</li>
 *   <li>{@link io.listwatch.server.http.ListChunks} (JSON),
 *       {@link io.listwatch.server.http.ProtobufListChunks} (protobuf) and
 *       {@link io.listwatch.server.http.ListStreamWriter}: a list written in chunks as it is
 *       produced, with backpressure.</li>
 *   <li>{@link io.listwatch.server.http.ResponseCompression}: kube's gzip of answers over 128 KiB
 *       for clients that ask, compressed a chunk at a time as written
 *       ({@link io.listwatch.server.http.GzipBodyChunks}, over a list's chunks or a whole body's,
 *       {@link io.listwatch.server.http.FullBodyChunks}).</li>
 *   <li>{@link io.listwatch.server.http.TableWatchSink}: a watch whose events are printed as
 *       Table rows, per watcher, in front of the transport's sink.</li>
 *   <li>{@link io.listwatch.server.http.ChunkedWatchSink}: a watch response as a
 *       {@link io.listwatch.apiserver.cacher.WatchSink}.</li>
 *   <li>{@link io.listwatch.server.http.WebSocketUpgrade}: switches an admitted watch request
 *       that asks for a WebSocket to the WebSocket protocol (Netty's handshaker and frame
 *       codec), after the filters and the watch's option checks;
 *       {@link io.listwatch.server.http.WebSocketWatchSink} then sends one text message per
 *       event and answers Ping and Close.</li>
 * </ul>
 */
package io.listwatch.server.http;
