package io.listwatch.bench.server;

import static io.listwatch.bench.Format.count;
import static io.listwatch.bench.Format.ms;

import io.listwatch.bench.BenchmarkCommand;
import io.listwatch.bench.CpuMonitor;
import io.listwatch.bench.DataDirectory;
import io.listwatch.bench.Format;
import io.listwatch.bench.GcLog;
import io.listwatch.bench.MachineInfo;
import io.listwatch.bench.ReportOutput;
import io.listwatch.bench.ResultTable;
import io.listwatch.bench.ServerJvm;
import io.listwatch.bench.ShutdownCleanup;
import io.listwatch.bench.Spread;
import io.netty.handler.ssl.SslProvider;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bench server-fanout}: watch fan-out of the API server, running in a JVM of its own,
 * over several transports in one run.
 *
 * <p>For each transport (and each TLS provider of the server, for the TLS transports) a fresh
 * server ({@link ServerJvm} running {@link FanOutServer}: an {@code ApiServer} in a child JVM
 * with a new data directory,
 * Netty's leak detector off, its pauses logged to a file read by {@link GcLog}) is started;
 * {@code --pods} pods of about 1 KB are created in namespace {@code default} through the
 * plain-HTTP listener; an unrecorded JIT warm-up point runs; then each point
 * ({@link FanOutPoint}): N watches of {@code /api/v1/namespaces/default/pods?watch=true&
 * resourceVersion=<current>} over the transport, writers merge-PATCHing the pods at a fixed
 * rate (over TLS for the TLS transports), a warm-up, a measured window. The load generator
 * (writers and watch readers) runs in this JVM, so its garbage never pauses the server, and
 * the server's CPU is read from its own process.
 *
 * <p>With {@code --topologies} the same points run against other server sides
 * ({@link FanOutTopology}): one server on a real etcd, or two servers on one etcd behind
 * HAProxy, which the watchers and writers reach only through HAProxy; each transport runs once
 * per topology, on fresh processes, and the tables get a topology column.
 *
 * <p>Latencies are open loop: each write of a fixed-rate point has an intended send time on the
 * writers' schedule, stamped into the pod, and both the write's latency and write-to-watcher
 * latency count from it (HdrHistogram; see {@link FanOutPoint}). Every point checks each watch
 * ({@link DeliveryCheck}): that it received every acknowledged write once, in resourceVersion
 * order, with no gap; a table shows the check per point, and any watch that failed it gives a
 * FAIL verdict.
 *
 * <p>Figures ({@code report.figure}, listed in {@link FanOutFigures}): one set per run of each
 * point, not a summary, so a report can plot every run and its spread:
 * {@code fanout.<transport>[.<topology>].w<watchers>.r<writes/s or Max>.<figure>.run<i>}, where
 * the transport is its label in lower camel case with the TLS provider appended when named
 * ({@code http1Tls}, {@code h2TlsOpenssl}), the topology is shown when not the default
 * ({@code etcd2Haproxy}), and {@code i} counts the runs of that point from 1 (each repeat runs
 * every point, the max-throughput point last); e.g. {@code fanout.http1.w100.r1000.p99Ms.run2}.
 *
 * <p>With {@code --profile} each server JVM is recorded by JFR and {@link FanOutProfile} adds
 * where its time went in each measured window: by kind of work, thread and method, its CPU by
 * thread group from /proc, and its allocation by site, with figures of their own.
 *
 * <p>Confined to the thread that runs the command.
 */
@Command(
    name = "server-fanout",
    description = "Watch fan-out of the API server in its own JVM, over HTTP/1.1, HTTP/1.1+TLS, HTTP/2+TLS and "
        + "WebSocket+TLS in one run.")
public final class FanOutBenchmark extends BenchmarkCommand {

  @Option(names = "--transports", split = ",", defaultValue = "http1,http1-tls,h2-tls,ws-tls", paramLabel = "T",
      description = "Transports measured, each on a fresh server: http1, http1-tls, h2-tls, ws-tls, for "
          + "checks without TLS h2c, ws, and http1-protobuf (plain HTTP/1.1 with the watches in kube's protobuf) "
          + "(default: ${DEFAULT-VALUE}).")
  private List<String> transportNames;

  @Option(names = "--topologies", split = ",", defaultValue = "rocksdb", paramLabel = "TOPOLOGY",
      description = "Server sides measured, each transport once on each: rocksdb (one server, embedded store), "
          + "etcd (one server on a real etcd in a process of its own), etcd-2-haproxy (two servers, each in its own "
          + "JVM, on one etcd, behind HAProxy in TCP mode, round robin; watchers and writers connect to HAProxy "
          + "only; with TLS the second server shares the first one's certificates) (default: ${DEFAULT-VALUE}).")
  private List<String> topologyNames;

  @Option(names = "--tls-providers", split = ",", paramLabel = "P",
      description = "The server's TLS provider, jdk or openssl (OpenSSL needs netty-tcnative on the class path): "
          + "each TLS transport runs once per provider (default: the server's default, OpenSSL when available, "
          + "else the JDK's).")
  private List<String> tlsProviders = new ArrayList<>();

  @Option(names = "--client-tls-provider", defaultValue = "auto", paramLabel = "P",
      description = "The watch client's TLS provider: jdk, openssl, or auto (OpenSSL when netty-tcnative is on the "
          + "classpath) (default: ${DEFAULT-VALUE}).")
  private String clientTlsProvider;

  @Option(names = "--watchers", split = ",", defaultValue = "100", paramLabel = "N",
      description = "Watcher counts of the fixed-rate points (default: ${DEFAULT-VALUE}).")
  private List<Integer> watcherCounts;

  @Option(names = "--rate", split = ",", defaultValue = "1000", paramLabel = "WRITES_PER_S",
      description = "Total writes/s of the fixed-rate points: one value for all, or one per --watchers entry "
          + "(default: ${DEFAULT-VALUE}).")
  private List<Integer> rates;

  @Option(names = "--repeats", defaultValue = "3", paramLabel = "N",
      description = "Times each point runs (the fixed-rate points, then the max-throughput point, in turn, on the "
          + "same server), so each figure comes from several runs; verdicts take the medians "
          + "(default: ${DEFAULT-VALUE}).")
  private int repeats;

  @Option(names = "--writers", defaultValue = "32", paramLabel = "N",
      description = "Writer threads of the fixed-rate points (default: ${DEFAULT-VALUE}).")
  private int writers;

  @Option(names = "--max-watchers", defaultValue = "1000", paramLabel = "N",
      description = "Watchers of the max-throughput point; 0 skips it (default: ${DEFAULT-VALUE}).")
  private int maxWatchers;

  @Option(names = "--max-writers", defaultValue = "64", paramLabel = "N",
      description = "Closed-loop writers of the max-throughput point (default: ${DEFAULT-VALUE}).")
  private int maxWriters;

  @Option(names = "--h2-streams", defaultValue = "1000", paramLabel = "N",
      description = "Watches per HTTP/2 connection (kube's stream limit is 1,000) (default: ${DEFAULT-VALUE}).")
  private int h2Streams;

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

  @Option(names = "--jit-warmup-seconds", defaultValue = "30", paramLabel = "N",
      description = "An unrecorded point with 100 watchers first on each server, to compile the hot paths "
          + "(default: ${DEFAULT-VALUE}).")
  private int jitWarmupSeconds;

  @Option(names = "--server-heap", defaultValue = "1g", paramLabel = "SIZE",
      description = "-Xms and -Xmx of the server's JVM (default: ${DEFAULT-VALUE}).")
  private String serverHeap;

  @Option(names = "--server-jvm-option", paramLabel = "OPTION",
      description = "An extra JVM option for the server, after the defaults; repeat for more, e.g. "
          + "--server-jvm-option=-XX:+UseZGC (default: none).")
  private List<String> serverJvmOptions = new ArrayList<>();

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Where each server's data directory and logs go (absent or empty); kept afterwards. "
          + "Default: a new temporary directory, deleted at the end.")
  private Path dataDir;

  @Option(names = "--target-deliveries", defaultValue = "500000", paramLabel = "PER_S",
      description = "Target deliveries/s with 1,000 watchers over plain HTTP/1.1 (default: ${DEFAULT-VALUE}).")
  private long targetDeliveries;

  @Option(names = "--target-tls-fraction", defaultValue = "0.5", paramLabel = "F",
      description = "Target: each TLS transport delivers at least F of plain HTTP/1.1's deliveries/s at the "
          + "max-throughput point (default: ${DEFAULT-VALUE}).")
  private double targetTlsFraction;

  @Option(names = "--target-p99-ms", defaultValue = "5", paramLabel = "MS",
      description = "Target p99 write-to-receive at 1,000 writes/s with 100 watchers (default: ${DEFAULT-VALUE}).")
  private double targetP99Ms;

  @Option(names = "--ceiling", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Measure the raw-socket ceiling at --max-watchers in the same run (CeilingPoint): a raw socket "
          + "writer in its own JVM writing an event captured from the first server to the same fleet; "
          + "--no-ceiling skips it (default: ${DEFAULT-VALUE}).")
  private boolean ceiling;

  @Option(names = "--target-ceiling-fraction", defaultValue = "0.5", paramLabel = "F",
      description = "Target: plain HTTP/1.1 at --max-watchers delivers at least F of the raw-socket ceiling's "
          + "deliveries/s (default: ${DEFAULT-VALUE}).")
  private double targetCeilingFraction;

  @Option(names = "--ceiling-send-buffer", defaultValue = "0", paramLabel = "BYTES",
      description = "SO_SNDBUF of the ceiling's connections; 0: the kernel's default, which grows, as the API "
          + "server's (default: ${DEFAULT-VALUE}).")
  private int ceilingSendBuffer;

  @Option(names = "--profile",
      description = "Record each server JVM with JFR (CPU-time, execution and native samples every "
          + FanOutProfile.PERIOD_MS + " ms, 100 allocation samples/s) and report where its time went in each "
          + "measured window, by kind of work, thread and method, and its allocation by site (default: off).")
  private boolean profile;

  @Mixin
  private ReportOutput output;

  /** The watch head and event captured from the first server, for the ceiling; null until then. */
  private WatchCapture captured;

  private final List<Row> rows = new ArrayList<>();
  private ResultTable points;
  private ResultTable checks;
  /** The profile tables ({@code --profile}); null without. */
  private FanOutProfile profiles;

  /** Whether the tables have a topology column: another topology than the default one was asked. */
  private boolean showTopology;
  private List<FanOutTopology> topologies;

  /** One measured point and where it ran. */
  private record Row(ServerRun run, FanOutPoint.Result r) {
  }

  /**
   * One server side of the run: a transport, with the server's TLS provider (null: its
   * default), on a topology.
   */
  private record ServerRun(Transport transport, String provider, FanOutTopology topology) {
    String transportLabel() {
      return transport + (provider == null ? "" : " (" + provider + ")");
    }

    String label() {
      return transportLabel() + (topology == FanOutTopology.ROCKSDB ? "" : " on " + topology);
    }
  }

  @Override
  public Integer call() throws Exception {
    List<ServerRun> runs = validate();
    DataDirectory data = DataDirectory.open(dataDir, "listwatch-bench-fanout-", spec());
    Path base = data.path();
    MachineInfo machine = MachineInfo.describe(base);
    long started = System.nanoTime();
    points = report.table(new ResultTable(String.format(
        "Watch fan-out, server in its own JVM: watchers on /api/v1/namespaces/default/pods?watch=true&"
            + "resourceVersion=<current>, writers merge-PATCH %,d pods of ~%,d bytes; %d s measured after %d s of "
            + "writing; CPU in percent of one core; CPU per write and per delivery are the server's whole CPU "
            + "divided by each; latencies (the write's answer, and write to watcher) count from each write's "
            + "intended send time on the writers' schedule (open loop)" + (showTopology ? "; with several servers, server CPU, GC pauses and heap are "
            + "theirs added up" : ""), pods, objectBytes, seconds, warmupSeconds),
        columns(List.of("watchers", "writes/s asked", "writes/s done", "write p50 ms", "write p99 ms",
            "write p99.9 ms", "write max ms", "pacer late p99 ms", "deliveries/s", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "server CPU"),
            List.of("server µs/write", "server µs/delivery", "bench JVM CPU", "other CPU",
                "GC pauses n / total / max ms", "all safepoints ms", "heap after GC MiB", "delivered / expected",
                "watchers lost"))));
    checks = report.table(new ResultTable("Per-watcher check: every watch must receive every write the server "
        + "acknowledged once, in resourceVersion order, with no gap (all watches of a point start at the "
        + "resourceVersion read before its first write); a watch the server ended as too slow, every write up to "
        + "its last; a write that got no answer (its connection broke) may arrive or not, but once", checkColumns()));
    profiles = profile ? new FanOutProfile(report, leadColumns()) : null;
    AtomicReference<FanOutTopology.Servers> running = new AtomicReference<>();
    ShutdownCleanup cleanup = new ShutdownCleanup("server-fanout-cleanup", () -> {
      FanOutTopology.Servers s = running.get();
      if (s != null) {
        s.close();
      }
      data.close();
    });
    try (cleanup) {
      for (int i = 0; i < runs.size(); i++) {
        ServerRun run = runs.get(i);
        Path dir = base.resolve(String.format("%02d-%s%s%s", i + 1, run.transport(),
            run.provider() == null ? "" : "-" + run.provider(),
            run.topology() == FanOutTopology.ROCKSDB ? "" : "-" + run.topology()));
        try {
          runServer(run, dir, running);
        } catch (Exception e) {
          // one transport failing (e.g. a server without it) does not lose the others' figures
          report.progress("%s FAILED: %s", run.label(), e);
          report.note(run.label() + " FAILED: " + e.getMessage() + " (logs: " + dir
              + (data.temporary() ? ", deleted at the end; keep them with --data-dir" : "") + ")");
        }
      }
      if (captured != null) {
        runCeiling(base.resolve(String.format("%02d-ceiling", runs.size() + 1)));
      }
    }
    if (!data.temporary()) {
      report.note("Server data directories, logs (server.log) and JVM logs (jvm.log) are in " + base
          + (showTopology ? " (etcd's and HAProxy's in etcd/ and haproxy/ beside them)" : "") + ".");
    }
    summary();
    report.progress("done in %.0f s", (System.nanoTime() - started) / 1e9);
    parameters();
    output.print(report, machine);
    return 0;
  }

  private void runServer(ServerRun run, Path dir, AtomicReference<FanOutTopology.Servers> running)
      throws Exception {
    List<String> jvm = new ArrayList<>(List.of("-Xms" + serverHeap, "-Xmx" + serverHeap));
    jvm.addAll(serverJvmOptions);
    report.progress("%s: starting the %s (%s)", run.label(), run.topology().processes(), dir);
    CpuMonitor cpu = CpuMonitor.now();
    FanOutTopology.Servers servers = new FanOutTopology.Servers(run.topology(), dir, profile);
    running.set(servers);
    try (servers) {
      servers.start(run.transport(), run.provider(), jvm);
      long ticks0 = servers.allTicks();
      InetSocketAddress plain = servers.address("http");
      fill(plain, run.label());
      if (ceiling && maxWatchers > 0 && captured == null) {
        captureForCeiling(plain);
      }
      report.phase(run.label() + ": server start, creating " + count(pods) + " pods (" + run.topology().processes()
          + " included)", cpu, servers.allTicks() - ticks0);
      TlsClient tls = run.transport().tls ? TlsClient.forServer(servers.dataDir(), clientProvider()) : null;
      if (tls != null) {
        report.parameters.put("client TLS", tls.description());
      }
      InetSocketAddress watch = run.transport().tls ? servers.address("https") : plain;
      FanOutPoint.Target target = new FanOutPoint.Target(servers, run.transport(), watch,
          watch, tls == null ? null : tls.writers(), tls, h2Streams, pods);
      if (jitWarmupSeconds > 0) {
        report.progress("%s: JIT warm-up, 100 watchers, %d writes/s, %d s", run.label(), rates.get(0),
            jitWarmupSeconds);
        measurePhase(run.label() + ": JIT warm-up (not recorded)", servers,
            () -> FanOutPoint.run(target, 100, rates.get(0), writers, 0, jitWarmupSeconds));
      }
      for (int rep = 1; rep <= repeats; rep++) {
        for (int i = 0; i < watcherCounts.size(); i++) {
          int n = watcherCounts.get(i);
          int rate = rates.size() == 1 ? rates.get(0) : rates.get(i);
          String label = String.format("%s: %d watchers, %d writes/s, run %d of %d", run.label(), n, rate, rep,
              repeats);
          report.progress("%s: %d+%d s", label, warmupSeconds, seconds);
          record(run, measurePhase(label, servers,
              () -> FanOutPoint.run(target, n, rate, writers, warmupSeconds, seconds)));
        }
        if (maxWatchers > 0) {
          String label = String.format("%s: %d watchers, max writes/s, run %d of %d", run.label(), maxWatchers, rep,
              repeats);
          report.progress("%s: %d+%d s", label, warmupSeconds, seconds);
          record(run, measurePhase(label, servers,
              () -> FanOutPoint.run(target, maxWatchers, 0, maxWriters, warmupSeconds, seconds)));
        }
      }
    } finally {
      running.set(null);
    }
    if (profiles != null) {
      profile(run, servers.recordings());
    }
  }

  /** The profile of {@code run}'s points from its servers' recordings, written when they stopped. */
  private void profile(ServerRun run, List<Path> recordings) {
    List<FanOutProfile.Point> mine = new ArrayList<>();
    List<Row> seen = new ArrayList<>();
    for (Row row : rows) {
      if (row.run().equals(run)) {
        FanOutPoint.Result r = row.r();
        long runOfPoint = 1 + seen.stream().filter(x -> x.r().watchers() == r.watchers() && x.r().rate() == r.rate())
            .count();
        seen.add(row);
        mine.add(new FanOutProfile.Point(lead(run), FanOutFigures.key(figureName(run), r), runOfPoint, r));
      }
    }
    try {
      profiles.add(recordings, mine);
    } catch (java.io.IOException | RuntimeException e) {
      report.note(run.label() + ": no profile, reading " + recordings + " failed: " + e);
    }
  }

  private FanOutPoint.Result measurePhase(String label, FanOutTopology.Servers servers,
      Callable<FanOutPoint.Result> point) throws Exception {
    CpuMonitor cpu = CpuMonitor.now();
    long ticks0 = servers.allTicks();
    FanOutPoint.Result r = point.call();
    report.phase(label + ", with set-up and warm-up (" + servers.topology().processes() + " included)", cpu,
        servers.allTicks() - ticks0);
    return r;
  }

  private void record(ServerRun run, FanOutPoint.Result r) {
    rows.add(new Row(run, r));
    String errors = r.errors() == 0 ? "" : " errors: " + r.errors() + " (first: " + r.firstError() + ")";
    String delivered = count(r.delivered()) + " / " + count(r.expected())
        + (r.missing() == 0 ? "" : " (" + count(r.missing()) + " missing; caught up for " + ms(r.caughtUpNanos())
            + " ms)");
    GcLog.Pauses p = r.pauses();
    List<Object> cells = new ArrayList<>(lead(run));
    cells.addAll(List.of(r.watchers(), r.rate() == 0 ? "max" : count(r.rate()),
        count(r.writesPerSecond()) + errors, ms(r.writeP50()), ms(r.writeP99()), ms(r.writeP999()),
        ms(r.writeMax()), r.rate() == 0 ? "-" : ms(r.pacerLateP99()), count(r.deliveriesPerSecond()), ms(r.p50()), ms(r.p99()),
        ms(r.p999()), ms(r.max()), String.format("%.0f%%", r.serverCpuPercent())));
    if (showTopology) {
      cells.add(run.topology().etcd ? String.format("%.0f%%", r.etcdCpuPercent()) : "-");
      cells.add(run.topology().balanced() ? String.format("%.0f%%", r.haproxyCpuPercent()) : "-");
    }
    cells.addAll(List.of(String.format("%.1f", r.serverCpuNanosPerWrite() / 1e3),
        String.format("%.2f", r.serverCpuNanosPerDelivery() / 1e3), String.format("%.0f%%", r.clientCpuPercent()),
        r.othersCpuPercent() < 0 ? "unknown" : String.format("%.0f%%", r.othersCpuPercent()), p.gcCell(),
        String.format("%.1f", p.safepointNanos() / 1e6), p.heapAfterGcMiB() < 0 ? "-" : p.heapAfterGcMiB(),
        delivered, r.lost() == 0 ? "0" : r.lost() + (r.firstLoss() == null ? " (ended by the server)"
            : " (first failure: " + r.firstLoss() + ")")));
    points.row(cells.toArray());
    checkAndFigures(run, r);
    if (r.unparsed() > 0) {
      report.note(run.label() + ", " + r.watchers() + " watchers: " + count(r.unparsed())
          + " events without a readable send time");
    }
  }

  /**
   * The per-watcher check's row and verdict, and the figures, of point {@code r} (the last
   * row added) of {@code run}.
   */
  private void checkAndFigures(ServerRun run, FanOutPoint.Result r) {
    long runOfPoint = rows.stream().filter(x -> x.run().equals(run) && x.r().watchers() == r.watchers()
        && x.r().rate() == r.rate()).count();
    DeliveryCheck.Result c = r.check();
    List<Object> cells = new ArrayList<>(lead(run));
    cells.addAll(List.of(r.watchers(), r.rate() == 0 ? "max" : count(r.rate()), runOfPoint, count(c.acknowledged()),
        count(c.unanswered()), c.watchers(), c.complete(), c.endedGapless(), c.inOrder(), c.unjudged(),
        count(c.duplicates()), c.passed() ? "none" : c.firstProblem()));
    checks.row(cells.toArray());
    if (!c.passed()) {
      report.verdict(String.format("FAIL per-watcher check, %s, %d watchers at %s writes/s, run %d: %d of %d watches "
          + "complete, %d ended by the server with a gapless prefix, %d in order, %s duplicate events; %s",
          run.label(), r.watchers(), r.rate() == 0 ? "max" : count(r.rate()), runOfPoint, c.complete(), c.watchers(),
          c.endedGapless(), c.inOrder(), count(c.duplicates()), c.firstProblem()));
    }
    FanOutFigures.record(report, figureName(run), r, runOfPoint);
  }

  /** The verdict of the per-watcher checks of every point, when they all passed (each failure has its own). */
  private void checkVerdict() {
    if (!rows.isEmpty() && rows.stream().allMatch(r -> r.r().check().passed())) {
      report.verdict(String.format("PASS per-watcher check: in each of the %d points every watch (%,d in all) "
          + "received every acknowledged write once, in resourceVersion order, with no gap (%,d watches the server "
          + "ended as too slow: every write up to their last, with no gap; %,d not judged on order: they received "
          + "a write that got no answer)", rows.size(),
          rows.stream().mapToLong(r -> r.r().check().watchers()).sum(),
          rows.stream().mapToLong(r -> r.r().check().endedGapless()).sum(),
          rows.stream().mapToLong(r -> r.r().check().unjudged()).sum()));
    }
  }

  /** The per-watcher check table's columns. */
  private String[] checkColumns() {
    List<String> c = new ArrayList<>(leadColumns());
    c.addAll(List.of("watchers", "writes/s asked", "run", "writes acknowledged", "writes unanswered",
        "watchers checked", "complete", "ended early, gapless", "in order", "order not judged", "duplicate events",
        "first problem"));
    return c.toArray(String[]::new);
  }

  /**
   * {@code run}'s part of a figure's key: the transport's label in lower camel case, the TLS
   * provider appended when named, then the topology when not the default ({@code h2TlsOpenssl},
   * {@code http1.etcd2Haproxy}).
   */
  private String figureName(ServerRun run) {
    String name = FanOutFigures.lowerCamel(run.transport() + (run.provider() == null ? "" : "-" + run.provider()));
    return run.topology() == FanOutTopology.ROCKSDB ? name
        : name + "." + FanOutFigures.lowerCamel(run.topology().toString());
  }

  /**
   * The points table's columns: the transport's (after the topology's, when shown), then
   * {@code upToServerCpu}, etcd's and HAProxy's CPU when the topology is shown, then {@code rest}.
   */
  private String[] columns(List<String> upToServerCpu, List<String> rest) {
    List<String> c = new ArrayList<>(leadColumns());
    c.addAll(upToServerCpu);
    if (showTopology) {
      c.addAll(List.of("etcd CPU", "HAProxy CPU"));
    }
    c.addAll(rest);
    return c.toArray(String[]::new);
  }

  /** The first columns of a table by server side: transport, after topology when shown. */
  private List<String> leadColumns() {
    return showTopology ? List.of("topology", "transport") : List.of("transport");
  }

  /** The first cells of a row of {@code run}, under {@link #leadColumns}. */
  private List<Object> lead(ServerRun run) {
    return showTopology ? List.of(run.topology().toString(), run.transportLabel()) : List.of(run.transportLabel());
  }

  private void fill(InetSocketAddress plain, String label) throws Exception {
    report.progress("%s: creating %,d pods", label, pods);
    Pods template = new Pods(objectBytes);
    Pods.LoadResult r = Pods.createAll(plain, "/api/v1/namespaces/" + Pods.NAMESPACE + "/pods", 0, pods, 16,
        i -> template.create(Pods.NAMESPACE, podName(i), i));
    if (r.errors() > 0) {
      throw new IllegalStateException("creating pods failed: " + r.errors() + " errors, first: " + r.firstError());
    }
    try (RawHttp http = new RawHttp(plain)) {
      RawHttp.Response list = http.send("GET", "/api/v1/namespaces/" + Pods.NAMESPACE + "/pods", null, null, 0);
      report.parameters.put("pod JSON", String.format("%,d bytes per pod in a full list of the %,d pods",
          list.bodyBytes() / pods, pods));
    }
  }

  /** Captures a watch's head and one event from the server at {@code plain} for the ceiling; a failure is noted. */
  private void captureForCeiling(InetSocketAddress plain) {
    try {
      captured = CeilingPoint.capture(plain);
    } catch (java.io.IOException | RuntimeException e) {
      report.note("raw-socket ceiling not measured: capturing a watch event failed: " + e);
    }
  }

  /** The raw-socket ceiling at --max-watchers, --repeats times, with the event captured from the first server. */
  private void runCeiling(Path dir) {
    try {
      List<CeilingPoint.Result> results = new ArrayList<>();
      for (int rep = 1; rep <= repeats; rep++) {
        report.progress("raw-socket ceiling: %d watchers, %d+%d s, run %d of %d (%s)", maxWatchers, warmupSeconds,
            seconds, rep, repeats, dir);
        CpuMonitor cpu = CpuMonitor.now();
        results.add(CeilingPoint.run(dir.resolve("run-" + rep), captured, maxWatchers, warmupSeconds, seconds,
            ceilingSendBuffer));
        report.phase("raw-socket ceiling, " + maxWatchers + " watchers, run " + rep + " of " + repeats, cpu);
      }
      CeilingPoint.report(report, results, maxPoint(FanOutTopology.ROCKSDB), targetCeilingFraction);
    } catch (Exception e) {
      report.progress("raw-socket ceiling FAILED: %s", e);
      report.note("raw-socket ceiling FAILED: " + e.getMessage());
    }
  }

  static String podName(int i) {
    return String.format("fanout-%05d", i);
  }

  /** The per-transport summary and the verdicts. */
  private void summary() {
    List<String> headers = new ArrayList<>(leadColumns());
    headers.addAll(List.of("deliveries/s at " + maxWatchers + " watchers", "of http1's", "server µs/delivery (max)",
        "p99 ms at fixed rate", "write p99 ms at fixed rate", "server µs/write at fixed rate",
        "GC pauses at fixed rate (n / total / max ms)"));
    ResultTable t = report.table(new ResultTable("By transport" + (showTopology ? " and topology" : "")
        + ": max-throughput point and the fixed-rate points (one value per run)", headers.toArray(String[]::new)));
    Set<ServerRun> runs = new LinkedHashSet<>();
    rows.forEach(r -> runs.add(r.run()));
    for (ServerRun run : runs) {
      List<Row> mine = rows.stream().filter(r -> r.run().equals(run)).toList();
      List<FanOutPoint.Result> max = mine.stream().map(Row::r).filter(r -> r.rate() == 0).toList();
      List<FanOutPoint.Result> fixed = mine.stream().map(Row::r).filter(r -> r.rate() != 0).toList();
      Double http1 = maxPoint(run.topology());
      List<Object> cells = new ArrayList<>(lead(run));
      cells.addAll(List.of(max.isEmpty() ? "-" : join(max, r -> count(r.deliveriesPerSecond())),
          max.isEmpty() || http1 == null ? "-" : join(max, r -> String.format("%.0f%%", 100 * r.deliveriesPerSecond()
              / http1)),
          max.isEmpty() ? "-" : join(max, r -> String.format("%.2f", r.serverCpuNanosPerDelivery() / 1e3)),
          join(fixed, r -> ms(r.p99())), join(fixed, r -> ms(r.writeP99())),
          join(fixed, r -> String.format("%.1f", r.serverCpuNanosPerWrite() / 1e3)),
          join(fixed, r -> r.pauses().gcCell())));
      t.row(cells.toArray());
    }
    for (FanOutTopology topology : topologies) {
      deliveryVerdicts(topology);
    }
    checkVerdict();
    for (ServerRun run : runs) {
      List<FanOutPoint.Result> at = rows.stream().filter(r -> r.run().equals(run))
          .map(Row::r).filter(r -> r.watchers() == 100 && r.rate() == 1000).toList();
      if (!at.isEmpty()) {
        long met = at.stream().filter(r -> r.p99() <= targetP99Ms * 1e6 && r.lost() == 0 && r.check().passed())
            .count();
        report.verdict(String.format("target p99 write-to-receive <= %s ms at 1,000 writes/s with 100 watchers, "
            + "%s: met in %d of %d runs (p99 %s ms)", Format.number(targetP99Ms), run.label(), met, at.size(),
            join(at, r -> ms(r.p99()))));
      }
    }
  }

  /** The verdicts on the max-throughput points of {@code topology}: http1's, and the TLS transports' against it. */
  private void deliveryVerdicts(FanOutTopology topology) {
    Double http1 = maxPoint(topology);
    if (http1 == null) {
      return;
    }
    report.verdict(String.format("target >= %,d deliveries/s with %,d watchers over http1%s: %s (%,.0f/s)",
        targetDeliveries, maxWatchers, topology == FanOutTopology.ROCKSDB ? "" : " on " + topology,
        http1 >= targetDeliveries ? "MET" : "MISSED", http1));
    Set<ServerRun> others = new LinkedHashSet<>();
    rows.stream().filter(r -> r.run().topology() == topology && r.run().transport() != Transport.HTTP1
        && r.r().rate() == 0).forEach(r -> others.add(r.run()));
    for (ServerRun run : others) {
      List<FanOutPoint.Result> max = rows.stream().filter(r -> r.run().equals(run) && r.r().rate() == 0)
          .map(Row::r).toList();
      double f = Spread.of(max.stream().map(FanOutPoint.Result::deliveriesPerSecond).toList()).median() / http1;
      boolean lost = max.stream().anyMatch(r -> r.lost() > 0);
      report.verdict(String.format("target %s >= %.0f%% of http1's deliveries/s (medians of %d runs): %s (%.0f%%%s)",
          run.label(), targetTlsFraction * 100, max.size(), f >= targetTlsFraction && !lost ? "MET" : "MISSED",
          f * 100, lost ? "; watchers were ended as too slow" : ""));
    }
  }

  /**
   * Deliveries/s of plain HTTP/1.1's max-throughput point on {@code topology}, the median of
   * its runs; null if it did not run.
   */
  private Double maxPoint(FanOutTopology topology) {
    List<Double> runs = rows.stream().filter(r -> r.run().transport() == Transport.HTTP1
            && r.run().topology() == topology && r.r().rate() == 0 && r.r().watchers() == maxWatchers)
        .map(r -> r.r().deliveriesPerSecond()).toList();
    return runs.isEmpty() ? null : Spread.of(runs).median();
  }

  private static String join(List<FanOutPoint.Result> rs, java.util.function.Function<FanOutPoint.Result, String> f) {
    return rs.isEmpty() ? "-" : String.join(", ", rs.stream().map(f).toList());
  }

  private SslProvider clientProvider() {
    return switch (clientTlsProvider.toLowerCase(Locale.ROOT)) {
      case "jdk" -> SslProvider.JDK;
      case "openssl" -> SslProvider.OPENSSL;
      default -> null;
    };
  }

  private void parameters() {
    report.parameters.put("server", "ApiServer (builder defaults: 2 I/O threads, CacherConfig.DEFAULTS; no garbage "
        + "collector, as kube-apiserver alone; for the TLS "
        + "transports .tls() with generated certificates" + (tlsProviders.isEmpty() ? "" : " and the provider named")
        + ", plus a plain listener for set-up) in its own JVM (FanOutServer), one per transport"
        + (showTopology ? " and topology" : "") + ", fresh data dir, 127.0.0.1; JVM -Xms" + serverHeap + " -Xmx"
        + serverHeap + " " + ServerJvm.NO_LEAK_DETECTION
        + (serverJvmOptions.isEmpty() ? "" : " " + String.join(" ", serverJvmOptions)) + " -Xlog:gc,safepoint");
    if (showTopology) {
      report.parameters.put("topologies",
          String.join("; ", topologies.stream().map(FanOutTopology::description).toList()));
    }
    report.parameters.put("pods", String.format("%,d in namespace default, ~%,d bytes of JSON each", pods,
        objectBytes));
    report.parameters.put("writes", "merge-PATCH of one annotation (the write's intended send time, its slot on the "
        + "schedule in System.nanoTime() of this JVM, and its sequence number, read back by the watch reader of this "
        + "JVM; latencies count from the intended time, HdrHistogram), pods in turn, one keep-alive HTTP/1.1 connection per writer "
        + "thread (TLS, JDK SSLSocket, for the TLS transports); open loop at the asked rate, closed loop for max");
    report.parameters.put("watchers", "http1 and http1-protobuf: one NIO selector thread, raw chunked parsing; ws: "
        + "the same thread, raw WebSocket frame parsing; the others: Netty on one event-loop thread (HTTP/2: " + h2Streams + " streams per connection); JSON events "
        + "counted by newline (one message each for WebSocket), send time read from each event's first 256 bytes; "
        + "protobuf events (Accept: application/vnd.kubernetes.protobuf) by their length prefix, send time from "
        + "their first 512 bytes");
    report.parameters.put("points", watcherCounts + " watchers at " + rates + " writes/s with " + writers
        + " writers" + (maxWatchers > 0 ? "; max: " + maxWatchers + " watchers, " + maxWriters + " writers" : "")
        + "; " + repeats + (repeats == 1 ? " run of each" : " runs of each, in turn"));
    if (ceiling && maxWatchers > 0) {
      report.parameters.put("raw-socket ceiling", CeilingPoint.description(maxWatchers, ceilingSendBuffer));
    }
    report.parameters.put("time", warmupSeconds + " s warm-up + " + seconds + " s measured per point, after a "
        + jitWarmupSeconds + " s unrecorded point per server");
    if (profile) {
      report.parameters.put("profile", FanOutProfile.description());
    }
    report.parameters.put("bench JVM", String.join(" ",
        java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()));
  }

  private List<ServerRun> validate() {
    List<String> problems = new ArrayList<>();
    List<ServerRun> runs = new ArrayList<>();
    try {
      topologies = topologyNames.stream().map(FanOutTopology::parse).distinct().toList();
      if (topologies.isEmpty()) {
        problems.add("--topologies: at least one");
      }
    } catch (IllegalArgumentException e) {
      problems.add("--topologies: " + e.getMessage());
      topologies = List.of();
    }
    showTopology = !topologies.equals(List.of(FanOutTopology.ROCKSDB));
    try {
      for (String name : transportNames) {
        Transport t = Transport.parse(name);
        for (FanOutTopology topology : topologies) {
          if (t.tls && !tlsProviders.isEmpty()) {
            tlsProviders.forEach(p -> runs.add(new ServerRun(t, p, topology)));
          } else {
            runs.add(new ServerRun(t, null, topology));
          }
        }
      }
    } catch (IllegalArgumentException e) {
      problems.add("--transports: " + e.getMessage());
    }
    if (tlsProviders.stream().anyMatch(p -> !p.equals("jdk") && !p.equals("openssl"))) {
      problems.add("--tls-providers: jdk or openssl");
    }
    if (!Set.of("auto", "jdk", "openssl").contains(clientTlsProvider.toLowerCase(Locale.ROOT))) {
      problems.add("--client-tls-provider: auto, jdk or openssl");
    }
    if (watcherCounts.isEmpty() || watcherCounts.stream().anyMatch(n -> n < 1)) {
      problems.add("--watchers must list counts >= 1");
    }
    if (rates.isEmpty() || rates.stream().anyMatch(n -> n < 1)
        || (rates.size() != 1 && rates.size() != watcherCounts.size())) {
      problems.add("--rate: one rate >= 1, or one per --watchers entry");
    }
    if (writers < 1 || maxWriters < 1 || pods < 1 || maxWatchers < 0 || repeats < 1 || h2Streams < 1) {
      problems.add("--writers, --max-writers, --pods, --repeats, --h2-streams must be >= 1, --max-watchers >= 0");
    }
    if (seconds < 1 || warmupSeconds < 0 || jitWarmupSeconds < 0) {
      problems.add("--seconds must be >= 1, the warm-ups >= 0");
    }
    rejectIfAny(problems);
    return runs;
  }
}
