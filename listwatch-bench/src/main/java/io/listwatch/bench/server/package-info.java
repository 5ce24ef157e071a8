/**
 * Benchmarks of the API server, run in-process over loopback HTTP/1.1.
 *
 * <ul>
 *   <li>{@link io.listwatch.bench.server.FanOutBenchmark}: {@code bench server-fanout}, watch
 *       fan-out to 10 to 1,000 watchers: deliveries/s, write-to-receive latency, CPU, heap.
 *   <li>{@link io.listwatch.bench.server.ListBenchmark}: {@code bench server-list}, full and
 *       paged lists of 10,000 and 100,000 pods, and heap per cached object.
 *   <li>{@link io.listwatch.bench.server.WatchFleet} (many watches on one selector thread) and
 *       {@link io.listwatch.bench.server.RawHttp} (a blocking keep-alive client): load
 *       generators cheap enough to leave the CPU to the server.
 * </ul>
 */
package io.listwatch.bench.server;
