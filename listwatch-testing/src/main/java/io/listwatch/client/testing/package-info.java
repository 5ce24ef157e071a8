/**
 * For users' tests: a fake {@link io.listwatch.client.KubeClient} (client-go's fake clientset),
 * served by the server's own API core in memory, so informers and controllers run against it
 * unchanged and every rule they meet is the server's; and a JUnit 5 extension that runs the
 * real server.
 *
 * <p>Map: {@link io.listwatch.client.testing.FakeClient} is the client (records every call as
 * an {@link io.listwatch.client.testing.Action}, runs {@link io.listwatch.client.testing.Reactor}s
 * that may inject errors or answers, returning a {@link io.listwatch.client.testing.Reaction});
 * {@link io.listwatch.client.testing.FakeApiServer} is the server behind it
 * ({@code io.listwatch.apiserver.GenericApiServer} on a {@code MemoryStorage} and a
 * {@code FakeClock}), which also seeds fixtures and plays what time and networks do to clients
 * ({@code compact()}, {@code sendBookmarks()}, {@code closeAllWatches()}). Package-private:
 * {@code FakeResourceClient} (records, reacts, then sends with the HTTP client's own REST
 * client), {@code CoreTransport} (a request to the core's routes and back, as the network
 * server would pass it) and {@code WatchPipe} (one watch's events, from the watch cache's
 * bytes to the client's decoder).
 *
 * <p>{@link io.listwatch.client.testing.ApiServerExtension} is the other way to test: the whole
 * network server in the test's JVM, with ready clients (ours, fabric8's and the official one's,
 * made by {@code PeerClients} when asked for). It needs {@code listwatch-server} on the test
 * classpath; the fake does not.
 *
 * <p>This package is in the listwatch-testing module (a test-scope dependency); its name is
 * under {@code io.listwatch.client} because it builds on the client's REST implementation.
 */
package io.listwatch.client.testing;
