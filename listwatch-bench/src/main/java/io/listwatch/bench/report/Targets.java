package io.listwatch.bench.report;

import java.util.List;

/**
 * Step 11's six targets (issue 20), each judged on the named figures of the run: the rows of
 * the report's "Targets" table. Add a row here when a target is added. Stateless.
 */
final class Targets {

  private static final String HTTP1_MAX = "fanout.http1.w1000.rMax.deliveriesPerSecond";

  /** The targets, in the plan's order. */
  static final List<Target> ALL = List.of(
      Target.atMost("1", "p99 write-to-watcher, 1,000 writes/s to 100 watchers, HTTP/1.1, open-loop",
          "fanout.http1.w100.r1000.p99Ms", 5, " ms"),
      Target.fractionAtLeast("2", "WebSocket deliveries/s, 1,000 watchers, of plain HTTP/1.1's",
          List.of("fanout.ws.w1000.rMax.deliveriesPerSecond", "fanout.wsTls.w1000.rMax.deliveriesPerSecond"), HTTP1_MAX, 0.5),
      Target.fractionAtLeast("2", "HTTP/2 deliveries/s, 1,000 streams on one connection, of plain HTTP/1.1's",
          List.of("fanout.h2Tls.w1000.rMax.deliveriesPerSecond", "fanout.h2c.w1000.rMax.deliveriesPerSecond"), HTTP1_MAX, 0.5),
      Target.fractionAtLeast("3", "fan-out deliveries/s at 1,000 watchers (HTTP/1.1) of the raw socket ceiling",
          List.of(HTTP1_MAX), "fanout.ceiling.w1000.deliveriesPerSecond", 0.5),
      Target.atMost("4", "heap per cached object over its JSON, 100,000 pods", "list.pods100000.heapRatio", 1.5, "x"),
      Target.atLeast("5", "informer sync speed-up over fabric8, 10,000 pods", "informer.speedup.fabric8.pods10000", 3,
          "x"),
      Target.atLeast("5", "informer sync speed-up over the official client, 10,000 pods",
          "informer.speedup.official.pods10000", 3, "x"),
      Target.atLeast("5", "informer sync speed-up over fabric8, 100,000 pods", "informer.speedup.fabric8.pods100000", 3,
          "x"),
      Target.atLeast("5", "informer sync speed-up over the official client, 100,000 pods",
          "informer.speedup.official.pods100000", 3, "x"),
      Target.atMost("6", "full list of 100,000 pods, body parsed by the reader, median",
          "list.pods100000.parsedMs", 200, " ms"));

  private Targets() {
  }
}
