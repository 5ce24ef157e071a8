package io.listwatch.bench.demo;

import io.listwatch.api.ListOptions;
import io.listwatch.bench.Format;
import io.listwatch.bench.GcLog;
import io.listwatch.bench.JvmMemory;
import io.listwatch.bench.Report;
import io.listwatch.bench.ResultTable;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The soak of {@code bench demo-scale --minutes N} (step 12): for {@code N} minutes, round after
 * round, every Deployment gets a new image and the benchmark waits until every pod runs it, so
 * every round replaces every pod (creates, bindings, status updates, graceful deletes, Events).
 * Meanwhile the API server's resident set and its heap after GC are sampled every
 * {@link #SAMPLE_SECONDS} seconds, and its live heap (after a full collection) every
 * {@link #LIVE_EVERY_MINUTES} minutes. The server's heap is committed and touched whole at start
 * ({@link #FIXED_HEAP_OPTIONS}), so its RSS grows only with native memory (direct buffers, the
 * store's, threads, code), and the Java objects it keeps show in the live heap. Four checks at
 * the end:
 * <ol>
 *   <li><b>RSS flat after warm-up</b>: the median RSS of the last {@link #WINDOW_MINUTES}
 *       minutes is at most {@link #MAX_GROWTH} above that of the first {@link #WINDOW_MINUTES}
 *       minutes after warm-up (the first third of the soak, at most {@link #WINDOW_MINUTES}
 *       minutes; windows shrink to a quarter of what is left for short soaks);
 *   <li><b>live heap flat</b>: the last live-heap sample is at most {@link #MAX_GROWTH} above
 *       the first taken after warm-up;
 *   <li><b>no Netty buffer leak</b>: the server runs with Netty's paranoid leak detector, which
 *       logs {@code LEAK:} for every buffer collected unreleased; its log must have none;
 *   <li><b>informer caches equal the server</b>: the benchmark's pod and deployment informers
 *       hold exactly what a fresh list returns (names and resourceVersions), within
 *       {@link #CONVERGE_SECONDS} s of the last round.
 * </ol>
 *
 * <p>Confined to the thread that runs the benchmark.
 */
final class Soak {

  /** The server's JVM option that turns Netty's leak detector to its most thorough level. */
  static final String PARANOID_LEAK_DETECTION = "-Dio.netty.leakDetection.level=paranoid";
  /** With {@code -Xms} equal to the maximum: the heap committed and touched at start. */
  static final String FIXED_HEAP_OPTIONS = "-XX:+AlwaysPreTouch";
  static final long LIVE_EVERY_MINUTES = 5;
  static final long SAMPLE_SECONDS = 30;
  static final long WINDOW_MINUTES = 10;
  static final double MAX_GROWTH = 0.10;
  static final long CONVERGE_SECONDS = 120;
  private static final String LEAK = "LEAK:";

  /** One sample of the server; {@code liveHeapMiB} is -1 when no full collection was asked for. */
  record Sample(double minutes, long rssBytes, long heapAfterGcMiB, long liveHeapMiB, int round) {
  }

  /** What each round needs: new images, and a test that the cluster runs one. */
  interface Rounds {
    void setImage(String image) throws IOException;

    boolean runs(String image);
  }

  private final long minutes;
  private final long serverPid;
  private final GcLog serverGc;
  private final Path serverLog;
  private final long roundTimeoutSeconds;
  private final Report report;
  private final java.util.function.LongSupplier liveHeapMiB;
  private final List<Sample> samples = new ArrayList<>();
  private int rounds;

  /** {@code liveHeapMiB} collects the server's garbage and answers its live heap, -1 if it cannot. */
  Soak(long minutes, long serverPid, GcLog serverGc, Path serverLog, long roundTimeoutSeconds, Report report,
      java.util.function.LongSupplier liveHeapMiB) {
    this.liveHeapMiB = liveHeapMiB;
    this.minutes = minutes;
    this.serverPid = serverPid;
    this.serverGc = serverGc;
    this.serverLog = serverLog;
    this.roundTimeoutSeconds = roundTimeoutSeconds;
    this.report = report;
  }

  /** Runs rounds until {@code minutes} have passed, sampling the server; false if a round timed out. */
  boolean run(Rounds cluster) throws IOException, InterruptedException {
    long start = System.nanoTime();
    long end = start + TimeUnit.MINUTES.toNanos(minutes);
    long nextSample = start;
    long nextLive = start;
    long gcMark = serverGc.mark();
    while (System.nanoTime() < end) {
      rounds++;
      String image = "nginx:soak-" + rounds;
      cluster.setImage(image);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(roundTimeoutSeconds);
      while (!cluster.runs(image)) {
        long now = System.nanoTime();
        if (now > nextSample) {
          long mark = serverGc.mark();
          long heapAfterGc = serverGc.between(gcMark, mark).heapAfterGcMiB();
          long live = -1;
          if (now > nextLive) {
            live = liveHeapMiB.getAsLong();
            nextLive = now + TimeUnit.MINUTES.toNanos(LIVE_EVERY_MINUTES);
          }
          samples.add(new Sample((now - start) / 60e9, JvmMemory.rssBytes(serverPid), heapAfterGc, live, rounds));
          gcMark = serverGc.mark();
          nextSample = now + TimeUnit.SECONDS.toNanos(SAMPLE_SECONDS);
          Sample s = samples.getLast();
          report.progress("  soak %.1f min, round %d: server RSS %s MiB, heap after GC %s%s", s.minutes(), rounds,
              Report.mib(s.rssBytes()), heap(s), live < 0 ? "" : ", live heap " + live + " MiB");
        }
        if (now > deadline) {
          report.note("**Soak round " + rounds + " did not finish** within " + roundTimeoutSeconds + " s");
          return false;
        }
        Thread.sleep(100);
      }
    }
    return true;
  }

  /** The RSS check's figures: the median of each window, in bytes, and the growth. */
  record Flatness(double warmUpMinutes, long firstMedian, long lastMedian, double growth) {
    boolean flat() {
      return firstMedian > 0 && lastMedian > 0 && growth <= MAX_GROWTH;
    }
  }

  Flatness flatness() {
    double warmUp = Math.min(WINDOW_MINUTES, minutes / 3.0);
    double window = Math.min(WINDOW_MINUTES, (minutes - warmUp) / 4.0);
    long first = median(samples.stream().filter(s -> s.minutes() >= warmUp && s.minutes() < warmUp + window));
    long last = median(samples.stream().filter(s -> s.minutes() >= minutes - window));
    return new Flatness(warmUp, first, last, first > 0 ? (double) (last - first) / first : Double.NaN);
  }

  /** The live-heap check's figures: the first sample after warm-up, the last, and the growth. */
  record LiveHeap(long firstMiB, long lastMiB, double growth) {
    boolean flat() {
      return firstMiB > 0 && lastMiB > 0 && growth <= MAX_GROWTH;
    }
  }

  LiveHeap liveHeap() {
    double warmUp = Math.min(WINDOW_MINUTES, minutes / 3.0);
    List<Sample> live = samples.stream().filter(s -> s.liveHeapMiB() > 0 && s.minutes() >= warmUp).toList();
    if (live.size() < 2) {
      return new LiveHeap(-1, -1, Double.NaN);
    }
    long first = live.getFirst().liveHeapMiB();
    long last = live.getLast().liveHeapMiB();
    return new LiveHeap(first, last, (double) (last - first) / first);
  }

  private static long median(Stream<Sample> window) {
    long[] rss = window.mapToLong(Sample::rssBytes).filter(r -> r > 0).sorted().toArray();
    return rss.length == 0 ? -1 : rss[rss.length / 2];
  }

  /** The lines of the server's log that report a leaked buffer. */
  List<String> leaks() throws IOException {
    try (Stream<String> lines = Files.lines(serverLog, StandardCharsets.UTF_8)) {
      return lines.filter(l -> l.contains(LEAK)).toList();
    }
  }

  /**
   * Waits until the informers' {@code cached} objects (name to resourceVersion) equal a fresh
   * list of {@code type} in {@code namespace}; the differences left if they never do.
   */
  static Map<String, String> differences(KubeClient client, ResourceType type, String namespace,
      java.util.function.Supplier<Map<String, String>> cached) throws InterruptedException {
    ResourceClient<DynamicObject> resource = client.dynamic(type);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CONVERGE_SECONDS);
    while (true) {
      Map<String, String> server = new TreeMap<>();
      for (DynamicObject o : resource.list(namespace, ListOptions.builder().build()).items()) {
        server.put(o.name(), o.resourceVersion());
      }
      Map<String, String> informer = new TreeMap<>(cached.get());
      if (server.equals(informer) || System.nanoTime() > deadline) {
        Map<String, String> diff = new TreeMap<>();
        server.forEach((name, rv) -> {
          if (!rv.equals(informer.get(name))) {
            diff.put(name, "server " + rv + ", informer " + informer.get(name));
          }
        });
        informer.forEach((name, rv) -> {
          if (!server.containsKey(name)) {
            diff.put(name, "server none, informer " + rv);
          }
        });
        return diff;
      }
      Thread.sleep(500);
    }
  }

  /** Adds the soak's tables and figures to the report; true when every check passed. */
  boolean report(Map<String, Map<String, String>> informerDifferences) throws IOException {
    ResultTable series = report.table(new ResultTable(
        "Soak: the API server's resident set and heap after GC, every " + SAMPLE_SECONDS + " s",
        "minute", "round", "RSS MiB", "heap after GC", "live heap MiB (full GC)"));
    for (Sample s : samples) {
      series.row(String.format("%.1f", s.minutes()), Integer.toString(s.round()), Report.mib(s.rssBytes()),
          heap(s), s.liveHeapMiB() < 0 ? "" : Long.toString(s.liveHeapMiB()));
    }
    Flatness f = flatness();
    List<String> leaks = leaks();
    boolean converged = informerDifferences.values().stream().allMatch(Map::isEmpty);
    ResultTable checks = report.table(new ResultTable("Soak checks (" + rounds + " rounds in " + minutes
        + " minutes; every round replaces every pod)", "check", "figure", "verdict"));
    checks.row("server RSS flat after " + String.format("%.0f", f.warmUpMinutes()) + " min warm-up",
        f.firstMedian() < 0 || f.lastMedian() < 0 ? "too few samples for its windows"
            : String.format("median %s → %s MiB (%+.1f%%; limit +%.0f%%)", Report.mib(f.firstMedian()),
                Report.mib(f.lastMedian()), 100 * f.growth(), 100 * MAX_GROWTH), verdict(f.flat()));
    LiveHeap live = liveHeap();
    checks.row("server live heap flat after warm-up", live.firstMiB() < 0 ? "too few samples"
        : String.format("%d → %d MiB (%+.1f%%; limit +%.0f%%)", live.firstMiB(), live.lastMiB(), 100 * live.growth(),
            100 * MAX_GROWTH), verdict(live.flat()));
    checks.row("Netty buffer leaks (paranoid detector, server log)", Format.count(leaks.size()) + " LEAK reports",
        verdict(leaks.isEmpty()));
    informerDifferences.forEach((kind, diff) -> checks.row("informer cache of " + kind + " equals the server's list",
        diff.isEmpty() ? "equal" : diff.size() + " differ, e.g. " + diff.entrySet().iterator().next(),
        verdict(diff.isEmpty())));
    report.figure("soak.rounds", rounds);
    report.figure("soak.rss.growthPercent", 100 * f.growth());
    report.figure("soak.liveHeap.growthPercent", 100 * live.growth());
    report.figure("soak.leaks", leaks.size());
    if (!leaks.isEmpty()) {
      report.note("First leak report: " + leaks.getFirst());
    }
    return f.flat() && live.flat() && leaks.isEmpty() && converged;
  }

  private static String heap(Sample s) {
    return s.heapAfterGcMiB() < 0 ? "no GC" : s.heapAfterGcMiB() + " MiB";
  }

  private static String verdict(boolean pass) {
    return pass ? "PASS" : "FAIL";
  }
}
