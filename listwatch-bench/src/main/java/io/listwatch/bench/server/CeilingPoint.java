package io.listwatch.bench.server;

import static io.listwatch.bench.Format.count;

import io.listwatch.bench.Report;
import io.listwatch.bench.ResultTable;
import io.listwatch.bench.ServerJvm;
import io.listwatch.bench.Spread;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The raw-socket ceiling point of {@code bench server-fanout}: the same fleet as the plain
 * HTTP/1.1 points ({@link RawWatchFleet}, one selector thread) opens N watches on a
 * {@link CeilingServer} in a JVM of its own, which writes a captured event of the benchmark's
 * pods to every watch as fast as the sockets take it; after a warm-up, the events the fleet
 * counts in the measured window are the ceiling's deliveries per second. No writers run: the
 * ceiling is what the sockets and the reader can carry, which bounds every server measured with
 * this client on this machine.
 *
 * <p>Confined to the thread that runs the benchmark.
 */
final class CeilingPoint {

  /** The ceiling server's writer threads: as many as the API server's I/O threads. */
  static final int WRITER_THREADS = 2;

  private static final long NANOS_PER_TICK = 10_000_000L; // USER_HZ is 100 on Linux

  /** What one ceiling point measured. */
  record Result(int watchers, double deliveriesPerSecond, double ceilingCpuPercent, double benchCpuPercent,
      int chunkBytes, int lost, String firstLoss) {
  }

  private CeilingPoint() {
  }

  /**
   * The head of a plain HTTP/1.1 watch of the benchmark's pods on the API server at {@code plain}
   * and the chunk of one event: a merge-PATCH of the first pod, stamped with its send time as the
   * writers stamp theirs.
   */
  static WatchCapture capture(InetSocketAddress plain) throws IOException {
    String pods = "/api/v1/namespaces/" + Pods.NAMESPACE + "/pods";
    return WatchCapture.capture(plain, pods + "?watch=true&resourceVersion="
        + FanOutPoint.currentResourceVersion(plain, null), () -> {
          try (RawHttp http = new RawHttp(plain)) {
            RawHttp.Response r = http.send("PATCH", pods + "/" + FanOutBenchmark.podName(0),
                "application/merge-patch+json", Pods.sentPatch(System.nanoTime(), 0), 256);
            if (r.status() != 200) {
              throw new IOException("the write for the ceiling's event failed: HTTP " + r.status());
            }
          }
        });
  }

  /**
   * Runs a {@link CeilingServer} of {@code capture}'s bytes in a child JVM (its files and log in
   * {@code dir}), {@code watchers} watches on it, {@code warmup} then {@code measured} seconds;
   * {@code sendBuffer} is each connection's socket send buffer (0: the kernel's default, as the
   * API server has).
   */
  static Result run(Path dir, WatchCapture capture, int watchers, int warmup, int measured, int sendBuffer)
      throws Exception {
    Path[] files = capture.writeTo(Files.createDirectories(dir));
    try (ServerJvm ceiling = ServerJvm.start(CeilingServer.class.getName(),
        List.of(files[0].toString(), files[1].toString(), String.valueOf(WRITER_THREADS), String.valueOf(sendBuffer)),
        List.of("-Xms256m", "-Xmx256m"), Set.of("http"), dir.resolve("ceiling.log"));
        RawWatchFleet fleet = new RawWatchFleet(ceiling.address(), WatchWire.JSON, false)) {
      WatchTally tally = fleet.tally();
      fleet.open("/api/v1/namespaces/" + Pods.NAMESPACE + "/pods?watch=true&resourceVersion=0", watchers);
      FanOutPoint.awaitTrue(() -> tally.streaming() + tally.failed() + tally.ended() >= watchers, 60_000);
      if (tally.streaming() < watchers) {
        throw new IllegalStateException("ceiling: " + tally.streaming() + " of " + watchers
            + " watches streaming; first failure: " + tally.firstFailure());
      }
      FanOutPoint.sleepUntil(System.nanoTime() + TimeUnit.SECONDS.toNanos(warmup));
      long events0 = tally.events();
      long ticks0 = ceiling.cpuTicks();
      long self0 = Report.processCpuNanos();
      long t0 = System.nanoTime();
      FanOutPoint.sleepUntil(t0 + TimeUnit.SECONDS.toNanos(measured));
      long events1 = tally.events();
      long ticks1 = ceiling.cpuTicks();
      long self1 = Report.processCpuNanos();
      long wall = System.nanoTime() - t0;
      int lost = tally.ended() + tally.failed();
      String firstLoss = tally.firstFailure();
      return new Result(watchers, (events1 - events0) / (wall / 1e9),
          ticks0 < 0 ? -1 : 100.0 * (ticks1 - ticks0) * NANOS_PER_TICK / wall, 100.0 * (self1 - self0) / wall,
          capture.chunk().length, lost, firstLoss);
    }
  }

