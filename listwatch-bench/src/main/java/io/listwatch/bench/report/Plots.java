package io.listwatch.bench.report;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The report's plots, each drawn from the figure keys it matches (see {@link PlotSpec}): add a
 * line here to add a plot. Stateless.
 */
final class Plots {

  /** Every plot, in the order drawn within its suite's section. */
  static final List<PlotSpec> ALL = List.of(
      new PlotSpec("server-fanout", "fanout-latency.png",
          "Write-to-receive latency, 1,000 writes/s to 100 watchers", "transport", "ms (log scale)",
          Pattern.compile("fanout\\.(?<x>[A-Za-z0-9]+)\\.w100\\.r1000\\.(?<series>p50|p99|p999|max)Ms"), true),
      new PlotSpec("server-fanout", "fanout-deliveries.png",
          "Deliveries per second to 1,000 watchers at full write speed (ceiling: a raw socket writer)",
          "transport", "deliveries/s", Pattern.compile("fanout\\.(?<x>[A-Za-z0-9]+)\\.w1000(\\.rMax)?\\.deliveriesPerSecond"),
          false),
      new PlotSpec("server-list", "list-time.png", "List time by size (median of the timed reads)", "pods", "ms",
          Pattern.compile("list\\.pods(?<x>\\d+)\\.(?<series>[a-zA-Z]+)Ms"), false),
      new PlotSpec("informer-sync", "informer-sync.png", "Informer start-to-synced time by client", "pods", "ms",
          Pattern.compile("informer\\.(?<series>[A-Za-z0-9]+)\\.pods(?<x>\\d+)\\.syncMs"), false),
      new PlotSpec("informer-sync", "informer-heap.png", "Informer cache heap per pod by client", "pods",
          "bytes per pod",
          Pattern.compile("informer\\.(?<series>[A-Za-z0-9]+)\\.pods(?<x>\\d+)\\.(heapBytesPerPod|heapPerPodBytes)"),
          false),
      new PlotSpec("server-writes", "write-cpu.png", "Server CPU per write by scenario", "scenario",
          "µs of server CPU per write",
          Pattern.compile("write\\.(?<x>[a-z0-9-]+)\\.serverCpuMicrosPerWrite"), false),
      new PlotSpec("storage", "storage-creates.png", "Durable creates per second by writers", "writers",
          "creates/s", Pattern.compile("storage\\.(?<series>[a-z0-9-]+)\\.w(?<x>\\d+)\\.createsPerSecond"), false));

  private Plots() {
  }
}
