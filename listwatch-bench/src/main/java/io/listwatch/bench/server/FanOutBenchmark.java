package io.listwatch.bench.server;

import static io.listwatch.bench.Format.count;
import static io.listwatch.bench.Format.errorCell;
import static io.listwatch.bench.Format.ms;

import io.listwatch.bench.CpuMonitor;
import io.listwatch.bench.Format;
import io.listwatch.bench.LatencyRecorder;
import io.listwatch.bench.MachineInfo;
import io.listwatch.bench.Report;
import io.listwatch.bench.ResultTable;
import io.listwatch.server.ApiServer;
import io.listwatch.server.cacher.Cacher;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench server-fanout}: watch fan-out of the API server, in-process, over loopback
 * HTTP/1.1.
 *
 * <p>The server ({@link ApiServer} with its defaults, on the embedded store in a new
 * temporary directory) runs in this JVM. {@code --pods} pods of about 1 KB are created in
 * namespace {@code default}. For each point, N watchers ({@link WatchFleet}: one thread, one
 * selector, raw chunked HTTP) watch {@code /api/v1/namespaces/default/pods?watch=true&
 * resourceVersion=<current>}, then writer threads (platform threads, one keep-alive
 * connection each, {@link RawHttp}) merge-PATCH the pods in turn at a fixed total rate,
 * stamping {@link System#nanoTime()} into an annotation; each watcher reads it back from each
 * event and records the write-to-receive latency. After a warm-up, a window of
 * {@code --seconds} is measured: event deliveries/s (all watchers' events / s), latency
 * percentiles over every delivery of an event sent in the window, the CPU of the process, of
 * the client threads (the watch reader and the writers) and the rest (the server), and the
 * heap after GC at the end of the point. The max-throughput point runs the writers as fast
 * as they go (closed loop).
 *
 * <p>Confined to the thread that runs the command; writers and the watch reader run on
 * their own threads.
 */
@Command(
    name = "server-fanout",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Watch fan-out of the in-process API server over loopback HTTP/1.1.")
public final class FanOutBenchmark implements Callable<Integer> {

  private static final String NAMESPACE = "default";
  private static final Pattern RESOURCE_VERSION = Pattern.compile("\"resourceVersion\":\"(\\d+)\"");

  @Spec
  private CommandSpec spec;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Store directory, absent or empty; kept afterwards. "
          + "Default: a new temporary directory, deleted at the end.")
  private Path dataDir;

  @Option(names = "--watchers", split = ",", defaultValue = "10,100,1000", paramLabel = "N",
      description = "Watcher counts of the fixed-rate points (default: ${DEFAULT-VALUE}).")
  private List<Integer> watcherCounts;

  @Option(names = "--rate", split = ",", defaultValue = "1000,1000,500", paramLabel = "WRITES_PER_S",
      description = "Total writes/s of the fixed-rate points: one value for all, or one per "
          + "--watchers entry (default: ${DEFAULT-VALUE}).")
  private List<Integer> rates;

  @Option(names = "--writers", defaultValue = "32", paramLabel = "N",
      description = "Writer threads of the fixed-rate points (default: ${DEFAULT-VALUE}).")
  private int writers;

  @Option(names = "--max-watchers", defaultValue = "1000", paramLabel = "N",
      description = "Watchers of the max-throughput point; 0 skips it (default: ${DEFAULT-VALUE}).")
  private int maxWatchers;

  @Option(names = "--max-writers", defaultValue = "64", paramLabel = "N",
      description = "Closed-loop writers of the max-throughput point (default: ${DEFAULT-VALUE}).")
  private int maxWriters;

  @Option(names = "--pods", defaultValue = "1000", paramLabel = "N",
      description = "Pods written in turn (default: ${DEFAULT-VALUE}).")
  private int pods;

  @Option(names = "--object-bytes", defaultValue = "1024", paramLabel = "N",
      description = "Approximate JSON size of each pod as stored (default: ${DEFAULT-VALUE}).")
  private int objectBytes;

  @Option(names = "--seconds", defaultValue = "10", paramLabel = "N",
      description = "Measured seconds per point (default: ${DEFAULT-VALUE}).")
  private int seconds;

  @Option(names = "--warmup-seconds", defaultValue = "2", paramLabel = "N",
      description = "Unmeasured seconds of writing before each point's window (default: ${DEFAULT-VALUE}).")
  private int warmupSeconds;

  @Option(names = "--jit-warmup-seconds", defaultValue = "5", paramLabel = "N",
      description = "An unrecorded run with 100 watchers first, to compile the hot paths "
          + "(default: ${DEFAULT-VALUE}).")
  private int jitWarmupSeconds;

  @Option(names = "--target-deliveries", defaultValue = "500000", paramLabel = "PER_S",
      description = "Target deliveries/s with 1,000 watchers (default: ${DEFAULT-VALUE}).")
  private long targetDeliveries;

  @Option(names = "--target-p99-ms", defaultValue = "5", paramLabel = "MS",
      description = "Target p99 write-to-receive at 1,000 writes/s with 100 watchers "
          + "(default: ${DEFAULT-VALUE}).")
  private double targetP99Ms;

  @Option(names = "--markdown", description = "Print the results as Markdown, for docs/benchmarks.md.")
  private boolean markdown;

  private final Report report = new Report("server-fanout");
  private Cacher cacher;
  private InetSocketAddress address;
  private ResultTable points;
  private final List<Point> results = new ArrayList<>();

  /** One measured point, for the verdicts. */
  private record Point(int watchers, int rate, double deliveriesPerSecond, long p99Nanos, int lostWatchers,
      long missing) {
  }

  @Override
  public Integer call() throws Exception {
    validate();
    boolean tempDir = dataDir == null;
    Path dir;
    try {
      dir = tempDir ? Files.createTempDirectory("listwatch-bench-fanout-") : Format.requireEmptyDirectory(dataDir);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--data-dir: " + e.getMessage());
    }
    MachineInfo machine = MachineInfo.describe(dir);
    long started = System.nanoTime();
    try (ApiServer s = ApiServer.builder().dataDir(dir).build().start()) {
      cacher = s.cacher("", "pods");
      address = new InetSocketAddress("127.0.0.1", s.port());
      fill();
      points = report.table(new ResultTable(String.format(
          "Watch fan-out: watchers on /api/v1/namespaces/default/pods?watch=true&resourceVersion=<current>, "
              + "writers merge-PATCH %,d pods of ~%,d bytes; %d s measured after %d s of writing",
          pods, objectBytes, seconds, warmupSeconds),
          "watchers", "writes/s asked", "writers", "writes/s done", "write p50 ms", "write p99 ms", "deliveries/s",
          "p50 ms", "p99 ms", "max ms", "process CPU", "client threads CPU", "server CPU (rest)",
          "heap after GC MiB", "delivered / expected", "watchers lost"));
      if (jitWarmupSeconds > 0) {
        report.progress("JIT warm-up: 100 watchers, %d writes/s, %d s", rates.get(0), jitWarmupSeconds);
        runPoint(100, rates.get(0), writers, 0, jitWarmupSeconds, false);
      }
      for (int i = 0; i < watcherCounts.size(); i++) {
        int rate = rates.size() == 1 ? rates.get(0) : rates.get(i);
        runPoint(watcherCounts.get(i), rate, writers, warmupSeconds, seconds, true);
      }
      if (maxWatchers > 0) {
        runPoint(maxWatchers, 0, maxWriters, warmupSeconds, seconds, true);
      }
    } finally {
      if (tempDir) {
        Format.deleteRecursively(dir);
      }
    }
    verdicts();
    report.progress("done in %.0f s", (System.nanoTime() - started) / 1e9);
    parameters();
    report.print(System.out, spec, machine, markdown);
    return 0;
  }

  private void fill() throws Exception {
    report.progress("creating %,d pods", pods);
    CpuMonitor cpu = CpuMonitor.now();
    Pods template = new Pods(objectBytes);
    Pods.LoadResult r = Pods.createAll(address, "/api/v1/namespaces/" + NAMESPACE + "/pods", 0, pods, 16,
        i -> template.create(NAMESPACE, podName(i), i));
    report.phase("creating " + pods + " pods", cpu);
    if (r.errors() > 0) {
      throw new IllegalStateException("creating pods failed: " + errorCell(r.errors(), null) + " " + r.firstError());
    }
    var list = cacher.list(NAMESPACE, io.listwatch.api.ListOptions.parse(
        java.util.Map.of("resourceVersion", List.of("0")))).join();
    long bytes = list.items().stream().mapToLong(o -> o.json().length).sum();
    report.note(String.format("The %,d pods' JSON as cached: %,d bytes on average (%,d to %,d).",
        list.items().size(), bytes / Math.max(1, list.items().size()),
        list.items().stream().mapToInt(o -> o.json().length).min().orElse(0),
        list.items().stream().mapToInt(o -> o.json().length).max().orElse(0)));
  }

  private static String podName(int i) {
    return String.format("fanout-%05d", i);
  }

  /**
   * Runs one point: {@code watchers} watches, {@code writerCount} writers at {@code rate}
   * writes/s in total (0: as fast as they go) for {@code warmup + measured} seconds.
   */
  private void runPoint(int watchers, int rate, int writerCount, int warmup, int measured, boolean record)
      throws Exception {
    String label = watchers + " watchers, " + (rate == 0 ? "max writes/s" : rate + " writes/s");
    if (record) {
      report.progress("%s: %d+%d s", label, warmup, measured);
    }
    long terminatedBefore = cacher.terminatedWatchers();
    String rv = currentResourceVersion();
    CpuMonitor cpu = CpuMonitor.now();
    WatchFleet fleet = new WatchFleet(address, Pods.MARKER);
    try {
      fleet.open("/api/v1/namespaces/" + NAMESPACE + "/pods?watch=true&resourceVersion=" + rv, watchers);
      awaitTrue(() -> cacher.watcherCount() >= watchers && fleet.streaming() + fleet.failed() >= watchers,
          30_000, () -> "watchers did not start: " + cacher.watcherCount() + " registered, " + fleet.streaming()
              + " streaming, " + fleet.failed() + " failed");
      if (fleet.failed() > 0) {
        fleet.close();
        throw new IllegalStateException("watches failed: " + fleet.firstFailure());
      }

      long t0 = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
      long measureFrom = t0 + TimeUnit.SECONDS.toNanos(warmup);
      long until = measureFrom + TimeUnit.SECONDS.toNanos(measured);
      fleet.recordSentBetween(measureFrom, until);
      LongAdder writes = new LongAdder();
      LongAdder windowWrites = new LongAdder();
      LongAdder errors = new LongAdder();
      AtomicReference<String> firstError = new AtomicReference<>();
      LatencyRecorder[] writeLatencies = new LatencyRecorder[writerCount];
      List<Thread> writerThreads = new ArrayList<>();
      for (int w = 0; w < writerCount; w++) {
        int index = w;
        writerThreads.add(Thread.ofPlatform().daemon(true).name("fanout-writer-" + w).start(() -> {
          writeLatencies[index] = write(index, writerCount, rate, t0, measureFrom, until, writes, windowWrites,
              errors, firstError);
        }));
      }

      sleepUntil(measureFrom);
      long events0 = fleet.events();
      long proc0 = Report.processCpuNanos();
      List<Thread> clientThreads = new ArrayList<>(writerThreads);
      clientThreads.add(fleet.readerThread());
      long client0 = Report.threadsCpuNanos(clientThreads);
      long a = System.nanoTime();
      sleepUntil(until);
      long events1 = fleet.events();
      long proc1 = Report.processCpuNanos();
      long client1 = Report.threadsCpuNanos(clientThreads);
      long b = System.nanoTime();
      for (Thread t : writerThreads) {
        t.join();
      }
      long writersDone = System.nanoTime();

      long expected = writes.sum() * watchers;
      long[] lastProgress = {System.nanoTime(), fleet.events()};
      awaitTrue(() -> {
        long e = fleet.events();
        if (e != lastProgress[1]) {
          lastProgress[0] = System.nanoTime();
          lastProgress[1] = e;
        }
        return e >= expected || System.nanoTime() - lastProgress[0] > TimeUnit.SECONDS.toNanos(3);
      }, 60_000, () -> "");
      long delivered = fleet.events();
      long caughtUp = System.nanoTime();
      long heap = record ? Report.heapAfterGc() : 0;
      int lost = fleet.ended() + fleet.failed();
      fleet.close();
      awaitTrue(() -> cacher.watcherCount() == 0, 30_000,
          () -> cacher.watcherCount() + " watchers still registered after the clients closed");
      if (!record) {
        report.phase("JIT warm-up (100 watchers, not recorded)", cpu);
        return;
      }
      report.phase(label + ", with set-up and warm-up", cpu);

      LatencyRecorder wl = new LatencyRecorder();
      for (LatencyRecorder r : writeLatencies) {
        if (r != null) {
          wl.merge(r);
        }
      }
      MicrosHistogram lat = fleet.latencies();
      long wall = b - a;
      double deliveries = (events1 - events0) / (wall / 1e9);
      long terminated = cacher.terminatedWatchers() - terminatedBefore;
      String deliveredCell = count(delivered) + " / " + count(expected)
          + (delivered >= expected ? "" : " (" + count(expected - delivered) + " missing; caught up "
              + "for " + ms(caughtUp - writersDone) + " ms)");
      String lostCell = lost == 0 ? "0" : lost + " (" + terminated + " terminated as too slow)";
      String rowErrors = errors.sum() == 0 ? "" : " errors: " + errorCell(errors.sum(), null) + " " + firstError.get();
      points.row(watchers, rate == 0 ? "max" : count(rate), writerCount,
          count(windowWrites.sum() / (measured * 1.0)) + rowErrors,
          ms(wl.percentile(0.50)), ms(wl.percentile(0.99)), count(deliveries), ms(lat.percentileNanos(0.50)),
          ms(lat.percentileNanos(0.99)), ms(lat.maxNanos()), Report.percentOfCore(proc1 - proc0, wall),
          Report.percentOfCore(client1 - client0, wall),
          Report.percentOfCore((proc1 - proc0) - (client1 - client0), wall), Report.mib(heap), deliveredCell,
          lostCell);
      if (fleet.unparsed() > 0) {
        report.note(label + ": " + count(fleet.unparsed()) + " events without a readable send time");
      }
      results.add(new Point(watchers, rate, deliveries, lat.percentileNanos(0.99), lost,
          Math.max(0, expected - delivered)));
    } finally {
      fleet.close();
    }
  }

  /** One writer's loop; returns the HTTP latencies of its writes sent in the window. */
  private LatencyRecorder write(int index, int writerCount, int rate, long t0, long measureFrom, long until,
      LongAdder writes, LongAdder windowWrites, LongAdder errors, AtomicReference<String> firstError) {
    LatencyRecorder latencies = new LatencyRecorder();
    long interval = rate == 0 ? 0 : TimeUnit.SECONDS.toNanos(1) * writerCount / rate;
    long next = t0 + (interval * index) / writerCount;
    String prefix = "/api/v1/namespaces/" + NAMESPACE + "/pods/";
    try (RawHttp http = new RawHttp(address)) {
      for (int k = 0; ; k++) {
        if (interval > 0) {
          sleepUntil(next);
          next += interval;
        }
        long sent = System.nanoTime();
        if (sent - until >= 0) {
          break;
        }
        int pod = (index + k * writerCount) % pods;
        RawHttp.Response r = http.send("PATCH", prefix + podName(pod), "application/merge-patch+json",
            Pods.sentPatch(sent), 256);
        long done = System.nanoTime();
        if (r.status() != 200) {
          errors.increment();
          firstError.compareAndSet(null, "HTTP " + r.status() + ": " + r.bodyText());
          continue;
        }
        writes.increment();
        if (sent - measureFrom >= 0) {
          windowWrites.increment();
          latencies.record(done - sent);
        }
      }
    } catch (IOException e) {
      errors.increment();
      firstError.compareAndSet(null, e.toString());
    }
    return latencies;
  }

  private String currentResourceVersion() throws IOException {
    try (RawHttp http = new RawHttp(address)) {
      RawHttp.Response r = http.send("GET", "/api/v1/namespaces/" + NAMESPACE + "/pods?limit=1", null, null, 1024);
      Matcher m = RESOURCE_VERSION.matcher(r.bodyText());
      if (r.status() != 200 || !m.find()) {
        throw new IllegalStateException("cannot read the current resourceVersion: HTTP " + r.status());
      }
      return m.group(1);
    }
  }

  private void verdicts() {
    Point best = null;
    for (Point p : results) {
      if (p.watchers() == 1000 && (best == null || p.deliveriesPerSecond() > best.deliveriesPerSecond())) {
        best = p;
      }
    }
    if (best != null) {
      boolean met = best.deliveriesPerSecond() >= targetDeliveries && best.lostWatchers() == 0 && best.missing() == 0;
      report.verdict(String.format("target >= %,d event deliveries/s with 1,000 watchers: %s (%,.0f/s at %s%s)",
          targetDeliveries, met ? "MET" : "MISSED", best.deliveriesPerSecond(),
          best.rate() == 0 ? "max writes/s" : String.format("%,d writes/s", best.rate()),
          best.lostWatchers() > 0 || best.missing() > 0
              ? String.format(", %d watchers lost, %,d deliveries missing", best.lostWatchers(), best.missing())
              : ""));
    }
    for (Point p : results) {
      if (p.watchers() == 100 && p.rate() == 1000) {
        boolean met = p.p99Nanos() <= targetP99Ms * 1e6 && p.lostWatchers() == 0;
        report.verdict(String.format("target p99 write-to-receive <= %s ms at 1,000 writes/s with 100 watchers: "
            + "%s (p99 %s ms)", targetP99Ms, met ? "MET" : "MISSED", ms(p.p99Nanos())));
      }
    }
  }

  private void parameters() {
    report.parameters.put("server", "ApiServer in this JVM (builder defaults: " + Math.max(2,
        Runtime.getRuntime().availableProcessors()) + " I/O threads, CacherConfig.DEFAULTS), embedded RocksDB "
        + "store in a new temp dir, plain HTTP/1.1 on 127.0.0.1");
    report.parameters.put("pods", String.format("%,d in namespace default, ~%,d bytes of JSON each", pods,
        objectBytes));
    report.parameters.put("writes", "merge-PATCH of one annotation (the send time), pods in turn, one "
        + "keep-alive connection per writer thread; open loop at the asked rate, closed loop for max");
    report.parameters.put("watchers", "one NIO selector thread, raw HTTP/1.1 chunked parsing, events "
        + "counted by newline, send time read from each event's first 256 bytes");
    report.parameters.put("points", watcherCounts + " watchers at " + rates + " writes/s with " + writers
        + " writers" + (maxWatchers > 0 ? "; max: " + maxWatchers + " watchers, " + maxWriters + " writers" : ""));
    report.parameters.put("time", warmupSeconds + " s warm-up + " + seconds + " s measured per point, after a "
        + jitWarmupSeconds + " s unrecorded run");
    report.parameters.put("JVM", String.join(" ",
        java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()));
  }

  private void validate() {
    List<String> problems = new ArrayList<>();
    if (watcherCounts.isEmpty() || watcherCounts.stream().anyMatch(n -> n < 1)) {
      problems.add("--watchers must list counts >= 1");
    }
    if (rates.isEmpty() || rates.stream().anyMatch(n -> n < 1)
        || (rates.size() != 1 && rates.size() != watcherCounts.size())) {
      problems.add("--rate: one rate >= 1, or one per --watchers entry");
    }
    if (writers < 1 || maxWriters < 1 || pods < 1 || maxWatchers < 0) {
      problems.add("--writers, --max-writers, --pods must be >= 1, --max-watchers >= 0");
    }
    if (seconds < 1 || warmupSeconds < 0 || jitWarmupSeconds < 0) {
      problems.add("--seconds must be >= 1, the warm-ups >= 0");
    }
    if (!problems.isEmpty()) {
      throw new ParameterException(spec.commandLine(), String.join("; ", problems));
    }
  }

  private static void sleepUntil(long deadline) {
    for (long left; (left = deadline - System.nanoTime()) > 0; ) {
      LockSupport.parkNanos(left);
    }
  }

  private static void awaitTrue(java.util.function.BooleanSupplier condition, long timeoutMs,
      java.util.function.Supplier<String> failure) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        String message = failure.get();
        if (message.isEmpty()) {
          return;
        }
        throw new IllegalStateException(message);
      }
      Thread.sleep(5);
    }
  }
}