  /** The ceiling's method, for the report's parameters. */
  static String description(int watchers, int sendBuffer) {
    return String.format("CeilingServer in its own JVM (-Xmx256m, %d writer threads, SO_SNDBUF %s) answers %,d watches "
        + "of the same fleet as http1 with the watch response head and one event's chunk captured from the first "
        + "server (a merge-PATCH of pod 0), then writes that chunk again and again from one shared buffer, as fast as "
        + "each socket takes it; no writers; the same warm-up and measured seconds as the points", WRITER_THREADS,
        sendBuffer == 0 ? "the kernel's" : sendBuffer + " bytes", watchers);
  }

  /**
   * Adds the ceiling's table (a row per run), its figures
   * ({@code fanout.ceiling.w<N>.deliveriesPerSecond.run<i>}, {@code fanout.ceilingRatio}) and
   * the verdict of target 3 to {@code report}: listwatch's plain HTTP/1.1 deliveries/s at the
   * same watcher count ({@code http1}, the median of its runs; null if that point did not run)
   * at least {@code targetFraction} of the median of the ceiling's {@code runs}.
   */
  static void report(Report report, List<Result> runs, Double http1, double targetFraction) {
    ResultTable t = report.table(new ResultTable("Raw-socket ceiling: the same client fleet (one selector thread) on "
        + "a raw socket writer in its own JVM (" + WRITER_THREADS + " writer threads) writing one captured watch event "
        + "(its HTTP/1.1 chunk) to every watch as fast as the sockets take it; beside listwatch's http1 max-throughput "
        + "point at the same watcher count (the median of its runs)", "run", "watchers", "chunk bytes",
        "ceiling deliveries/s", "ceiling JVM CPU", "bench JVM CPU", "watchers lost", "listwatch http1 deliveries/s",
        "listwatch / ceiling"));
    for (int i = 0; i < runs.size(); i++) {
      Result r = runs.get(i);
      String ratio = http1 == null || r.deliveriesPerSecond() <= 0 ? "-"
          : String.format("%.0f%%", 100 * http1 / r.deliveriesPerSecond());
      t.row(i + 1, r.watchers(), r.chunkBytes(), count(r.deliveriesPerSecond()),
          r.ceilingCpuPercent() < 0 ? "unknown" : String.format("%.0f%%", r.ceilingCpuPercent()),
          String.format("%.0f%%", r.benchCpuPercent()),
          r.lost() == 0 ? "0" : r.lost() + " (first failure: " + r.firstLoss() + ")",
          http1 == null ? "- (http1 not run)" : count(http1), ratio);
      report.figure("fanout.ceiling.w" + r.watchers() + ".deliveriesPerSecond.run" + (i + 1), r.deliveriesPerSecond());
    }
    int watchers = runs.get(0).watchers();
    double ceiling = Spread.of(runs.stream().map(Result::deliveriesPerSecond).toList()).median();
    if (http1 == null || ceiling <= 0) {
      report.note("The raw-socket ceiling ran without listwatch's http1 max-throughput point at " + watchers
          + " watchers (add http1 to --transports): no ratio.");
      return;
    }
    double f = http1 / ceiling;
    report.figure("fanout.ceilingRatio", f);
    if (f > 1) {
      report.note(String.format("listwatch's http1 delivered %.0f%% of the raw-socket ceiling at %,d watchers: the "
          + "ceiling point was held back by something else than the sockets and the reader (other processes: see the "
          + "run conditions; the kernel's TCP memory, as every socket's buffers fill), so it bounds nothing in this "
          + "run", f * 100, watchers));
    }
    boolean lost = runs.stream().anyMatch(r -> r.lost() > 0);
    report.verdict(String.format("target fan-out at %,d watchers >= %.0f%% of the raw ceiling (medians of the runs): "
            + "%s (%.0f%%: %,.0f of %,.0f deliveries/s)", watchers, targetFraction * 100,
        f >= targetFraction && !lost ? "met" : "MISSED", f * 100, http1, ceiling));
  }
}
