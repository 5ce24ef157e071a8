package io.listwatch.bench.demo;

import static io.listwatch.bench.Format.count;

import io.listwatch.api.ListOptions;
import io.listwatch.bench.BenchmarkCommand;
import io.listwatch.bench.ChildJvm;
import io.listwatch.bench.CpuMonitor;
import io.listwatch.bench.Format;
import io.listwatch.bench.GcLog;
import io.listwatch.bench.MachineInfo;
import io.listwatch.bench.Report;
import io.listwatch.bench.ReportOutput;
import io.listwatch.bench.ResultTable;
import io.listwatch.bench.ServerJvm;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code bench demo-scale}: the demo's system at scale. Four JVMs on this machine: the API
 * server ({@code ./listwatch server}, embedded store, plain HTTP), the controllers
 * ({@code ./listwatch controllers}: deployment, replicaset, scheduler, node lifecycle), a fleet
 * of {@code --nodes} simulated node agents ({@link NodeFleet}), and this benchmark, which
 * creates {@code --deployments} Deployments of {@code --replicas} pods each and watches the
 * cluster with its own informers ({@link ClusterProgress}).
 *
 * <p>Two phases, each timed from the benchmark's first write to the moment its informers see
 * the goal:
 * <ol>
 *   <li><b>create</b>: every Deployment is created; done when every pod is Running and Ready.
 *       Milestones: every pod created (replicaset controller), every pod bound (scheduler).
 *   <li><b>rollout</b>: every Deployment's image is changed; done when every Deployment passes
 *       {@code kubectl rollout status}'s test and every pod runs the new image. Pods of the old
 *       ReplicaSets still terminating (their grace period) are counted apart.
 * </ol>
 * With {@code --minutes N}, a third phase, <b>soak</b> ({@link Soak}): N minutes of rollouts,
 * round after round, with the server's memory sampled and checked at the end.
 * Per phase: Events recorded per second (core Events, aggregated counts included), the API
 * requests of the whole system by verb (the server's {@code apiserver_request_total}), and each
 * process's CPU and heap after GC. At the end, each process's live heap after a full GC.
 *
 * <p>Confined to the thread that runs the command.
 */
@Command(
    name = "demo-scale",
    description = "The demo at scale: simulated nodes, deployments of pods, a rollout; time, events/s, CPU and heap.")
public final class DemoScaleBenchmark extends BenchmarkCommand {

  private static final String NAMESPACE = "bench";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final long PROGRESS_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);
  private static final String CONTROLLERS_MAIN = "io.listwatch.controllers.cli.ControllersCommand";

  @Option(names = "--nodes", defaultValue = "100", paramLabel = "N",
      description = "Simulated nodes, all in one child JVM (default: ${DEFAULT-VALUE}).")
  private int nodes;

  @Option(names = "--deployments", defaultValue = "100", paramLabel = "N",
      description = "Deployments created (default: ${DEFAULT-VALUE}).")
  private int deployments;

  @Option(names = "--replicas", defaultValue = "100", paramLabel = "N",
      description = "Replicas of each Deployment (default: ${DEFAULT-VALUE}).")
  private int replicas;

  @Option(names = "--max-pods", defaultValue = "110", paramLabel = "N",
      description = "Pods each node admits, the kubelet's default (default: ${DEFAULT-VALUE}).")
  private int maxPods;

  @Option(names = "--container-start-ms", defaultValue = "1000", paramLabel = "MS",
      description = "How long a simulated container takes to start (default: ${DEFAULT-VALUE}).")
  private long containerStartMillis;

  @Option(names = "--grace-seconds", defaultValue = "30", paramLabel = "S",
      description = "terminationGracePeriodSeconds of the pods, kube's default (default: ${DEFAULT-VALUE}).")
  private int graceSeconds;

  @Option(names = "--phase-timeout", defaultValue = "1200", paramLabel = "S",
      description = "Seconds a phase may take before the run gives up (default: ${DEFAULT-VALUE}).")
  private int phaseTimeoutSeconds;

  @Option(names = "--server-heap", defaultValue = "4g", paramLabel = "SIZE",
      description = "-Xmx of the server's JVM (default: ${DEFAULT-VALUE}).")
  private String serverHeap;

  @Option(names = "--client-heap", defaultValue = "2g", paramLabel = "SIZE",
      description = "-Xmx of the controllers' and the node fleet's JVMs (default: ${DEFAULT-VALUE}).")
  private String clientHeap;

  @Option(names = "--server-option", paramLabel = "OPTION",
      description = "An option of ./listwatch server for the server under test, e.g. --server-option=--watch-cache-history=75s "
          + "(repeatable).")
  private List<String> serverOptions = new ArrayList<>();

  @Option(names = "--minutes", defaultValue = "0", paramLabel = "N",
      description = "After the rollout, soak for N minutes: new images round after round, the server's RSS "
          + "sampled, Netty's paranoid leak detector on in the server, and at the end the informer caches "
          + "compared with the server (default: ${DEFAULT-VALUE}, no soak).")
  private long soakMinutes;

  @Option(names = "--keep-logs", description = "Keep the work directory (the four JVMs' logs and GC logs) "
      + "instead of deleting it; its path is printed.")
  private boolean keepLogs;

  @Mixin
  private ReportOutput output;

  @Override
  public Integer call() throws Exception {
    if (nodes < 1 || deployments < 1 || replicas < 1 || maxPods < 1 || containerStartMillis < 0 || graceSeconds < 0
        || phaseTimeoutSeconds < 1) {
      throw new ParameterException(spec().commandLine(), "--nodes, --deployments, --replicas, --max-pods and "
          + "--phase-timeout must be >= 1; --container-start-ms and --grace-seconds >= 0");
    }
    int pods = deployments * replicas;
    report.parameters.put("nodes", count(nodes));
    report.parameters.put("deployments", count(deployments) + " × " + count(replicas) + " replicas = " + count(pods)
        + " pods");
    report.parameters.put("max pods per node", count(maxPods));
    report.parameters.put("container start", containerStartMillis + " ms");
    report.parameters.put("grace period", graceSeconds + " s");
    report.parameters.put("heaps", "server -Xmx" + serverHeap + ", controllers and node fleet -Xmx" + clientHeap);
    if (!serverOptions.isEmpty()) {
      report.parameters.put("server options", String.join(" ", serverOptions));
    }
    if (soakMinutes > 0) {
      report.parameters.put("soak", soakMinutes + " minutes, server with " + Soak.PARANOID_LEAK_DETECTION + " -Xms"
          + serverHeap + " " + Soak.FIXED_HEAP_OPTIONS);
    }
    Path dir = Files.createTempDirectory("listwatch-bench-demo-");
    MachineInfo machine = MachineInfo.describe(dir);
    Path kubeconfig = dir.resolve("kubeconfig");
    GcLog serverGc = new GcLog(dir.resolve("server-gc.log"));
    GcLog controllersGc = new GcLog(dir.resolve("controllers-gc.log"));
    GcLog fleetGc = new GcLog(dir.resolve("nodes-gc.log"));
    List<Phase> phases = new ArrayList<>();
    long[] liveHeap = {-1, -1, -1};
    boolean soaked = true;
    List<String> serverJvm = jvmOptions(serverHeap, serverGc);
    if (soakMinutes > 0) {
      serverJvm.addAll(List.of(Soak.PARANOID_LEAK_DETECTION, "-Xms" + serverHeap, Soak.FIXED_HEAP_OPTIONS));
    }
    try (ServerJvm server = ServerJvm.start(dir.resolve("data"), serverOptions, serverJvm,
        dir.resolve("server.log"))) {
      report.progress("server %s (log %s)", server.url(), dir.resolve("server.log"));
      writeKubeconfig(kubeconfig, server.url());
      try (ChildJvm controllers = ChildJvm.start("controllers", jvmOptions(clientHeap, controllersGc), CONTROLLERS_MAIN,
              List.of("--kubeconfig", kubeconfig.toString()), dir.resolve("controllers.log"));
          ChildJvm fleet = ChildJvm.start("node-fleet", jvmOptions(clientHeap, fleetGc), NodeFleet.class.getName(),
              List.of(kubeconfig.toString(), Integer.toString(nodes), Integer.toString(maxPods),
                  Long.toString(containerStartMillis)), dir.resolve("nodes.log"));
          KubeClient client = KubeClient.create(Config.forUrl(server.url()))) {
        awaitLine(controllers, "running controllers");
        awaitLine(fleet, NodeFleet.READY);
        awaitReadyNodes(client);
        report.progress("%d nodes Ready; controllers running", nodes);
        client.dynamic(ResourceType.NAMESPACES).create(DynamicObject.parse(
            "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + NAMESPACE + "\"}}"));
        Processes processes = new Processes(List.of(
            new Processes.Member("API server", server.pid(), serverGc),
            new Processes.Member("controllers", controllers.pid(), controllersGc),
            new Processes.Member("node fleet", fleet.pid(), fleetGc)));
        ServerRequests requests = new ServerRequests(server.url());
        try (ClusterProgress progress = new ClusterProgress(client, NAMESPACE)) {
          progress.start(START_TIMEOUT);
          ResourceClient<DynamicObject> deploys = client.dynamic(ResourceType.DEPLOYMENTS);

          Phase create = new Phase("create", processes, requests, progress);
          for (int i = 0; i < deployments; i++) {
            deploys.create(DynamicObject.parse(deployment(i, "nginx:1.0")));
          }
          create.await("every pod created", s -> s.pods() - s.terminating() >= pods);
          create.await("every pod bound", s -> s.bound() >= pods);
          create.await("every pod Running and Ready", s -> s.runningWithImage() >= pods);
          phases.add(create.end());

          Phase rollout = new Phase("rollout", processes, requests, progress).image("nginx:2.0");
          String patch = "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"web\",\"image\":\"nginx:2.0\"}]}}}}";
          for (int i = 0; i < deployments; i++) {
            deploys.mergePatch(NAMESPACE, name(i), patch);
          }
          rollout.await("every Deployment rolled out", s -> s.deploymentsComplete() >= deployments);
          rollout.await("every pod Running the new image", s -> s.runningWithImage() >= pods);
          phases.add(rollout.end());
          if (soakMinutes > 0) {
            soaked = soak(server, serverGc, dir.resolve("server.log"), client, deploys, progress, processes, requests,
                phases);
          }
        } catch (PhaseTimeout e) {
          phases.add(e.phase);
          report.note("**Did not finish**: " + e.getMessage());
        }
        for (int i = 0; i < 3; i++) {
          liveHeap[i] = processes.liveHeapMiB(i);
        }
      } catch (RuntimeException | IOException e) {
        System.err.println("demo-scale failed: " + e);
        System.err.println("server log tail:\n" + server.logTail(30));
        throw e;
      }
    }
    report(phases, liveHeap);
    output.print(report, machine);
    if (keepLogs) {
      System.err.println("logs kept in " + dir);
    } else {
      Format.deleteRecursively(dir);
    }
    return phases.stream().allMatch(p -> p.finished) && soaked ? 0 : 1;
  }

  /** The soak ({@link Soak}), measured as one more phase; true when it finished and passed its checks. */
  private boolean soak(ServerJvm server, GcLog serverGc, Path serverLog, KubeClient client,
      ResourceClient<DynamicObject> deploys, ClusterProgress progress, Processes processes, ServerRequests requests,
      List<Phase> phases) throws IOException, InterruptedException {
    Phase phase = new Phase("soak", processes, requests, progress);
    Soak soak = new Soak(soakMinutes, server.pid(), serverGc, serverLog, phaseTimeoutSeconds, report, () -> {
      try {
        return processes.liveHeapMiB(0);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return -1;
      }
    });
    int pods = deployments * replicas;
    boolean finished = soak.run(new Soak.Rounds() {
      @Override
      public void setImage(String image) {
        phase.image(image);
        String patch = "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"web\",\"image\":\""
            + image + "\"}]}}}}";
        for (int i = 0; i < deployments; i++) {
          deploys.mergePatch(NAMESPACE, name(i), patch);
        }
      }

      @Override
      public boolean runs(String image) {
        ClusterProgress.Snapshot s = progress.snapshot(image);
        return s.deploymentsComplete() >= deployments && s.runningWithImage() >= pods;
      }
    });
    phases.add(phase.end());
    Map<String, Map<String, String>> differences = new LinkedHashMap<>();
    differences.put("pods", Soak.differences(client, ResourceType.PODS, NAMESPACE, progress::podVersions));
    differences.put("deployments",
        Soak.differences(client, ResourceType.DEPLOYMENTS, NAMESPACE, progress::deploymentVersions));
    return soak.report(differences) && finished;
  }

  private void report(List<Phase> phases, long[] liveHeap) {
    ResultTable times = report.table(new ResultTable(
        "Phases: seconds from the benchmark's first write to each milestone seen by its informers",
        "phase", "milestone", "seconds"));
    ResultTable load = report.table(new ResultTable(
        "Load per phase: Events recorded (aggregated counts included), API requests of the whole system "
            + "(the server's apiserver_request_total) and watch events it delivered (apiserver_watch_events_total)",
        "phase", "seconds", "Events", "Events/s", "writes", "writes/s", "watch events delivered", "delivered/s",
        "requests by verb"));
    ResultTable cpu = report.table(new ResultTable(
        "CPU per process over each phase: seconds of CPU, and percent of one core",
        "phase", "API server", "controllers", "node fleet", "benchmark (informers)"));
    ResultTable heap = report.table(new ResultTable(
        "Heap per process: after the last GC of each phase, and live at the end (after a full GC), MiB; "
            + "GC pauses per phase as count / total ms / longest ms",
        "phase", "API server", "controllers", "node fleet", "API server GC", "controllers GC", "node fleet GC"));
    for (Phase p : phases) {
      p.milestones.forEach((what, nanos) -> times.row(p.name, what, String.format("%.1f", nanos / 1e9)));
      double seconds = p.seconds();
      long events = p.last.eventCount() - p.first.eventCount();
      long writes = ServerRequests.writes(p.requests);
      Map<String, Long> verbs = new TreeMap<>(p.requests);
      long delivered = verbs.getOrDefault(ServerRequests.WATCH_EVENTS, 0L);
      verbs.remove(ServerRequests.WATCH_EVENTS);
      verbs.values().removeIf(n -> n == 0);
      load.row(p.name, String.format("%.1f", seconds), count(events), String.format("%.0f", events / seconds),
          count(writes), String.format("%.0f", writes / seconds), count(delivered),
          String.format("%.0f", delivered / seconds), verbs.toString());
      String[] cells = new String[4];
      for (int i = 0; i < 3; i++) {
        double s = Processes.cpuSeconds(p.from, p.to, i);
        cells[i] = s < 0 ? "unknown" : String.format("%.1f s (%.0f%%)", s, 100 * s / seconds);
      }
      cells[3] = String.format("%.1f s (%.0f%%)", p.selfCpuSeconds, 100 * p.selfCpuSeconds / seconds);
      cpu.row(p.name, cells[0], cells[1], cells[2], cells[3]);
      GcLog.Pauses[] gc = new GcLog.Pauses[3];
      for (int i = 0; i < 3; i++) {
        gc[i] = p.processes.pauses(p.from, p.to, i);
      }
      heap.row(p.name, mib(gc[0].heapAfterGcMiB()), mib(gc[1].heapAfterGcMiB()), mib(gc[2].heapAfterGcMiB()),
          gc[0].gcCell(), gc[1].gcCell(), gc[2].gcCell());
    }
    heap.row("live at end", mib(liveHeap[0]), mib(liveHeap[1]), mib(liveHeap[2]), "", "", "");
  }

  private static String mib(long m) {
    return m < 0 ? "unknown" : Long.toString(m);
  }

  /** Thrown when a phase misses a milestone within {@code --phase-timeout}; carries what it measured. */
  private static final class PhaseTimeout extends Exception {
    final Phase phase;

    PhaseTimeout(Phase phase, String message) {
      super(message);
      this.phase = phase;
    }
  }

  /** One measured phase: its milestones and what every process used meanwhile. */
  private final class Phase {
    final String name;
    final Processes processes;
    final ServerRequests requestReader;
    final ClusterProgress progress;
    final Processes.Sample from;
    final CpuMonitor cpuStart;
    final Map<String, Long> requestsBefore;
    final long selfCpuStart;
    final ClusterProgress.Snapshot first;
    final Map<String, Long> milestones = new LinkedHashMap<>();
    String image = "nginx:1.0";
    Processes.Sample to;
    ClusterProgress.Snapshot last;
    Map<String, Long> requests = Map.of();
    double selfCpuSeconds;
    boolean finished;

    Phase(String name, Processes processes, ServerRequests requests, ClusterProgress progress)
        throws IOException, InterruptedException {
      this.name = name;
      this.processes = processes;
      this.requestReader = requests;
      this.progress = progress;
      this.requestsBefore = requests.read();
      this.first = progress.snapshot(image);
      this.cpuStart = CpuMonitor.now();
      this.selfCpuStart = Report.processCpuNanos();
      this.from = processes.sample();
      report.progress("phase %s", name);
    }

    Phase image(String image) {
      this.image = image;
      return this;
    }

    double seconds() {
      return (to.nanos() - from.nanos()) / 1e9;
    }

    long childTicks() {
      long sum = 0;
      for (int i = 0; i < from.ticks().length; i++) {
        sum += Math.max(0, to.ticks()[i] - from.ticks()[i]);
      }
      return sum;
    }

    /** Waits until {@code goal} holds, recording when; polls the informers' stores every 100 ms. */
    void await(String milestone, Predicate<ClusterProgress.Snapshot> goal)
        throws PhaseTimeout, InterruptedException, IOException {
      long deadline = from.nanos() + TimeUnit.SECONDS.toNanos(phaseTimeoutSeconds);
      long nextProgress = System.nanoTime() + PROGRESS_EVERY_NANOS;
      while (true) {
        ClusterProgress.Snapshot s = progress.snapshot(image);
        long now = System.nanoTime();
        if (goal.test(s)) {
          milestones.put(milestone, now - from.nanos());
          report.progress("  %s after %.1f s", milestone, (now - from.nanos()) / 1e9);
          return;
        }
        if (now > deadline) {
          end();
          finished = false;
          throw new PhaseTimeout(this, String.format("phase %s: not %s within %d s (pods %d, bound %d, running %s "
              + "%d, terminating %d, deployments rolled out %d)", name, milestone, phaseTimeoutSeconds, s.pods(),
              s.bound(), image, s.runningWithImage(), s.terminating(), s.deploymentsComplete()));
        }
        if (now > nextProgress) {
          nextProgress = now + PROGRESS_EVERY_NANOS;
          report.progress("  %.0f s: pods %d, bound %d, running %s %d, terminating %d, deployments rolled out %d, "
              + "events %d", (now - from.nanos()) / 1e9, s.pods(), s.bound(), image, s.runningWithImage(),
              s.terminating(), s.deploymentsComplete(), s.eventCount());
        }
        Thread.sleep(100);
      }
    }

    Phase end() throws IOException, InterruptedException {
      to = processes.sample();
      report.phase(name, cpuStart, childTicks());
      selfCpuSeconds = (Report.processCpuNanos() - selfCpuStart) / 1e9;
      last = progress.snapshot(image);
      requests = ServerRequests.since(requestsBefore, requestReader.read());
      finished = true;
      return this;
    }
  }

  private String deployment(int i, String image) {
    return """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%s","namespace":"%s"},
         "spec":{"replicas":%d,"selector":{"matchLabels":{"app":"%s"}},
          "template":{"metadata":{"labels":{"app":"%s"}},
           "spec":{"terminationGracePeriodSeconds":%d,"containers":[{"name":"web","image":"%s"}]}}}}
        """.formatted(name(i), NAMESPACE, replicas, name(i), name(i), graceSeconds, image);
  }

  private static String name(int i) {
    return String.format("web-%03d", i);
  }

  private static List<String> jvmOptions(String heap, GcLog gc) {
    List<String> options = new ArrayList<>(ChildJvm.standardOptions(heap));
    options.addAll(gc.jvmOptions());
    return options;
  }

  private void awaitLine(ChildJvm child, String prefix) throws InterruptedException {
    if (child.awaitLine(l -> l.startsWith(prefix), START_TIMEOUT.toSeconds()).isEmpty()) {
      throw new IllegalStateException(child + " did not print \"" + prefix + "\" within " + START_TIMEOUT
          + "; its log:\n" + child.logTail(40));
    }
  }

  private void awaitReadyNodes(KubeClient client) throws InterruptedException {
    ResourceClient<DynamicObject> nodeClient = client.dynamic(ResourceType.NODES);
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (true) {
      long ready = nodeClient.list("", ListOptions.builder().build()).items().stream()
          .filter(ClusterProgress::isReady)
          .count();
      if (ready >= nodes) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("only " + ready + " of " + nodes + " nodes Ready after " + START_TIMEOUT);
      }
      Thread.sleep(200);
    }
  }

  /** A kubeconfig for the server's plain-HTTP listener, where every request acts as the admin. */
  private static void writeKubeconfig(Path file, String url) throws IOException {
    Files.writeString(file, """
        apiVersion: v1
        kind: Config
        clusters:
        - name: bench
          cluster:
            server: %s
        users:
        - name: bench
          user: {}
        contexts:
        - name: bench
          context:
            cluster: bench
            user: bench
        current-context: bench
        """.formatted(url));
  }
}
