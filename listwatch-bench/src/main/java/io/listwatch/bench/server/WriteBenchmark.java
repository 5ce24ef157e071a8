package io.listwatch.bench.server;

import static io.listwatch.bench.Format.count;
import static io.listwatch.bench.Format.ms;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.bench.AllocationMonitor;
import io.listwatch.bench.BenchmarkCommand;
import io.listwatch.bench.ChildJvm;
import io.listwatch.bench.CpuMonitor;
import io.listwatch.bench.Format;
import io.listwatch.bench.JvmThreadCpu;
import io.listwatch.bench.LatencyRecorder;
import io.listwatch.bench.MachineInfo;
import io.listwatch.bench.ReportOutput;
import io.listwatch.bench.ResultTable;
import io.listwatch.bench.ServerJvm;
import io.listwatch.storage.etcd.testing.EtcdServer;
import io.listwatch.bench.server.WriteObjects.Kind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code bench server-writes}: what a write costs the API server by how it is made — a plain
 * update ({@code PUT} with the resourceVersion of the previous answer), server-side apply
 * ({@code PATCH} with {@code application/apply-patch+yaml}, {@code force=true}) — and by what
 * it writes: a ConfigMap (a built-in), a custom resource whose schema types and constrains every
 * field, and the same custom resource under a schema that checks nothing
 * ({@link WriteObjects}). The difference between the last two is the schema's work per write.
 *
 * <p>The server ({@code ./listwatch server}, embedded store in a new temporary directory) runs
 * in a JVM of its own ({@link ServerJvm}). Each scenario runs {@code --writers} platform
 * threads, each writing its own object as fast as answers come back on one keep-alive
 * connection ({@link RawHttp}): {@code --warmup} seconds unrecorded, then {@code --seconds}
 * recorded. Figures: latency percentiles of the recorded requests, writes/s, and the server
 * JVM's CPU and the bytes its threads allocated ({@link AllocationMonitor}) over the recorded
 * window, each divided by its writes, with the JIT compilers' and the garbage collector's share of
 * the CPU ({@link JvmThreadCpu}: a short warm-up leaves much of the CPU to the JIT); a verdict
 * sets the CPU per write of a ConfigMap PUT and of a Pod create against the budget
 * ({@value #CPU_BUDGET_MICROS} µs). A scenario the server refuses
 * (e.g. apply of a custom resource on a server that does not serve it) is reported with its
 * first error instead of figures.
 *
 * <p>Confined to the thread that runs the command; the writers are threads of their own.
 */
@Command(
    name = "server-writes",
    description = "Update, server-side apply and schema validation: latency and server CPU per write.")
public final class WriteBenchmark extends BenchmarkCommand {

  private static final long NANOS_PER_TICK = 10_000_000L; // USER_HZ is 100 on Linux
  /** Step 11's budget of server CPU per write, for a ConfigMap PUT and a Pod create. */
  static final int CPU_BUDGET_MICROS = 250;
  private static final Pattern RESOURCE_VERSION = Pattern.compile("\"resourceVersion\":\"(\\d+)\"");
  private static final String APPLY = "application/apply-patch+yaml";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One measured combination: what is written and how. */
  private record Scenario(String label, Kind kind, boolean apply, boolean create, String prefix) {
  }

  private static final List<Scenario> SCENARIOS = List.of(
      new Scenario("ConfigMap, PUT update", Kind.CONFIGMAP, false, false, "cm-put"),
      new Scenario("ConfigMap, server-side apply", Kind.CONFIGMAP, true, false, "cm-apply"),
      new Scenario("custom resource, no schema checks, PUT update", Kind.OPEN_CR, false, false, "open-put"),
      new Scenario("custom resource, typed schema, PUT update", Kind.SCHEMA_CR, false, false, "typed-put"),
      new Scenario("custom resource, typed schema, server-side apply", Kind.SCHEMA_CR, true, false, "typed-apply"),
      new Scenario("Pod, create", Kind.POD, false, true, "pod"));

  @Option(names = "--stores", split = ",", defaultValue = "rocksdb", paramLabel = "rocksdb|etcd",
      description = "What the server stores in, measured in turn in one run: the embedded store, or etcd (a real "
          + "single-member etcd started for the run, Debian's binary, in a process of its own) (default: ${DEFAULT-VALUE}).")
  private List<String> stores;

  @Option(names = "--writers", defaultValue = "4", paramLabel = "N",
      description = "Concurrent writers, each on its own object and connection (default: ${DEFAULT-VALUE}).")
  private int writers;

  @Option(names = "--seconds", defaultValue = "10", paramLabel = "S",
      description = "Recorded seconds per scenario (default: ${DEFAULT-VALUE}).")
  private int seconds;

  @Option(names = "--warmup", defaultValue = "5", paramLabel = "S",
      description = "Unrecorded seconds of each scenario in the warm-up pass before the recorded rounds "
          + "(default: ${DEFAULT-VALUE}).")
  private int warmup;

  @Option(names = "--rounds", defaultValue = "3", paramLabel = "N",
      description = "Recorded rounds; each runs every scenario in turn, so that a slower spell of the machine "
          + "spreads over all of them (default: ${DEFAULT-VALUE}).")
  private int rounds;

  @Option(names = "--object-bytes", defaultValue = "1024", paramLabel = "N",
      description = "Approximate JSON size of each object as stored after create (default: ${DEFAULT-VALUE}).")
  private int objectBytes;

  @Option(names = "--server-heap", defaultValue = "1g", paramLabel = "SIZE",
      description = "-Xmx of the server's JVM (default: ${DEFAULT-VALUE}).")
  private String serverHeap;

  @Option(names = "--server-jvm-option", paramLabel = "OPTION",
      description = "An extra JVM option for the server(s), after the defaults; repeat for more. A collector "
          + "option (e.g. --server-jvm-option=-XX:+UseZGC) replaces the default G1 (default: none).")
  private List<String> serverJvmOptions = new ArrayList<>();

  @Option(names = "--baseline-classpath", paramLabel = "FILE",
      description = "A file holding the classpath of another build of the server (e.g. the commit before a change): "
          + "a second server is started from it beside this build's, and every round runs each scenario against "
          + "both in turn, so the two are compared in one run.")
  private Path baselineClasspath;

  @Option(names = "--baseline-server-jvm-option", paramLabel = "OPTION",
      description = "A JVM option for the baseline server instead of --server-jvm-option's; repeat for more. Without "
          + "--baseline-classpath the baseline is this build, so that e.g. two collectors are compared in one run: "
          + "--server-jvm-option=-XX:+UseZGC --baseline-server-jvm-option=-XX:+UseG1GC (default: none).")
  private List<String> baselineJvmOptions = new ArrayList<>();

  @Option(names = "--scenarios", split = ",", paramLabel = "NAME",
      description = "Only these scenarios, by name: cm-put, cm-apply, open-put, typed-put, typed-apply, pod "
          + "(default: all). A long warm-up of one scenario measures its steady state without the JIT's "
          + "first compilations.")
  private List<String> only;

  @Mixin
  private ReportOutput output;

  /** The scenarios this run measures ({@code --scenarios}), in their usual order. */
  private List<Scenario> scenarios() {
    if (only == null || only.isEmpty()) {
      return SCENARIOS;
    }
    List<Scenario> chosen = SCENARIOS.stream().filter(s -> only.contains(s.prefix())).toList();
    if (chosen.size() != only.size()) {
      throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
          "--scenarios: unknown name in " + only + "; the names are "
              + SCENARIOS.stream().map(Scenario::prefix).toList());
    }
    return chosen;
  }

  @Override
  public Integer call() throws Exception {
    if (stores.isEmpty() || !stores.stream().allMatch(st -> st.equals("rocksdb") || st.equals("etcd"))) {
      throw new ParameterException(spec().commandLine(), "--stores lists rocksdb and/or etcd");
    }
    if (writers < 1 || seconds < 1 || rounds < 1 || warmup < 0 || objectBytes < 0) {
      throw new ParameterException(spec().commandLine(), "--writers, --seconds and --rounds must be >= 1, --warmup "
          + "and --object-bytes >= 0");
    }
    Path dir = Files.createTempDirectory("listwatch-bench-writes-");
    MachineInfo machine = MachineInfo.describe(dir);
    List<String> jvm = ChildJvm.withOptions(ChildJvm.standardOptions(serverHeap), serverJvmOptions);
    ResultTable table = report.table(new ResultTable(String.format(
        "Writes: %d writers, each on its own object; %d rounds of %d s recorded per scenario, after a warm-up pass "
            + "of %d s each; server CPU is the server JVM's over the recorded windows, per write", writers, rounds,
        seconds, warmup),
        "store", "write", "stored bytes", "writes", "writes/s", "p50 ms", "p90 ms", "p99 ms", "max ms",
        "server CPU µs/write", "of it JIT µs", "of it GC µs", "server alloc KB/write", "etcd CPU µs/write", "vs ConfigMap PUT", "errors"));
    WriteObjects objects = new WriteObjects(objectBytes);
    String baseline = baselineClasspath != null ? Files.readString(baselineClasspath).strip()
        : baselineJvmOptions.isEmpty() ? null : System.getProperty("java.class.path");
    List<String> baselineJvm = ChildJvm.withOptions(ChildJvm.standardOptions(serverHeap), baselineJvmOptions);
    try {
      for (String store : stores) {
        measure(store, dir.resolve(store), jvm, baselineJvm, objects, table, baseline);
      }
    } finally {
      Format.deleteRecursively(dir);
    }
    report.parameters.put("server", "./listwatch server in its own JVM (" + String.join(" ", jvm) + " "
        + ServerJvm.NO_LEAK_DETECTION + "), plain HTTP/1.1 on 127.0.0.1; stores: " + String.join(", ", stores.stream()
            .map(st -> st.equals("etcd") ? "etcd (--etcd-servers, one etcd member on 127.0.0.1 in its own process)"
                : "embedded RocksDB in a new temp dir").toList()));
    report.parameters.put("objects", String.format("~%,d bytes of JSON as stored after create, in namespace %s; "
        + "each write changes a counter", objectBytes, WriteObjects.NAMESPACE));
    report.parameters.put("writes", "PUT with the resourceVersion of the previous answer; apply: PATCH "
        + APPLY + " ?fieldManager=bench&force=true with the whole object (JSON); Pod, create: a POST of a new pod "
        + "(one container with ports, resources, a probe, env and a volume) per write");
    report.parameters.put("per write", "server CPU: the server process's utime+stime (/proc) over the recorded "
        + "window / writes answered in it; of it JIT and GC: the same from the C1/C2 compiler threads' and the "
        + "collector's threads (/proc/<pid>/task); alloc: com.sun.management.ThreadMXBean.getTotalThreadAllocatedBytes "
        + "of the server JVM (read over a local JMX connection the attach API opens) over the window / writes");
    if (baseline != null) {
      report.parameters.put("baseline", "a second server from " + (baselineClasspath == null ? "this build"
          : "the classpath in " + baselineClasspath) + " (JVM " + String.join(" ", baselineJvm)
          + "), running beside this build's; each round runs every scenario against this build, then the baseline");
    }
    output.print(report, machine);
    return 0;
  }

  /** Runs every scenario against a server on {@code store}, adding its rows to {@code table}. */
  private void measure(String store, Path dir, List<String> jvm, List<String> baselineJvm, WriteObjects objects,
      ResultTable table, String baselineClasspath) throws Exception {
    java.nio.file.Files.createDirectories(dir);
    EtcdServer etcd = store.equals("etcd") ? EtcdServer.start(dir.resolve("etcd")) : null;
    EtcdServer baselineEtcd = etcd == null || baselineClasspath == null ? null : EtcdServer.start(dir.resolve("etcd-b"));
    List<String> serverOptions = etcd == null ? List.of() : List.of("--etcd-servers", etcd.endpoint().toString());
    List<ServerJvm> servers = new ArrayList<>();
    try {
      servers.add(ServerJvm.start(dir.resolve("data"), serverOptions, jvm, dir.resolve("server.log")));
      if (baselineClasspath != null) {
        servers.add(ServerJvm.start(baselineClasspath, dir.resolve("data-b"), baselineEtcd == null ? List.of()
            : List.of("--etcd-servers", baselineEtcd.endpoint().toString()), baselineJvm, dir.resolve("server-b.log")));
      }
      measure(store, servers, etcd, objects, table);
    } finally {
      for (ServerJvm server : servers) {
        server.close();
      }
      for (EtcdServer e : java.util.Arrays.asList(etcd, baselineEtcd)) {
        if (e != null) {
          e.close();
        }
      }
    }
  }

  /** The server's label in the table: the store, and which build when a baseline runs beside. */
  private static String label(String store, List<ServerJvm> servers, int i) {
    return servers.size() == 1 ? store : store + (i == 0 ? ", this build" : ", baseline");
  }

  private void measure(String store, List<ServerJvm> servers, EtcdServer etcd, WriteObjects objects,
      ResultTable table) throws Exception {
    List<AllocationMonitor> allocations = new ArrayList<>();
    try {
      for (ServerJvm server : servers) {
        allocations.add(AllocationMonitor.orUnknown(server.pid()));
      }
      measure(store, servers, allocations, etcd, objects, table);
    } finally {
      for (AllocationMonitor a : allocations) {
        a.close();
      }
    }
  }

  private void measure(String store, List<ServerJvm> servers, List<AllocationMonitor> allocations, EtcdServer etcd,
      WriteObjects objects, ResultTable table) throws Exception {
    for (ServerJvm server : servers) {
      report.progress("server %s", server.url());
      try (RawHttp http = new RawHttp(server.address())) {
        for (String crd : List.of(WriteObjects.SCHEMA_CRD, WriteObjects.OPEN_CRD)) {
          RawHttp.Response r = http.send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
              "application/json", crd.getBytes(StandardCharsets.UTF_8), 4096);
          check(r.status() == 201, "creating a CustomResourceDefinition: HTTP " + r.status() + " " + r.bodyText());
        }
        awaitEstablished(http, "typedwidgets." + WriteObjects.GROUP);
        awaitEstablished(http, "openwidgets." + WriteObjects.GROUP);
      }
    }
    for (int j = 0; j < servers.size(); j++) {
      ServerJvm server = servers.get(j);
      String label = label(store, servers, j);
      CpuMonitor warmupCpu = CpuMonitor.now();
      long warmupTicks = server.cpuTicks();
      for (Scenario s : scenarios()) {
        report.progress("[%s] warm-up: %s", label, s.label());
        run(server, allocations.get(j), objects, s, "w", warmup);
      }
      report.phase("[" + label + "] warm-up pass (server JVM included)", warmupCpu, server.cpuTicks() - warmupTicks);
    }
    List<Scenario> scenarios = scenarios();
    Result[][] results = new Result[servers.size()][scenarios.size()];
    for (int round = 1; round <= rounds; round++) {
      CpuMonitor cpu = CpuMonitor.now();
      long ticks0 = servers.stream().mapToLong(ServerJvm::cpuTicks).sum();
      for (int i = 0; i < scenarios.size(); i++) {
        Scenario s = scenarios.get(i);
        for (int j = 0; j < servers.size(); j++) {
          report.progress("[%s] round %d of %d: %s", label(store, servers, j), round, rounds, s.label());
          long etcdTicks0 = etcd == null || j > 0 ? 0 : CpuMonitor.processTicks(etcd.pid());
          Result r = run(servers.get(j), allocations.get(j), objects, s, "r" + round, seconds);
          if (etcd != null && j == 0) {
            r = r.withEtcdCpu((CpuMonitor.processTicks(etcd.pid()) - etcdTicks0) * NANOS_PER_TICK);
          }
          results[j][i] = results[j][i] == null ? r : results[j][i].plus(r);
        }
      }
      report.phase("[" + store + "] round " + round + ", every scenario (server JVMs included)", cpu,
          servers.stream().mapToLong(ServerJvm::cpuTicks).sum() - ticks0);
    }
    for (int j = 0; j < servers.size(); j++) {
      String label = label(store, servers, j);
      double baseline = -1;
      for (int i = 0; i < scenarios.size(); i++) {
        Scenario s = scenarios.get(i);
        Result r = results[j][i];
        if (r.writes() == 0) {
          table.row(label, s.label(), count(r.storedBytes()), "0", "", "", "", "", "", "", "", "", "", "", "",
              "all " + count(r.errors()) + " refused, first: " + r.firstError());
          continue;
        }
        double cpuPerWrite = r.serverCpuNanos() / 1e3 / r.writes();
        if (s.kind() == Kind.CONFIGMAP && !s.apply()) {
          baseline = cpuPerWrite;
        }
        LatencyRecorder l = r.latency();
        double allocPerWrite = r.allocatedBytes() / (double) r.writes();
        if (j == 0) {
          String key = "write." + (store.equals("rocksdb") ? "" : store + ".") + s.prefix() + ".";
          report.figure(key + "serverCpuMicrosPerWrite", cpuPerWrite);
          if (r.allocatedBytes() >= 0) {
            report.figure(key + "allocatedBytesPerWrite", allocPerWrite);
          }
          report.figure(key + "p99Ms", l.percentile(0.99) / 1e6);
          if (r.byThread().jitTicks() >= 0) {
            report.figure(key + "jitCpuMicrosPerWrite", r.byThread().jitTicks() * NANOS_PER_TICK / 1e3 / r.writes());
            report.figure(key + "gcCpuMicrosPerWrite", r.byThread().gcTicks() * NANOS_PER_TICK / 1e3 / r.writes());
          }
        }
        if (s.prefix().equals("cm-put") || s.prefix().equals("pod")) {
          report.verdict(String.format("[%s] %s: %s server CPU µs/write (budget %d): %s; %s KB allocated per write",
              label, s.label(), count(cpuPerWrite), CPU_BUDGET_MICROS,
              cpuPerWrite <= CPU_BUDGET_MICROS ? "within" : "OVER", String.format("%.1f", allocPerWrite / 1024)));
        }
        table.row(label, s.label(), count(r.storedBytes()), count(r.writes()),
            count(r.writes() / (double) (seconds * rounds)),
            ms(l.percentile(0.5)), ms(l.percentile(0.9)), ms(l.percentile(0.99)), ms(l.max()),
            count(cpuPerWrite), perWrite(r.byThread().jitTicks(), r.writes()),
            perWrite(r.byThread().gcTicks(), r.writes()), r.allocatedBytes() < 0 ? "" : String.format("%.1f", allocPerWrite / 1024),
            etcd == null || j > 0 ? "" : count(r.etcdCpuNanos() / 1e3 / r.writes()),
            baseline > 0 ? String.format("%.2fx", cpuPerWrite / baseline) : "",
            r.errors() == 0 ? "0" : count(r.errors()) + " (first: " + r.firstError() + ")");
      }
    }
  }

  /** What one scenario measured, over one or more runs. */
  private record Result(long writes, long errors, String firstError, LatencyRecorder latency, long serverCpuNanos,
      JvmThreadCpu byThread, long allocatedBytes, long storedBytes, long etcdCpuNanos) {
    Result plus(Result other) {
      latency.merge(other.latency);
      return new Result(writes + other.writes, errors + other.errors, firstError != null ? firstError
          : other.firstError, latency, serverCpuNanos + other.serverCpuNanos, byThread.plus(other.byThread),
          allocatedBytes < 0 || other.allocatedBytes < 0 ? -1 : allocatedBytes + other.allocatedBytes,
          other.storedBytes, etcdCpuNanos + other.etcdCpuNanos);
    }

    Result withEtcdCpu(long nanos) {
      return new Result(writes, errors, firstError, latency, serverCpuNanos, byThread, allocatedBytes, storedBytes,
          nanos);
    }
  }

  /**
   * Runs scenario {@code s} for {@code runSeconds} on new objects named {@code prefix-run-i};
   * each writer's first write (the create) is not recorded.
   */
  private Result run(ServerJvm server, AllocationMonitor allocations, WriteObjects objects, Scenario s, String run,
      int runSeconds) throws Exception {
    List<Writer> ws = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      ws.add(new Writer(server, objects, s, s.prefix() + "-" + run + "-" + i));
    }
    for (Writer w : ws) {
      w.create(); // so that the recorded window starts with every object in place
    }
    long measureFrom = System.nanoTime();
    long until = measureFrom + TimeUnit.SECONDS.toNanos(runSeconds);
    for (Writer w : ws) {
      w.until = until;
    }
    long ticks0 = server.cpuTicks();
    JvmThreadCpu threads0 = JvmThreadCpu.of(server.pid());
    long allocated0 = allocations.allocatedBytes();
    List<Thread> threads = new ArrayList<>();
    for (Writer w : ws) {
      threads.add(Thread.ofPlatform().name("writer-" + w.name).start(w));
    }
    sleepUntil(until);
    long ticks1 = server.cpuTicks();
    JvmThreadCpu byThread = JvmThreadCpu.of(server.pid()).since(threads0);
    long allocated1 = allocations.allocatedBytes();
    for (Thread t : threads) {
      t.join();
    }
    LatencyRecorder all = new LatencyRecorder();
    long errors = 0;
    String firstError = null;
    for (Writer w : ws) {
      if (w.failure.get() != null) {
        throw new IllegalStateException(w.name + " failed", w.failure.get());
      }
      all.merge(w.latency);
      errors += w.errors;
      if (firstError == null) {
        firstError = w.firstError;
      }
    }
    long stored;
    try (RawHttp http = new RawHttp(server.address())) {
      RawHttp.Response r = http.send("GET", s.kind().collection + "/" + ws.get(0).name + (s.create() ? "-0" : ""),
          null, null, 0);
      stored = r.status() == 200 ? r.bodyBytes() : 0;
    }
    return new Result(all.count(), errors, firstError, all, (ticks1 - ticks0) * NANOS_PER_TICK, byThread,
        allocated0 < 0 || allocated1 < 0 ? -1 : allocated1 - allocated0, stored, 0);
  }

  /**
   * One writer: its own object and connection. {@link #create()} runs on the caller's thread,
   * {@link #run()} on the writer's; the caller reads the figures after joining it.
   */
  private static final class Writer implements Runnable {
    final String name;
    private final WriteObjects objects;
    private final Scenario scenario;
    private final RawHttp http;
    private final String path;
    volatile long until;
    private String rv;
    private long counter;
    final LatencyRecorder latency = new LatencyRecorder();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    long errors;
    String firstError;

    Writer(ServerJvm server, WriteObjects objects, Scenario scenario, String name) {
      this.objects = objects;
      this.scenario = scenario;
      this.name = name;
      this.http = new RawHttp(server.address());
      this.path = scenario.kind().collection + "/" + name + (scenario.apply() ? "?fieldManager=bench&force=true" : "");
    }

    /**
     * The first write, unrecorded: a POST, or the apply that creates the object (for a scenario
     * of creates, the first of them, {@code <name>-0}).
     */
    void create() throws IOException {
      Kind kind = scenario.kind();
      if (scenario.create()) {
        record(http.send("POST", kind.collection, "application/json", objects.body(kind, name + "-" + counter++, 0,
            null), 2048), -1);
        return;
      }
      if (scenario.apply()) {
        record(http.send("PATCH", path, APPLY, objects.body(kind, name, counter++, null), 2048), -1);
        return;
      }
      RawHttp.Response created = http.send("POST", kind.collection, "application/json",
          objects.body(kind, name, counter++, null), 2048);
      check(created.status() == 201, "creating " + name + ": HTTP " + created.status() + " " + created.bodyText());
      rv = resourceVersion(created);
    }

    @Override
    public void run() {
      Kind kind = scenario.kind();
      try (http) {
        while (true) {
          long start = System.nanoTime();
          if (start >= until) {
            return;
          }
          RawHttp.Response r = scenario.create()
              ? http.send("POST", kind.collection, "application/json",
                  objects.body(kind, name + "-" + counter, counter++, null), 2048)
              : scenario.apply()
              ? http.send("PATCH", path, APPLY, objects.body(kind, name, counter++, null), 2048)
              : http.send("PUT", path, "application/json", objects.body(kind, name, counter++, rv), 2048);
          record(r, System.nanoTime() - start);
        }
      } catch (Throwable t) {
        failure.set(t);
      }
    }

    /** Records an answer; {@code took} < 0 for one outside the recorded window. */
    private void record(RawHttp.Response r, long took) {
      if (r.status() != 200 && r.status() != 201) {
        if (took >= 0) {
          errors++;
        }
        if (firstError == null) {
          firstError = describe(r);
        }
        return;
      }
      if (!scenario.apply() && !scenario.create()) {
        rv = resourceVersion(r);
      }
      if (took >= 0) {
        latency.record(took);
      }
    }
  }

  /** {@code ticks} of CPU per write in µs, or "" if unknown. */
  private static String perWrite(long ticks, long writes) {
    return ticks < 0 ? "" : count(ticks * NANOS_PER_TICK / 1e3 / writes);
  }

  /** {@code HTTP <code>: <the Status's message>}, shortened. */
  private static String describe(RawHttp.Response r) {
    String message;
    try {
      message = JSON.readTree(r.body()).path("message").asText(r.bodyText());
    } catch (IOException e) {
      message = r.bodyText();
    }
    message = message.replaceAll("\\s+", " ");
    return "HTTP " + r.status() + ": " + (message.length() > 120 ? message.substring(0, 120) + "..." : message);
  }

  private static String resourceVersion(RawHttp.Response r) {
    Matcher m = RESOURCE_VERSION.matcher(r.bodyText());
    check(m.find(), "no resourceVersion in the answer: " + r.bodyText());
    return m.group(1);
  }

  /** Polls the definition until its Established condition is True (at most 30 s). */
  private static void awaitEstablished(RawHttp http, String name) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      RawHttp.Response r = http.send("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name,
          null, null, Integer.MAX_VALUE);
      for (JsonNode c : JSON.readTree(r.body()).path("status").path("conditions")) {
        if (c.path("type").asText().equals("Established") && c.path("status").asText().equals("True")) {
          return;
        }
      }
      Thread.sleep(20);
    }
    throw new IllegalStateException(name + " was not Established within 30 s");
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new IllegalStateException(message);
    }
  }
}
