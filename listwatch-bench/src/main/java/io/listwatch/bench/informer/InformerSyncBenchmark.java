package io.listwatch.bench.informer;

import static io.listwatch.bench.Format.count;

import io.listwatch.bench.BenchmarkCommand;
import io.listwatch.bench.ChildJvm;
import io.listwatch.bench.CpuMonitor;
import io.listwatch.bench.Format;
import io.listwatch.bench.MachineInfo;
import io.listwatch.bench.Report;
import io.listwatch.bench.ReportOutput;
import io.listwatch.bench.ResultTable;
import io.listwatch.bench.ServerJvm;
import io.listwatch.bench.ShutdownCleanup;
import io.listwatch.bench.server.PodLoad;
import io.listwatch.bench.server.Pods;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bench informer-sync}: how long a pod informer takes from start to synced, and how
 * much heap its cache holds, for our client and the Java peers, against our own API server in
 * the same run.
 *
 * <p>The server ({@link ServerJvm}) runs in a child JVM with a new temporary data directory.
 * Pods of about 1 KB ({@link Pods}: labels, owner, one container, status) are created through
 * HTTP with many requests in flight, up to each of {@code --pods} in turn. At each count, every
 * client of {@code --clients} runs {@code --runs} times, round-robin (one run of each client,
 * then the next round), each time in a FRESH child JVM ({@link InformerSyncRun}) with the same
 * {@code -Xmx} and JVM options. The child builds its client, takes a heap baseline, starts the
 * informer over all namespaces, and reports the time to synced, the heap the running informer
 * holds after full GCs, and its CPU. Then the child adds a handler counting update
 * notifications and says so; this command writes {@code --updates} pod label changes through
 * the server (JSON merge patches over HTTP/1.1, one at a time) and the child reports how many
 * its handler counted within {@code --event-timeout}: a run that counted fewer fails. Each
 * child is stopped before the next starts. Every row and comparison names what each client's
 * cache holds ({@link PodInformerUnderTest#holds}); {@link SyncComparison} draws the
 * conclusions.
 *
 * <p>Confined to the thread that runs the command; the loaders run on virtual threads.
 */
@Command(
    name = "informer-sync",
    description = "Pod informer start-to-synced time and cache heap: listwatch vs fabric8 vs the official "
        + "Java client, each in a fresh JVM, against our API server in its own JVM.")
public final class InformerSyncBenchmark extends BenchmarkCommand {

  @Option(names = "--pods", split = ",", defaultValue = "10000,100000", paramLabel = "N",
      description = "Pod counts measured, increasing (default: ${DEFAULT-VALUE}).")
  private List<Integer> podCounts;

  @Option(names = "--clients", split = ",", defaultValue = "listwatch,listwatch-typed,fabric8,official", paramLabel = "NAME",
      description = "Clients measured, of listwatch (holds DynamicObject), listwatch-typed (our informer holding "
          + "fabric8's Pod), fabric8, official (default: ${DEFAULT-VALUE}).")
  private List<String> clients;

  @Option(names = "--runs", defaultValue = "3", paramLabel = "N",
      description = "Runs of each client at each pod count, each in a fresh JVM (default: ${DEFAULT-VALUE}).")
  private int runs;

  @Option(names = "--runs-at", split = ",", paramLabel = "PODS=N",
      description = "Fewer or more runs at one pod count, e.g. 100000=1 (default: --runs everywhere).")
  private Map<Integer, Integer> runsAt = new LinkedHashMap<>();

  @Option(names = "--max-other-cpu", defaultValue = "25", paramLabel = "PERCENT",
      description = "A run during which other processes used more than this much of one core is discarded and "
          + "repeated, at most --busy-retries times; the last attempt is kept (default: ${DEFAULT-VALUE}).")
  private double maxOtherCpu;

  @Option(names = "--busy-retries", defaultValue = "3", paramLabel = "N",
      description = "Repeats of a run discarded for --max-other-cpu (default: ${DEFAULT-VALUE}).")
  private int busyRetries;

  @Option(names = "--client-heap", defaultValue = "4g", paramLabel = "SIZE",
      description = "-Xmx of every informer JVM, the same for all clients (default: ${DEFAULT-VALUE}).")
  private String clientHeap;

  @Option(names = "--client-jvm-option", paramLabel = "OPTION",
      description = "An extra JVM option for every client JVM (not the server's), after the defaults; repeat for "
          + "more, e.g. --client-jvm-option=-XX:StartFlightRecording=filename=/tmp/sync-%%p.jfr (a recording is "
          + "written after the run reports, as other CPU: add --busy-retries 0) (default: none).")
  private List<String> clientJvmOptions = new ArrayList<>();

  @Option(names = "--server-heap", defaultValue = "4g", paramLabel = "SIZE",
      description = "-Xmx of the API server's JVM (default: ${DEFAULT-VALUE}).")
  private String serverHeap;

  @Mixin
  private PodLoad load;

  @Option(names = "--timeout", defaultValue = "600", paramLabel = "SECONDS",
      description = "Longest a client may take to sync before its run counts as failed (default: ${DEFAULT-VALUE}).")
  private int timeoutSeconds;

  @Option(names = "--updates", defaultValue = "100", paramLabel = "N",
      description = "Pod label changes written after each sync, which each informer must receive (default: "
          + "${DEFAULT-VALUE}).")
  private int updates;

  @Option(names = "--event-timeout", defaultValue = "30", paramLabel = "SECONDS",
      description = "Longest a client may take to receive the --updates after its sync (default: ${DEFAULT-VALUE}).")
  private int eventTimeoutSeconds;

  @Option(names = "--profile",
      description = "Record each client JVM with JFR (execution samples every 2 ms) and add a note per run on where "
          + "its sync spent its time, by kind of work and by thread (JFR's own cost is in those runs).")
  private boolean profile;

  /** The profile summary of each run ({@code --profile}), by client, pod count and run. */
  private final Map<String, String> profiles = new LinkedHashMap<>();

  /** The value of the next label change, so that every patch changes the pod. */
  private long updateSeq;

  @Option(names = "--target-speedup", defaultValue = "3", paramLabel = "X",
      description = "Target: listwatch syncs at least X times faster than each peer (default: ${DEFAULT-VALUE}).")
  private double targetSpeedup;

  @Option(names = "--target-heap-fraction", defaultValue = "0.3333", paramLabel = "F",
      description = "Target: listwatch's cache heap at most F of each peer's (default: ${DEFAULT-VALUE}).")
  private double targetHeapFraction;

  @Mixin
  private ReportOutput output;

  @Override
  public Integer call() throws Exception {
    validate();
    Path dir = Files.createTempDirectory("listwatch-bench-informer-");
    Path data = Files.createDirectory(dir.resolve("data"));
    MachineInfo machine = MachineInfo.describe(dir);
    List<String> clientJvm = new ArrayList<>(ChildJvm.standardOptions(clientHeap));
    clientJvm.addAll(clientJvmOptions);
    long started = System.nanoTime();

    load.addTable(report, "");
    ResultTable perRun = report.table(new ResultTable(
        "Every run: a fresh client JVM each (sync = informer start call until hasSynced and every pod cached; "
            + "heap = used after full GCs with the informer running, minus the same before it started)",
        "pods", "client", "run", "sync ms", "hasSynced ms", "heap MiB", "heap bytes per pod",
        "client CPU s (sync)", "GCs (ms)", "events after sync: received/expected (ms)", "server CPU", "other CPU"));
    List<SyncResult> results = new ArrayList<>();
    Map<String, String> described = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    List<String> discarded = new ArrayList<>();

    // if this JVM is stopped (Ctrl-C, SIGTERM), the children's own hooks stop them; this one
    // waits for the server to stop, then deletes the data directory
    AtomicReference<ServerJvm> running = new AtomicReference<>();
    ShutdownCleanup cleanup = new ShutdownCleanup("informer-sync-cleanup", () -> {
      ServerJvm s = running.get();
      if (s != null) {
        s.close();
      }
      Format.deleteRecursively(dir);
    });
    try (cleanup;
        // no garbage collector, as kube-apiserver alone: the pods name ReplicaSets that are not there
        ServerJvm server = ServerJvm.start(data, List.of("--enable-garbage-collector=false"),
            ChildJvm.standardOptions(serverHeap), dir.resolve("server.log"))) {
      running.set(server);
      report.progress("server %s (log %s)", server.url(), dir.resolve("server.log"));
      for (int size : podCounts) {
        Pods.LoadResult r = load.upTo(size, server.address(), report, " (the server JVM counts as other processes)");
        if (r.errors() > 0) {
          throw new IllegalStateException("pod creates failed: " + r.firstError());
        }
        warmServer(server.url(), size);

        int n = runsAt.getOrDefault(size, runs);
        CpuMonitor runsCpu = CpuMonitor.now();
        for (int run = 1; run <= n; run++) {
          for (String client : clients) {
            report.progress("%,d pods: %s, run %d of %d", size, client, run, n);
            Optional<SyncResult> res = runClient(server, client, size, run, clientJvm, dir, failures);
            for (int retry = 0; res.isPresent() && res.get().othersCpuPercent() > maxOtherCpu
                && retry < busyRetries; retry++) {
              discarded.add(String.format("%s at %s pods, run %d: %s ms, other processes %.0f%%", client, count(size),
                  run, ms(res.get().syncNanos()), res.get().othersCpuPercent()));
              report.progress("other processes used %.0f%% of a core: repeating the run", res.get().othersCpuPercent());
              res = runClient(server, client, size, run, clientJvm, dir, failures);
            }
            if (res.isPresent()) {
              SyncResult s = res.get();
              results.add(s);
              described.putIfAbsent(client, "holds " + s.holds() + "; " + s.describe());
              if (!s.allEventsReceived()) {
                failures.add(String.format("%s at %,d pods, run %d: received %d of the %d updates written after its "
                    + "sync within %d s", client, size, run, s.eventsReceived(), s.eventsExpected(),
                    eventTimeoutSeconds));
              }
              perRun.row(count(size), client, run, ms(s.syncNanos()), ms(s.hasSyncedNanos()), Report.mib(s.heapBytes()),
                  count(s.heapBytes() / (double) size), String.format("%.2f", s.cpuSyncNanos() / 1e9),
                  s.gcCount() + " (" + s.gcMillis() + ")", s.eventsReceived() + "/" + s.eventsExpected()
                      + (s.allEventsReceived() ? "" : " SHORT") + String.format(" (%,.0f)", s.eventsNanos() / 1e6),
                  String.format("%.0f%%", s.serverCpuPercent()),
                  String.format("%.0f%%", s.othersCpuPercent()));
            }
          }
        }
        report.phase(String.format("%s pods: every client run (the server and client JVMs count as other "
            + "processes here; the per-run table splits them)", count(size)), runsCpu);
      }
    }

    SyncComparison comparison = new SyncComparison(report, podCounts, clients, results);
    comparison.summarize();
    comparison.verdicts(targetSpeedup, targetHeapFraction);
    comparison.explain();
    profiles.forEach((k, v) -> report.note("profile of " + k + ", JFR execution samples during the sync: " + v));
    discarded.forEach(d -> report.note("discarded (machine busy), repeated: " + d));
    failures.forEach(f -> report.note("FAILED run: " + f));
    report.progress("done in %.0f s", (System.nanoTime() - started) / 1e9);
    report.parameters.put("server", "ApiServer (./listwatch server --enable-garbage-collector=false, as "
        + "kube-apiserver alone; otherwise defaults) in a child JVM "
        + String.join(" ", ChildJvm.standardOptions(serverHeap)) + ", embedded RocksDB store in a new temp dir, "
        + "plain HTTP (HTTP/1.1 and h2c) on 127.0.0.1");
    report.parameters.put("pods", String.format("up to %s in namespace %s, ~%,d bytes of JSON each, created through "
        + "HTTP (%d in flight); before the first client at each count, 2 untimed full lists over HTTP/1.1 and 2 "
        + "untimed lists ?resourceVersion=0&limit=500 over h2c; after each sync, %d label changes (merge patches, "
        + "HTTP/1.1, one at a time), each informer given %d s to receive them", podCounts, Pods.NAMESPACE, load.objectBytes(),
        load.connections(), updates, eventTimeoutSeconds));
    report.parameters.put("clients", clients + ", each run in a fresh JVM " + String.join(" ", clientJvm)
        + ", round-robin, " + runs + " runs" + (runsAt.isEmpty() ? "" : " (" + runsAt + ")")
        + String.format("; a run with other processes above %.0f%% of a core is repeated (at most %d times)",
            maxOtherCpu, busyRetries));
    described.forEach((k, v) -> report.parameters.put("client " + k, v));
    output.print(report, machine);
    return failures.isEmpty() ? 0 : 1;
  }

  /** One client run in a fresh JVM; empty (and a failure recorded) if it did not report a result. */
  private Optional<SyncResult> runClient(ServerJvm server, String client, int size, int run, List<String> jvm,
      Path dir, List<String> failures) throws Exception {
    Path log = dir.resolve("client-" + client + "-" + size + "-" + run + ".log");
    CpuMonitor before = CpuMonitor.now();
    long serverBefore = server.cpuTicks();
    Path recording = dir.resolve("client-" + client + "-" + size + "-" + run + ".jfr");
    List<String> options = new ArrayList<>(jvm);
    if (profile) {
      options.add(SyncProfile.jvmOption(recording));
    }
    try (ChildJvm child = ChildJvm.start(client + "-" + size + "-" + run, options, InformerSyncRun.class.getName(),
        List.of(client, server.url(), Integer.toString(size), Integer.toString(timeoutSeconds),
            Integer.toString(updates), Integer.toString(eventTimeoutSeconds)), log)) {
      Optional<String> line = child.awaitLine(
          l -> l.startsWith(InformerSyncRun.READY_PREFIX) || l.startsWith(InformerSyncRun.FAILURE_PREFIX),
          timeoutSeconds + 120L);
      if (line.isPresent() && line.get().startsWith(InformerSyncRun.READY_PREFIX)) {
        writeUpdates(server.url(), size);
        line = child.awaitLine(
            l -> l.startsWith(InformerSyncRun.RESULT_PREFIX) || l.startsWith(InformerSyncRun.FAILURE_PREFIX),
            eventTimeoutSeconds + 120L);
      }
      Optional<Integer> exit = child.awaitExit(60);
      CpuMonitor after = CpuMonitor.now();
      long serverAfter = server.cpuTicks();
      if (line.isEmpty() || line.get().startsWith(InformerSyncRun.FAILURE_PREFIX) || exit.orElse(-1) != 0) {
        String why = line.map(l -> l.startsWith(InformerSyncRun.FAILURE_PREFIX)
            ? l.substring(InformerSyncRun.FAILURE_PREFIX.length()) : "exit " + exit.orElse(-1)).orElse("no result");
        failures.add(String.format("%s at %,d pods, run %d: %s", client, size, run, why));
        report.progress("FAILED: %s; log tail:%n%s", why, child.logTail(15));
        return Optional.empty();
      }
      double serverPct = serverBefore < 0 || serverAfter < 0 ? -1
          : after.percentOfCoreSince(before, serverAfter - serverBefore);
      SyncResult result = SyncResult.parse(client, size, line.get());
      if (profile) {
        profiles.put(String.format("%s at %s pods (run %d)", client, count(size), run), SyncProfile.summarize(
            recording, Instant.EPOCH.plus(Long.parseLong(field(line.get(), "syncStartEpochMicros")), ChronoUnit.MICROS),
            result.syncNanos()));
      }
      double busyPct = after.machineBusyPercentSince(before);
      double childPct = 100.0 * result.cpuTotalNanos() / (after.nanos() - before.nanos());
      double others = busyPct < 0 ? 0
          : Math.max(0, busyPct - after.selfPercentSince(before) - Math.max(0, serverPct) - childPct);
      return Optional.of(result.withConditions(serverPct, others));
    }
  }

  /**
   * Untimed lists, so that the server's list paths are compiled before the first client runs:
   * two full lists over HTTP/1.1 (the peers' path) and two {@code resourceVersion=0&limit=500}
   * lists over h2c (our informer's first list; the server serves it whole).
   */
  private void warmServer(String url, int size) throws Exception {
    try (HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpClient h2c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build()) {
      for (int i = 0; i < 2; i++) {
        get(http1, url + "/api/v1/pods", size, HttpResponse.BodyHandlers.discarding());
        get(h2c, url + "/api/v1/pods?resourceVersion=0&limit=500", size, HttpResponse.BodyHandlers.discarding());
      }
    }
  }

  private static <B> B get(HttpClient http, String url, int size, HttpResponse.BodyHandler<B> body) throws Exception {
    HttpResponse<B> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(2)).build(), body);
    if (r.statusCode() != 200) {
      throw new IllegalStateException("warm-up list of " + size + " pods: HTTP " + r.statusCode());
    }
    return r.body();
  }

  /**
   * Changes a label on {@link #updates} pods spread over the {@code size} pods (named as
   * {@code PodLoad} names them), one JSON merge patch at a time over HTTP/1.1: each is one
   * MODIFIED watch event, so one update notification in every informer.
   */
  private void writeUpdates(String url, int size) throws Exception {
    try (HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
      for (int i = 0; i < updates; i++) {
        String pod = String.format("pod-%06d", (int) ((long) i * size / updates));
        byte[] patch = ("{\"metadata\":{\"labels\":{\"bench.listwatch.io/update\":\"" + (++updateSeq) + "\"}}}")
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        HttpResponse<String> r = http1.send(HttpRequest.newBuilder(
                URI.create(url + "/api/v1/namespaces/" + Pods.NAMESPACE + "/pods/" + pod))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/merge-patch+json")
            .method("PATCH", HttpRequest.BodyPublishers.ofByteArray(patch)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
          throw new IllegalStateException("update of " + pod + ": HTTP " + r.statusCode() + ": " + r.body());
        }
      }
    }
  }

  /** The value of {@code key=} in a child's result line. */
  private static String field(String line, String key) {
    int at = line.indexOf(" " + key + "=") + key.length() + 2;
    int end = line.indexOf(' ', at);
    return line.substring(at, end < 0 ? line.length() : end);
  }

  private static String ms(long nanos) {
    return String.format("%,.0f", nanos / 1e6);
  }

  private void validate() {
    List<String> problems = new ArrayList<>();
    checkIncreasingCounts("--pods", podCounts, problems);
    for (String c : clients) {
      if (!InformerClients.NAMES.contains(c)) {
        problems.add("unknown client '" + c + "' (one of " + InformerClients.NAMES + ")");
      }
    }
    if (runs < 1 || runsAt.values().stream().anyMatch(n -> n < 1) || load.connections() < 1
        || load.objectBytes() < 0 || timeoutSeconds < 1 || updates < 1 || eventTimeoutSeconds < 1) {
      problems.add("--runs, --runs-at, --load-connections, --timeout, --updates and --event-timeout must be >= 1");
    }
    if (!clientHeap.matches("[0-9]+[kKmMgG]?") || !serverHeap.matches("[0-9]+[kKmMgG]?")) {
      problems.add("--client-heap and --server-heap take a JVM size, e.g. 4g");
    }
    rejectIfAny(problems);
  }
}
