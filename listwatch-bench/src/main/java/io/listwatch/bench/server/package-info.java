/**
 * Benchmarks of the API server over loopback.
 *
 * <ul>
 *   <li>{@link io.listwatch.bench.server.FanOutBenchmark}: {@code bench server-fanout}, watch
 *       fan-out with the server in its own JVM ({@link io.listwatch.bench.server.FanOutServer}),
 *       over plain HTTP/1.1, HTTP/1.1 over TLS, HTTP/2 over TLS and WebSocket over TLS in one run:
 *       deliveries/s, write-to-receive latency, the server's CPU per write and per delivery, its
 *       GC pauses. One point is a {@link io.listwatch.bench.server.FanOutPoint}; its writers keep an
 *       open-loop {@link io.listwatch.bench.server.WriteSchedule}, and each point ends with the
 *       {@link io.listwatch.bench.server.DeliveryCheck} of every watch
 *       ({@link io.listwatch.bench.server.SeenWrites} against
 *       {@link io.listwatch.bench.server.AckedWrites}); {@link io.listwatch.bench.server.FanOutFigures}
 *       names its figures; with {@code --profile}, {@link io.listwatch.bench.server.FanOutProfile}
 *       tells where the server's time went in each point, from a JFR recording of the server.
 *   <li>{@link io.listwatch.bench.server.ListBenchmark}: {@code bench server-list}, full and
 *       paged lists of 10,000 and 100,000 pods, and the server's heap per cached object, RSS and
 *       native memory, with the server in its own JVM ({@link io.listwatch.bench.server.ListServer}).
 *   <li>{@link io.listwatch.bench.server.WriteBenchmark}: {@code bench server-writes}, the
 *       latency and server CPU of a plain update, a server-side apply and a custom resource's
 *       schema validation per write, on objects of about 1 KB
 *       ({@link io.listwatch.bench.server.WriteObjects}), server in its own JVM.
 *   <li>Load generators cheap enough to leave the CPU to the server:
 *       {@link io.listwatch.bench.server.RawWatchFleet} (plain HTTP/1.1 watches on one selector
 *       thread), {@link io.listwatch.bench.server.NettyWatchFleet} (TLS, HTTP/2 and WebSocket
 *       watches on one Netty event loop), both parsing events with
 *       {@link io.listwatch.bench.server.EventLines} into a
 *       {@link io.listwatch.bench.server.WatchTally}; {@link io.listwatch.bench.server.RawHttp}
 *       (a blocking keep-alive client, plain or TLS) for the writers.
 * </ul>
 */
package io.listwatch.bench.server;
