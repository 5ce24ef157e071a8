package io.listwatch.bench.apf;

import io.listwatch.bench.AllocationMonitor;
import io.listwatch.bench.BenchmarkCommand;
import io.listwatch.bench.ChildJvm;
import io.listwatch.bench.CpuAffinity;
import io.listwatch.bench.CpuMonitor;
import io.listwatch.bench.Format;
import io.listwatch.bench.HostProbe;
import io.listwatch.bench.MachineInfo;
import io.listwatch.bench.QuietMachine;
import io.listwatch.bench.ReportOutput;
import io.listwatch.bench.ResultTable;
import io.listwatch.bench.ServerJvm;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bench apf}: does one flooding user starve another? A light user GETs one ConfigMap at a
 * fixed rate, open loop ({@link OpenLoopGets}), first on a quiet server, then while a heavy user
 * lists the whole namespace and watches it from its current state as fast as the server answers
 * ({@link Flood}, in a JVM of its own). Both users have bearer tokens (AlwaysAllow). The heavy
 * user is an ordinary authenticated user, so with API Priority and Fairness on its requests fall in
 * kube's {@code global-default} level; by default the light user is one too, a second flow of that
 * level, and with {@code --light-user} it is a node or kube-controller-manager, which kube's
 * suggested FlowSchemas put in a priority level of its own. The server runs in its own JVM
 * ({@code ./listwatch server}), once with {@code --enable-priority-and-fairness=true} and once
 * with {@code =false} (the max-in-flight limits); the figure is the light user's p99 under the
 * flood over its quiet p99 (step 12's target: within 2x with APF on).
 *
 * <p>The flood's first {@code --flood-warmup} seconds are its onset, measured and reported apart:
 * API Priority and Fairness re-shares the server's seats among the priority levels only every
 * 10 s (kube's borrowing period), so until it does the flood's level runs at the limit it had
 * while quiet and the light user's GETs queue behind the flood's lists. The flooded measure
 * starts after that, with the seats shared as the flood asks. Beside it, what the server's JVM
 * allocated and how often and how long its collector paused in the flooded measure
 * ({@link AllocationMonitor}, over a local JMX connection).
 *
 * <p>With {@code --server-cpus}, {@code --client-cpus} and {@code --flood-cpus} the three JVMs are
 * pinned (taskset), e.g. the heavy user alone on one core and the server beside the light user
 * on the other, as if the flood came from another machine. The server and the heavy user are
 * started on their CPUs, so that each sizes its threads (its GC and JIT threads, Netty's event
 * loops) for them; one without its option runs on all of the machine's CPUs, whatever this JVM is
 * pinned to. With {@code --flood-idle} the heavy user runs in Linux's idle scheduling class, so
 * that the light user can share the flood's core instead of the server's without waiting out the
 * flood's time slices: on two cores, the nearest to both users on other machines.
 *
 * <p>The seconds in which this machine's host, not the server, was slow are found from the light
 * user's own GETs ({@link OpenLoopGets.Timeline#hostSlowSeconds}: with {@code --light-protocol
 * urlconnection} each is timed in its client's CPU time) and, with {@code --host-probe}, by a
 * {@link HostProbe} as well; they are reported, left out of a second ratio, and the verdict is
 * on that one.
 *
 * <p>Confined to the thread that runs the command; the responses run on threads of their own.
 */
@Command(
    name = "apf",
    description = "A light user's GET p99 while another user floods lists and watches, with API Priority and "
        + "Fairness on and off, against its quiet p99.")
public final class ApfBenchmark extends BenchmarkCommand {

  private static final String NAMESPACE = "apf-bench";
  private static final String LIGHT = "light-token";
  private static final String HEAVY = "heavy-token";
  private static final double TARGET_RATIO = 2.0;

  @Option(names = "--objects", defaultValue = "2000", paramLabel = "N",
      description = "ConfigMaps in the namespace the heavy user lists (default: ${DEFAULT-VALUE}).")
  int objects;

  @Option(names = "--object-bytes", defaultValue = "1024", paramLabel = "N",
      description = "Bytes of data in each ConfigMap (default: ${DEFAULT-VALUE}).")
  int objectBytes;

  @Option(names = "--rate", defaultValue = "50", paramLabel = "PER_SECOND",
      description = "The light user's GETs per second (default: ${DEFAULT-VALUE}).")
  double rate;

  @Option(names = "--seconds", defaultValue = "60", paramLabel = "S",
      description = "Seconds measured, quiet and under the flood each (default: ${DEFAULT-VALUE}: 3,000 GETs at the "
          + "default rate, so that a p99 is the 30th slowest, not the 10th of 20 s; the flooded p99 of each third "
          + "is reported beside it).")
  int seconds;

  @Option(names = "--warmup", defaultValue = "60", paramLabel = "S",
      description = "Seconds of light GETs before the quiet measure (default: ${DEFAULT-VALUE}, so that the quiet p99 "
          + "is a warm server's: after 5 s its quiet p99 was nearly twice as high).")
  int warmup;

  @Option(names = "--warmup-gets", defaultValue = "20000", paramLabel = "N",
      description = "The light user's GETs sent back to back (" + BLOCKING_WORKERS + " at a time) before the quiet "
          + "warm-up, so that the server's JIT has compiled its GET path before anything is measured: C2 compiles a "
          + "method after thousands of calls, minutes of GETs at 50 a second, and compiled it during the quiet "
          + "measure, on the server's core, for seconds at a time (default: ${DEFAULT-VALUE}).")
  int warmupGets;

  @Option(names = "--settle", defaultValue = "60", paramLabel = "S",
      description = "Seconds at most of more light GETs, not measured, after the quiet warm-up and after the flood's "
          + "onset, until a stretch of " + SETTLE_STRETCH_SECONDS + " s in which the server's JIT compiled for less "
          + "than " + SETTLE_JIT_MILLIS + " ms, so that each measure is a warm server's; the JIT's time within each "
          + "measure is reported (default: ${DEFAULT-VALUE}; 0: no wait).")
  int settle;

  @Option(names = "--quiet-machine",
      description = "Hold two of this machine's settings for the run, the same for each measure, and give them back "
          + "at the end: idle CPUs poll instead of halting (/dev/cpu_dma_latency at 0), and the kernel's DAMON threads "
          + "(kdamond, 3-7 ms every half second) run in SCHED_IDLE, where they still hold a CPU to their next "
          + "preemption point on a kernel without full preemption. Needs root (default: off).")
  boolean quietMachine;

  @Option(names = "--host-probe",
      description = "Two threads on the machine's first two CPUs wake each other ten times a second and time each "
          + "wake in the waker's CPU time (HostProbe); a second with " + HostProbe.SLOW_SAMPLES + " wakes or more "
          + "over " + HostProbe.SLOW_WAKE_MICROS + " µs is one in which the machine, not the server, was slow (on "
          + "this PVM guest the host has such modes: a wake then costs 3-4 ms instead of 20-60 µs and a quiet GET "
          + "takes 4-8 ms). Those seconds and the ones either side are left out with the ones the light GETs "
          + "themselves show (with --light-protocol urlconnection each is timed in its client's CPU time, which "
          + "finds them without a probe). Not the default: with the probe in this JVM the flooded p99 was "
          + "higher in each of five runs than in each of six without it, and it finds most of a slow stretch, not "
          + "always all of it (docs/reliability.md) (default: off).")
  boolean hostProbe;

  @Option(names = "--server-warmup", defaultValue = "0", paramLabel = "S",
      description = "Seconds of flood (and light GETs) before the quiet warm-up, so that the server's list and watch "
          + "paths are compiled before anything is measured, as in a server that has run for a while; APF then "
          + "also enters the flood with the seats it lent the last one (default: ${DEFAULT-VALUE}, none: the JIT "
          + "compiles those paths during the flood, 14-26%% of the server's core in the flooded measure of three "
          + "profiled runs).")
  int serverWarmup;

  @Option(names = "--flood-warmup", defaultValue = "15", paramLabel = "S",
      description = "Seconds of flood before the flooded measure, the flood's onset, during which the light user's "
          + "GETs are measured apart (default: ${DEFAULT-VALUE}: more than one of APF's 10 s borrowing periods).")
  int floodWarmup;

  @Option(names = "--flood-lists", defaultValue = "32", paramLabel = "N",
      description = "The heavy user's threads listing the namespace back to back (default: ${DEFAULT-VALUE}).")
  int floodLists;

  @Option(names = "--flood-watches", defaultValue = "16", paramLabel = "N",
      description = "The heavy user's threads watching it from its current state, 1 s a watch "
          + "(default: ${DEFAULT-VALUE}).")
  int floodWatches;

  /** What the heavy user asks of the server's compression. */
  enum FloodEncoding { gzip, identity }

  @Option(names = "--flood-encoding", defaultValue = "gzip", paramLabel = "gzip|identity",
      description = "The heavy user's Accept-Encoding: gzip, as client-go sends by default, so that the server "
          + "compresses every list (over kube's 128 KiB threshold), or identity, plain lists as before the server "
          + "compressed (default: ${DEFAULT-VALUE}).")
  FloodEncoding floodEncoding;

  /** How the heavy user answers a 429. */
  enum FloodRetry { now, after }

  @Option(names = "--flood-retry", defaultValue = "now", paramLabel = "now|after",
      description = "How the heavy user retries a list or watch answered 429: now, at once, ignoring Retry-After "
          + "(the worst client there is), or after, once the answer's Retry-After has passed, as client-go does "
          + "(default: ${DEFAULT-VALUE}).")
  FloodRetry floodRetry;

  @Option(names = "--modes", split = ",", defaultValue = "on,off", paramLabel = "on|off",
      description = "API Priority and Fairness on, off, or both in turn (default: ${DEFAULT-VALUE}).")
  List<String> modes;

  @Option(names = "--server-option", paramLabel = "OPTION",
      description = "Another option of ./listwatch server (repeatable), e.g. "
          + "--server-option=--max-requests-inflight=40.")
  List<String> serverOptions = new ArrayList<>();

  @Option(names = "--server-heap", defaultValue = "1g", paramLabel = "SIZE",
      description = "The server JVM's -Xmx (default: ${DEFAULT-VALUE}).")
  String serverHeap;

  @Option(names = "--server-jvm-option", paramLabel = "OPTION",
      description = "Another option of the server's JVM (repeatable).")
  List<String> serverJvmOptions = new ArrayList<>();

  /** The light user's client and protocol. */
  enum LightProtocol {
    h2(HttpClient.Version.HTTP_2), http1(HttpClient.Version.HTTP_1_1), urlconnection(HttpClient.Version.HTTP_1_1);

    final HttpClient.Version version;

    LightProtocol(HttpClient.Version version) {
      this.version = version;
    }
  }

  /**
   * Who the light user is, and so, by kube's suggested FlowSchemas, which priority level its GETs
   * fall in with APF on: the flood's own ({@code global-default}, one flow each) or one of its own.
   */
  enum LightUser {
    ordinary("light", "bench-users", "an ordinary user (group bench-users): FlowSchema global-default, the "
        + "heavy user's priority level global-default, a flow of its own"),
    node("system:node:apf-bench", "system:nodes", "a node (user system:node:apf-bench, group system:nodes), as "
        + "a kubelet: FlowSchema system-nodes, priority level system"),
    controller("system:kube-controller-manager", "bench-users", "kube-controller-manager (user "
        + "system:kube-controller-manager): FlowSchema kube-controller-manager, priority level workload-high");

    final String user;
    final String groups;
    final String description;

    LightUser(String user, String groups, String description) {
      this.user = user;
      this.groups = groups;
      this.description = description;
    }
  }

  @Option(names = "--light-user", defaultValue = "ordinary", paramLabel = "ordinary|node|controller",
      description = "Who the light user is, and so its priority level with APF on: ordinary (the heavy user's "
          + "level, global-default), node (group system:nodes: level system) or controller "
          + "(system:kube-controller-manager: level workload-high) (default: ${DEFAULT-VALUE}).")
  LightUser lightUser;

  /** A stretch of light GETs in which the server's JIT compiled less than this has settled. */
  private static final int SETTLE_JIT_MILLIS = 50;
  private static final int SETTLE_STRETCH_SECONDS = 5;

  /** The urlconnection client's threads, one kept-alive connection each. */
  private static final int BLOCKING_WORKERS = 4;

  @Option(names = "--light-protocol", defaultValue = "http1", paramLabel = "http1|h2|urlconnection",
      description = "The light user's client: http1 (java.net.http's HTTP/1.1 pool, a new TLS connection whenever "
          + "every pooled one is busy), h2 (java.net.http on one HTTP/2 connection, as client-go) or urlconnection "
          + "(HttpURLConnection, HTTP/1.1, each GET written and read by one of " + BLOCKING_WORKERS + " threads on its "
          + "kept-alive connection) (default: ${DEFAULT-VALUE}).")
  LightProtocol lightProtocol;

  @Option(names = "--server-cpus", paramLabel = "LIST",
      description = "Pin the server JVM to these CPUs (taskset's list, e.g. 1); default: not pinned.")
  String serverCpus;

  @Option(names = "--client-cpus", paramLabel = "LIST",
      description = "Pin this JVM, the light user, to these CPUs (e.g. 1); default: not pinned.")
  String clientCpus;

  @Option(names = "--flood-cpus", paramLabel = "LIST",
      description = "Pin the heavy user's JVM to these CPUs (e.g. 0); default: not pinned.")
  String floodCpus;

  @Option(names = "--flood-idle",
      description = "Start the heavy user's JVM in Linux's SCHED_IDLE class (chrt --idle 0): it runs only on CPU "
          + "that nothing else on its cores wants, and a thread of another class that wakes there preempts it "
          + "instead of waiting out its time slice; with --client-cpus on the flood's CPUs the light user then "
          + "shares no core with the server and does not queue behind the flood's client (default: off).")
  boolean floodIdle;

  @Option(names = "--timeline-dir", paramLabel = "DIR",
      description = "Write each light request's due time and latency there, one file per mode and phase "
          + "(apf-<mode>-<quiet|onset|flooded>.tsv), to line slow ones up with the server's logs, e.g. "
          + "--server-jvm-option=-Xlog:gc,safepoint:file=/tmp/server-gc.log:utctime (default: none).")
  Path timelineDir;

  @Mixin
  private ReportOutput output;

  /** The host probe of the run; null without --host-probe. */
  private HostProbe probe;

  /** What one server (APF on or off) measured. */
  private record Run(String mode, OpenLoopGets.Result quiet, OpenLoopGets.Result onset, OpenLoopGets.Result flooded,
      double floodSeconds, long lists, long watches, long rejected, long failed, long serverAllocated,
      AllocationMonitor.Pauses serverPauses, Settled quietJit, Settled floodJit, Set<Long> quietSlow,
      Set<Long> floodedSlow) {
  }

  /**
   * How long the light GETs went on before a measure until the server's JIT settled (-1: it had
   * not after {@code --settle} seconds; 0: not waited for), and the JIT's milliseconds within the
   * measure (-1: unknown).
   */
  private record Settled(int afterSeconds, long measureMillis) {
    @Override
    public String toString() {
      return (measureMillis < 0 ? "unknown" : String.valueOf(measureMillis)) + " ("
          + (afterSeconds < 0 ? "unsettled" : afterSeconds + " s") + ")";
    }
  }

  @Override
  public Integer call() throws Exception {
    List<String> problems = new ArrayList<>();
    if (objects < 1 || objectBytes < 0 || rate <= 0 || seconds < 1 || warmup < 0 || serverWarmup < 0 || floodWarmup < 1
        || floodLists < 0 || floodWatches < 0 || warmupGets < 0 || settle < 0) {
      problems.add("--objects, --rate, --seconds and --flood-warmup must be > 0; --object-bytes, --warmup, "
          + "--warmup-gets, --settle, --server-warmup, --flood-lists and --flood-watches >= 0");
    }
    if (modes.isEmpty() || !modes.stream().allMatch(m -> m.equals("on") || m.equals("off"))) {
      problems.add("--modes lists on and/or off");
    }
    rejectIfAny(problems);
    Path dir = Files.createTempDirectory("listwatch-bench-apf-");
    MachineInfo machine = MachineInfo.describe(dir);
    List<String> jvm = ChildJvm.withOptions(ChildJvm.standardOptions(serverHeap), serverJvmOptions);
    if (clientCpus != null) {
      CpuAffinity.pin(ProcessHandle.current().pid(), clientCpus);
    }
    List<Run> runs = new ArrayList<>();
    String held = "none (--quiet-machine not given)";
    String probed = hostProbe ? "none (this machine has one CPU)" : "none (--host-probe not given)";
    try (QuietMachine quiet = quietMachine ? QuietMachine.hold() : null;
        HostProbe started = hostProbe ? startProbe() : null) {
      probe = started;
      if (quiet != null) {
        held = quiet.describe();
      }
      for (String mode : modes) {
        runs.add(measure(mode, dir.resolve(mode), jvm));
      }
      if (started != null) {
        probed = "CPUs " + started.describe() + " wake each other every " + HostProbe.PERIOD_MILLIS + " ms, each "
            + "wake timed in the waker's CPU time; a second with " + HostProbe.SLOW_SAMPLES + " or more wakes over "
            + HostProbe.SLOW_WAKE_MICROS + " µs is slow, and the seconds either side of a slow one are left out with "
            + "it" + (started.problems().isEmpty() ? "" : "; not sampled: " + String.join("; ", started.problems()));
      }
    } finally {
      Format.deleteRecursively(dir);
    }
    ResultTable table = report.table(new ResultTable(String.format(
        "The light user's GETs (%s/s, open loop, latency from each request's due time), %d s quiet, then the "
            + "flood's first %d s (its onset), then %d s flooded, while the heavy user floods (%d list threads, "
            + "%d watch threads; %d ConfigMaps of %d bytes)",
        Format.number(rate), seconds, floodWarmup, seconds, floodLists, floodWatches, objects, objectBytes),
        "APF", "quiet p50 ms", "quiet p99 ms", "onset p99 ms", "flooded p50 ms", "flooded p99 ms", "flooded max ms",
        "flooded p99 by thirds ms", "p99 flooded / quiet", "light errors", "flooded send lag p99 ms",
        "heavy lists/s", "heavy watches/s", "heavy 429s/s", "heavy failures", "server MB allocated/s flooded",
        "server GC pauses flooded (n, ms)", "server JIT ms quiet (settled after)",
        "server JIT ms flooded (settled after)", "host-slow s left out quiet / flooded",
        "p99 flooded / quiet, host-normal s (ms)"));
    for (Run r : runs) {
      double ratio = ratio(r);
      long normalQuiet = r.quiet().timeline().latenciesOutside(r.quietSlow()).percentile(0.99);
      long normalFlooded = r.flooded().timeline().latenciesOutside(r.floodedSlow()).percentile(0.99);
      double normalRatio = (double) normalFlooded / Math.max(1, normalQuiet);
      int quietSeconds = seconds(r.quiet()).size();
      int floodedSeconds = seconds(r.flooded()).size();
      boolean hostKnown = probe != null || r.quiet().timeline().timed();
      boolean judged = !hostKnown || (r.quietSlow().size() * 2 <= quietSeconds
          && r.floodedSlow().size() * 2 <= floodedSeconds);
      double decisive = hostKnown ? normalRatio : ratio;
      table.row(r.mode(), Format.ms(r.quiet().latencies().percentile(0.5)),
          Format.ms(r.quiet().latencies().percentile(0.99)),
          Format.ms(r.onset().latencies().percentile(0.99)), Format.ms(r.flooded().latencies().percentile(0.5)),
          Format.ms(r.flooded().latencies().percentile(0.99)),
          Format.ms(r.flooded().latencies().max()), thirds(r.flooded()), String.format("%.2fx", ratio),
          (r.quiet().errors() + r.onset().errors() + r.flooded().errors()) + firstError(r),
          Format.ms(r.flooded().sendLags().percentile(0.99)),
          Format.count(r.lists() / r.floodSeconds()), Format.count(r.watches() / r.floodSeconds()),
          Format.count(r.rejected() / r.floodSeconds()), r.failed(),
          r.serverAllocated() < 0 ? "unknown" : String.format("%.1f", r.serverAllocated() / 1e6 / r.floodSeconds()),
          r.serverPauses() == null ? "unknown" : r.serverPauses().count() + ", " + r.serverPauses().millis(),
          r.quietJit(), r.floodJit(),
          !hostKnown ? "not known" : r.quietSlow().size() + " / " + r.floodedSlow().size() + " of "
              + quietSeconds + " / " + floodedSeconds,
          !hostKnown ? "not known" : String.format("%.2fx (%s / %s)", normalRatio, Format.ms(normalFlooded),
              Format.ms(normalQuiet)));
      report.figure("apf" + (r.mode().equals("on") ? "On" : "Off") + "P99Ratio", ratio);
      if (hostKnown) {
        report.figure("apf" + (r.mode().equals("on") ? "On" : "Off") + "HostNormalP99Ratio", normalRatio);
      }
      report.figure("apf" + (r.mode().equals("on") ? "On" : "Off") + "FloodedP99Ms",
          r.flooded().latencies().percentile(0.99) / 1e6);
      report.figure("apf" + (r.mode().equals("on") ? "On" : "Off") + "OnsetP99Ms",
          r.onset().latencies().percentile(0.99) / 1e6);
      String basis = !hostKnown ? "" : String.format(", %.2fx over the seconds the host was not slow (%d of the "
          + "quiet measure's %d s and %d of the flooded one's %d left out)", normalRatio, r.quietSlow().size(),
          quietSeconds, r.floodedSlow().size(), floodedSeconds);
      report.verdict(String.format("APF %s: the light user's p99 under the flood is %.2fx its quiet p99%s (target "
          + "within %.0fx with APF on): %s", r.mode(), ratio, basis, TARGET_RATIO,
          !judged ? "not judged, the host was slow for more than half of a measure; run it again"
              : decisive <= TARGET_RATIO ? "within" : "over"));
    }
    report.parameters.put("server", "./listwatch server in its own JVM (" + String.join(" ", jvm) + " "
        + ServerJvm.NO_LEAK_DETECTION + "), HTTPS on 127.0.0.1, --token-auth-file with two users, "
        + "--authorization-mode AlwaysAllow, " + (serverOptions.isEmpty()
            ? "default in-flight limits (400 + 200: 600 seats with APF, global-default's nominal 49 of them, "
                + "which it may lend down to 24 or borrow up to 649)"
            : String.join(" ", serverOptions)) + ", embedded RocksDB in a new temp dir; a new server per mode"
        + (serverCpus == null ? "" : "; started on CPUs " + serverCpus + " (taskset)"));
    report.parameters.put("load generators", "the light user in this JVM" + (clientCpus == null ? ""
        : ", pinned to CPUs " + clientCpus) + "; the heavy user in a JVM of its own (-Xmx1g, G1)"
        + (floodCpus == null ? "" : ", started on CPUs " + floodCpus + " (taskset)")
        + (floodIdle ? ", in SCHED_IDLE (chrt --idle 0)" : "")
        + (clientCpus != null && (serverCpus == null || floodCpus == null)
            ? "; a JVM without its CPUs given started on all of them" : ""));
    report.parameters.put("machine settings held", held);
    report.parameters.put("host probe", probed);
    report.parameters.put("host-slow seconds", (lightProtocol == LightProtocol.urlconnection
        ? String.format("a second in which at least %.0f%% of the light GETs (and two) cost their client over %d µs "
            + "of CPU (a GET's wake of the server's CPU paying for the host's slow mode)", 100
            * OpenLoopGets.Timeline.SLOW_SHARE, OpenLoopGets.Timeline.SLOW_CPU_MICROS)
        + (probe != null ? ", or one the host probe found slow" : "") + "; left out with the seconds either side"
        : probe != null ? "those the host probe found slow, with the seconds either side (--light-protocol "
            + lightProtocol + " does not time its GETs)"
            : "not known: --light-protocol " + lightProtocol + " does not time its GETs and --host-probe not given"));
    report.parameters.put("light user", "GET /api/v1/namespaces/" + NAMESPACE + "/configmaps/c0 over "
        + switch (lightProtocol) {
          case h2 -> "HTTP/2 (java.net.http, one connection, as client-go)";
          case http1 -> "HTTP/1.1 (java.net.http, its own connection pool)";
          case urlconnection -> "HTTP/1.1 (HttpURLConnection on " + BLOCKING_WORKERS + " threads, a kept-alive "
              + "connection each)";
        } + ", bearer token of " + lightUser.description + "; a non-200 answer counts as an "
        + "error; its send lag is how late this JVM handed a request to its HTTP client (the load generator's own "
        + "delay, included in the latencies); before the quiet measure, " + warmupGets + " GETs back to back ("
        + BLOCKING_WORKERS + " at a time) and " + warmup + " s of its open loop, to warm the server"
        + (settle == 0 ? "" : "; before each measure, up to " + settle + " s more of its GETs, not measured, until "
            + SETTLE_STRETCH_SECONDS + " s in which the server's JIT compiled for less than " + SETTLE_JIT_MILLIS
            + " ms (--settle)"));
    report.parameters.put("heavy user", "an ordinary user (group bench-users: FlowSchema global-default, priority "
        + "level global-default); GET .../configmaps (a list of every object) and "
        + "GET .../configmaps?watch=true&timeoutSeconds=1 (ADDED for every object, then 1 s), each thread back to "
        + "back, " + (floodEncoding == FloodEncoding.gzip ? "with Accept-Encoding: gzip (lists answered compressed, "
            + "watches never)" : "without Accept-Encoding (lists answered plain)") + ", read and discarded unparsed; "
        + (floodRetry == FloodRetry.now ? "429s are retried at once (--flood-retry now); "
            : "a 429 is retried once its Retry-After has passed, as client-go does (--flood-retry after); ")
        + (serverWarmup > 0 ? "also for " + serverWarmup + " s before the quiet "
            + "warm-up, so that the server has compiled its list and watch paths (--server-warmup)"
            : "not before the quiet measure (--server-warmup 0)"));
    output.print(report, machine);
    return 0;
  }

  /** The first light error of the run, in brackets; empty when there was none. */
  private static String firstError(Run r) {
    for (OpenLoopGets.Result phase : List.of(r.quiet(), r.onset(), r.flooded())) {
      if (!phase.firstError().isEmpty()) {
        return " (" + phase.firstError() + ")";
      }
    }
    return "";
  }

  /** The flooded p99 of each third of the measure, in order ("13.39, 9.26, 9.03"). */
  private static String thirds(OpenLoopGets.Result flooded) {
    return Arrays.stream(flooded.timeline().p99ByPart(3)).mapToObj(Format::ms).collect(Collectors.joining(", "));
  }

  private static double ratio(Run r) {
    long quiet = Math.max(1, r.quiet().latencies().percentile(0.99));
    return (double) r.flooded().latencies().percentile(0.99) / quiet;
  }

  private Run measure(String mode, Path dir, List<String> jvm) throws Exception {
    Files.createDirectories(dir);
    Path tokens = Files.writeString(dir.resolve("tokens.csv"),
        LIGHT + "," + lightUser.user + ",1001,\"" + lightUser.groups + "\"\n" + HEAVY + ",heavy,1002,bench-users\n");
    List<String> options = new ArrayList<>(List.of("--token-auth-file", tokens.toString(),
        "--authorization-mode", "AlwaysAllow", "--enable-priority-and-fairness", mode.equals("on") ? "true" : "false"));
    options.addAll(serverOptions);
    try (ServerJvm server = ServerJvm.start(launcher(serverCpus), dir.resolve("data"), options, jvm,
            dir.resolve("server.log"));
        HttpClient admin = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        LightClient light = lightClient(server, dir.resolve("data").resolve("tls").resolve("ca.crt"));
        AllocationMonitor heap = AllocationMonitor.orUnknown(server.pid())) {
      report.progress("APF %s: creating %d ConfigMaps", mode, objects);
      seed(admin, server.url());
      URI collection = collection(server);
      OpenLoopGets gets = new OpenLoopGets(light, rate);
      if (serverWarmup > 0) {
        report.progress("APF %s: warming the server, %d s of flood", mode, serverWarmup);
        try (ChildJvm flood = startFlood(collection, dir)) {
          gets.run(Duration.ofSeconds(serverWarmup));
          flood.send("stop");
        }
      }
      report.progress("APF %s: quiet, %d GETs back to back, %d s warm-up and %d s measured", mode, warmupGets, warmup,
          seconds);
      long failed = light.backToBack(warmupGets, BLOCKING_WORKERS);
      if (failed > 0) {
        throw new IllegalStateException(failed + " of the light user's " + warmupGets + " warm-up GETs were not "
            + "answered 200; the server's log: " + dir.resolve("server.log"));
      }
      gets.run(Duration.ofSeconds(warmup));
      int quietSettled = settle(gets, heap);
      long quietJit = heap.compilationMillis();
      CpuMonitor quietStart = CpuMonitor.now();
      long quietTicks = server.cpuTicks();
      OpenLoopGets.Result quiet = gets.run(Duration.ofSeconds(seconds));
      Settled quietJitMillis = new Settled(quietSettled, jitSince(heap, quietJit));
      report.phase("APF " + mode + ", quiet", quietStart, server.cpuTicks() - quietTicks);
      report.progress("APF %s: flooded, %d s onset and %d s measured", mode, floodWarmup, seconds);
      try (ChildJvm flood = startFlood(collection, dir)) {
        // the flood's onset: APF has yet to re-share the seats (every 10 s)
        OpenLoopGets.Result onset = gets.run(Duration.ofSeconds(floodWarmup));
        int floodSettled = settle(gets, heap);
        long floodJit = heap.compilationMillis();
        long[] before = counts(flood);
        long start = System.nanoTime();
        CpuMonitor floodStart = CpuMonitor.now();
        long floodTicks = server.cpuTicks();
        long allocatedBefore = heap.allocatedBytes();
        AllocationMonitor.Pauses pausesBefore = heap.pauses();
        OpenLoopGets.Result flooded = gets.run(Duration.ofSeconds(seconds));
        double floodSeconds = (System.nanoTime() - start) / 1e9;
        Settled floodJitMillis = new Settled(floodSettled, jitSince(heap, floodJit));
        long allocatedAfter = heap.allocatedBytes();
        AllocationMonitor.Pauses pausesAfter = heap.pauses();
        report.phase("APF " + mode + ", flooded", floodStart, server.cpuTicks() - floodTicks);
        if (timelineDir != null) {
          Files.createDirectories(timelineDir);
          Files.writeString(timelineDir.resolve("apf-" + mode + "-quiet.tsv"), quiet.timeline().tsv());
          Files.writeString(timelineDir.resolve("apf-" + mode + "-onset.tsv"), onset.timeline().tsv());
          Files.writeString(timelineDir.resolve("apf-" + mode + "-flooded.tsv"), flooded.timeline().tsv());
        }
        long[] after = counts(flood);
        flood.send("stop");
        return new Run(mode, quiet, onset, flooded, floodSeconds, after[0] - before[0], after[1] - before[1],
            after[2] - before[2], after[3] - before[3],
            allocatedBefore < 0 || allocatedAfter < 0 ? -1 : allocatedAfter - allocatedBefore,
            pausesBefore == null || pausesAfter == null ? null : new AllocationMonitor.Pauses(
                pausesAfter.count() - pausesBefore.count(), pausesAfter.millis() - pausesBefore.millis()),
            quietJitMillis, floodJitMillis, slowSeconds(quiet), slowSeconds(flooded));
      }
    }
  }

  /** The host probe on the machine's first two CPUs; a report without one on a machine with one CPU. */
  private static HostProbe startProbe() {
    List<Integer> cpus = HostProbe.cpus(CpuAffinity.online());
    return cpus.size() < 2 ? null : HostProbe.start(cpus.get(0), cpus.get(1));
  }

  /**
   * The seconds (since the epoch) of {@code phase} in which the machine's host was slow, by its
   * GETs' client CPU and by the host probe if there is one, with the seconds either side of each
   * (a slow mode that began or ended within a second may have left that second too few slow
   * wakes to count).
   */
  private Set<Long> slowSeconds(OpenLoopGets.Result phase) {
    TreeSet<Long> measured = seconds(phase);
    if (measured.isEmpty()) {
      return Set.of();
    }
    Set<Long> found = new TreeSet<>(phase.timeline().hostSlowSeconds());
    if (probe != null) {
      found.addAll(probe.slowSeconds((measured.first() - 1) * 1000, (measured.last() + 2) * 1000));
    }
    Set<Long> slow = new TreeSet<>();
    for (long second : found) {
      for (long s = second - 1; s <= second + 1; s++) {
        if (measured.contains(s)) {
          slow.add(s);
        }
      }
    }
    return slow;
  }

  /** The seconds (since the epoch) in which {@code phase}'s requests were due. */
  private static TreeSet<Long> seconds(OpenLoopGets.Result phase) {
    TreeSet<Long> seconds = new TreeSet<>();
    for (long due : phase.timeline().dueEpochMillis()) {
      seconds.add(Math.floorDiv(due, 1000));
    }
    return seconds;
  }

  /**
   * Goes on with the light GETs, unmeasured, in stretches of {@value #SETTLE_STRETCH_SECONDS} s
   * until one in which the server's JIT compiled less than {@value #SETTLE_JIT_MILLIS} ms, or
   * {@code --settle} seconds passed. Returns the seconds it went on; -1 when the JIT had not
   * settled (or its time is unknown).
   */
  private int settle(OpenLoopGets gets, AllocationMonitor server) throws InterruptedException {
    for (int waited = 0; waited < settle; waited += SETTLE_STRETCH_SECONDS) {
      long before = server.compilationMillis();
      gets.run(Duration.ofSeconds(SETTLE_STRETCH_SECONDS));
      long after = server.compilationMillis();
      if (before < 0 || after < 0) {
        return -1;
      }
      if (after - before < SETTLE_JIT_MILLIS) {
        return waited + SETTLE_STRETCH_SECONDS;
      }
    }
    return settle == 0 ? 0 : -1;
  }

  /** The server's JIT milliseconds since {@code before}; -1 if unknown. */
  private static long jitSince(AllocationMonitor server, long before) {
    long now = server.compilationMillis();
    return before < 0 || now < 0 ? -1 : now - before;
  }

  /**
   * The prefix that starts a child on {@code cpus}; on all of the machine's CPUs when null and this
   * JVM is pinned (a child would otherwise inherit the light user's CPUs).
   */
  private List<String> launcher(String cpus) {
    return launcher(cpus, false);
  }

  /** As {@link #launcher(String)}, and in Linux's idle scheduling class when {@code idleClass}. */
  private List<String> launcher(String cpus, boolean idleClass) {
    return CpuAffinity.launcher(cpus == null && clientCpus != null ? CpuAffinity.online() : cpus, idleClass);
  }

  /** The light user's client of {@code --light-protocol}, trusting {@code ca}. */
  private LightClient lightClient(ServerJvm server, Path ca) throws Exception {
    if (lightProtocol == LightProtocol.urlconnection) {
      return LightClient.blocking(lightUri(server), LIGHT, Flood.sslContext(ca).getSocketFactory(), BLOCKING_WORKERS);
    }
    return LightClient.async(Flood.https(ca, lightProtocol.version), lightUri(server), LIGHT);
  }

  /** Starts the heavy user's JVM, on {@code --flood-cpus} from its start if given, and waits until it floods. */
  private ChildJvm startFlood(URI collection, Path dir) throws IOException, InterruptedException {
    ChildJvm flood = ChildJvm.start("flood", launcher(floodCpus, floodIdle), System.getProperty("java.class.path"),
        List.of("-Xmx1g", "-XX:+UseG1GC"), Flood.class.getName(),
        List.of(collection.toString(), HEAVY, String.valueOf(floodLists), String.valueOf(floodWatches),
            dir.resolve("data").resolve("tls").resolve("ca.crt").toString(), floodEncoding.name(),
            floodRetry.name()),
        dir.resolve("flood.log"));
    try {
      if (flood.awaitLine("flooding"::equals, 60).isEmpty()) {
        throw new IllegalStateException("the flood did not start; its log:\n" + flood.logTail(40));
      }
      return flood;
    } catch (InterruptedException | RuntimeException e) {
      flood.close();
      throw e;
    }
  }

  /** The ConfigMaps the heavy user lists, on the server's HTTPS port. */
  private static URI collection(ServerJvm server) {
    return URI.create("https://127.0.0.1:" + server.address("https").getPort() + "/api/v1/namespaces/" + NAMESPACE
        + "/configmaps");
  }

  /** The ConfigMap the light user GETs. */
  private static URI lightUri(ServerJvm server) {
    return URI.create(collection(server) + "/c0");
  }

  /** The flood's answers so far: lists, watches, 429s, failures. */
  private static long[] counts(ChildJvm flood) throws IOException, InterruptedException {
    flood.send("counts");
    String line = flood.awaitLine(l -> l.startsWith("counts "), 30).orElseThrow(() -> new IllegalStateException(
        "the flood did not answer; its log:\n" + flood.logTail(40)));
    String[] f = line.split(" ");
    return new long[] {Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4])};
  }

  /** Creates the namespace and the ConfigMaps as the admin (the plain listener is system:masters). */
  private void seed(HttpClient admin, String url) throws IOException, InterruptedException {
    post(admin, url + "/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
        + NAMESPACE + "\"}}");
    String value = "x".repeat(objectBytes);
    for (int i = 0; i < objects; i++) {
      post(admin, url + "/api/v1/namespaces/" + NAMESPACE + "/configmaps", "{\"apiVersion\":\"v1\",\"kind\":"
          + "\"ConfigMap\",\"metadata\":{\"name\":\"c" + i + "\"},\"data\":{\"v\":\"" + value + "\"}}");
    }
  }

  private static void post(HttpClient client, String url, String body) throws IOException, InterruptedException {
    HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type",
        "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 201) {
      throw new IllegalStateException("POST " + url + " answered " + r.statusCode() + ": " + r.body());
    }
  }
}
