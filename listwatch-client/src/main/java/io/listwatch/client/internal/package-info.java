/**
 * The HTTP implementation of the REST client; not API.
 *
 * <p>Map: {@link io.listwatch.client.internal.HttpKubeClient} holds the
 * {@code java.net.http.HttpClient} (HTTP/2 where offered), credentials
 * ({@link io.listwatch.client.internal.BearerToken}) and TLS
 * ({@link io.listwatch.client.internal.TlsContexts}, {@link io.listwatch.client.internal.Pem});
 * {@code HttpResourceClient} builds paths and sends the verbs;
 * {@link io.listwatch.client.internal.ListDecoder} and
 * {@link io.listwatch.client.internal.WatchEventDecoder} decode responses from a streaming
 * parser one object at a time; {@code HttpWatchStream} is one open watch;
 * {@link io.listwatch.client.internal.StatusErrors} turns non-2xx answers into
 * {@code StatusException}s.
 */
package io.listwatch.client.internal;
