/**
 * The REST client's implementation; not API.
 *
 * <p>Map: {@link io.listwatch.client.internal.RestResourceClient} builds each verb's path,
 * query and body and decodes its answer, over a
 * {@link io.listwatch.client.internal.RestTransport} that only moves the bytes:
 * {@link io.listwatch.client.internal.HttpKubeClient} on {@code java.net.http.HttpClient}
 * (HTTP/2 where offered), with credentials ({@link io.listwatch.client.internal.BearerToken})
 * and TLS ({@link io.listwatch.client.internal.TlsContexts},
 * {@link io.listwatch.client.internal.Pem}), or the fake client's API core in memory
 * ({@code io.listwatch.client.testing}, in listwatch-testing).
 * {@link io.listwatch.client.internal.ListDecoder} and
 * {@link io.listwatch.client.internal.WatchEventDecoder} decode responses from a streaming
 * parser one object at a time; {@code WatchBodyStream} is one open watch;
 * {@link io.listwatch.client.internal.StatusErrors} turns non-2xx answers into
 * {@code StatusException}s.
 */
package io.listwatch.client.internal;
