package io.listwatch.bench.server;

import static io.listwatch.bench.Format.count;
import static io.listwatch.bench.Format.ms;

import io.listwatch.api.ListOptions;
import io.listwatch.bench.BenchmarkCommand;
import io.listwatch.bench.ChildJvm;
import io.listwatch.bench.CpuMonitor;
import io.listwatch.bench.DataDirectory;
import io.listwatch.bench.Format;
import io.listwatch.bench.JfrProfile;
import io.listwatch.bench.JvmMemory;
import io.listwatch.bench.JvmThreadCpu;
import io.listwatch.bench.MachineInfo;
import io.listwatch.bench.Report;
import io.listwatch.bench.ReportOutput;
import io.listwatch.bench.ResultTable;
import io.listwatch.bench.ServerJvm;
import io.listwatch.bench.Spread;
import io.listwatch.bench.StoreDirOption;
import io.listwatch.bench.TimedReads;
import io.listwatch.apiserver.protobuf.Envelope;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ObjectList;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.internal.Json;
import io.listwatch.client.internal.ListDecoder;
import io.listwatch.client.internal.RecordingInputStream;
import com.fasterxml.jackson.core.JsonParser;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.Set;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bench server-list}: full and paged lists of the API server over loopback HTTP/1.1,
 * and the memory the server holds per cached object.
 *
 * <p>The server ({@link ListServer}: an {@code ApiServer} with its defaults, embedded store in
 * a new temporary directory) runs in a JVM of its own ({@link ServerJvm}, {@code --server-heap},
 * G1, native memory tracking on). Pods ({@link Pods}) are created through HTTP POST with many
 * requests in flight, in namespace {@code default}, up to each of {@code --sizes} in turn.
 * At each size:
 * <ol>
 *   <li>Memory: the server's heap used after full GCs minus the same before the first pod,
 *       divided by the summed length of the cached pods' JSON (both reported by the server on
 *       request). The heap includes everything the server keeps for the pods: the cached
 *       objects, their keys, labels and fields, the sorted map, and the event history (one
 *       event per create). Beside it the server's RSS and native memory (NMT), and what grew,
 *       by class ({@code jcmd GC.class_histogram} after minus before).
 *   <li>Lists: {@code GET /api/v1/pods} (no limit) read by our client ({@code KubeClient},
 *       the body streamed into {@code DynamicObject}s), the same read raw and then parsed into a
 *       Jackson tree (receive and parse timed apart, and the server's CPU per read), in kube's
 *       protobuf into {@code V1.PodList}, and in pages of {@code --page-size} following
 *       {@code continue}; each timed from sending the first request to having parsed the last
 *       body. One untimed read of each kind first; then {@code --repeats} timed reads; the
 *       items of each are counted to check it.
 * </ol>
 *
 * <p>Confined to the thread that runs the command; the loaders run on virtual threads.
 */
@Command(
    name = "server-list",
    description = "Full and paged lists of the API server, and its memory per cached object.")
public final class ListBenchmark extends BenchmarkCommand {

  private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";

  @Mixin
  private StoreDirOption dataDir;

  /** What our client's list read does, in priority order (the first on a sample's stack counts it). */
  private static final List<JfrProfile.Kind> CLIENT_WORK = List.of(
      JfrProfile.Kind.of("copying each item's bytes", "io.listwatch.client.internal.RecordingInputStream"),
      JfrProfile.Kind.of("skipping values kept as bytes", "io.listwatch.client.internal.SkippingJsonParser#skipValue"),
      JfrProfile.Kind.of("decoding JSON into DynamicObjects", "io.listwatch.client", "com.fasterxml.jackson"),
      JfrProfile.Kind.of("receiving (HTTP client)", "jdk.internal.net.http", "sun.nio.ch", "java.net.http"));
  private static final int PROFILE_PERIOD_MS = 2;

  private ResultTable profile;

  @Option(names = "--sizes", split = ",", defaultValue = "10000,100000", paramLabel = "N",
      description = "Pod counts measured, increasing (default: ${DEFAULT-VALUE}).")
  private List<Integer> sizes;

  @Mixin
  private PodLoad load;

  @Option(names = "--repeats", defaultValue = "5", paramLabel = "N",
      description = "Timed reads of each kind, after one untimed (default: ${DEFAULT-VALUE}).")
  private int repeats;

  @Option(names = "--page-size", defaultValue = "500", paramLabel = "N",
      description = "limit of the paged reads (default: ${DEFAULT-VALUE}).")
  private int pageSize;

  @Option(names = "--target-ms", defaultValue = "200", paramLabel = "MS",
      description = "Target for a full list of 100,000 pods parsed by our client, median "
          + "(default: ${DEFAULT-VALUE}).")
  private double targetMs;

  @Option(names = "--target-heap-ratio", defaultValue = "1.5", paramLabel = "X",
      description = "Target heap per cached object over its JSON size at 100,000 pods "
          + "(default: ${DEFAULT-VALUE}).")
  private double targetHeapRatio;

  @Mixin
  private ReportOutput output;

  @Option(names = "--server-heap", defaultValue = "4g", paramLabel = "SIZE",
      description = "The server JVM's -Xmx (default: ${DEFAULT-VALUE}).")
  private String serverHeap;

  /** Classes shown in the heap breakdown, the most grown first. */
  private static final int CLASSES_SHOWN = 12;

  private ServerJvm server;
  private InetSocketAddress address;
  private KubeClient client;
  private KubeClient client11;

  @Override
  public Integer call() throws Exception {
    validate();
    DataDirectory data = dataDir.open("listwatch-bench-list-");
    Path dir = data.path();
    MachineInfo machine = MachineInfo.describe(dir);
    long started = System.nanoTime();
    load.addTable(report, " (virtual threads, one keep-alive connection each)");
    ResultTable memory = report.table(new ResultTable(
        "Server memory per cached pod: heap used after full GC minus the same before the first pod, over the "
            + "cached JSON; the server process's RSS and native memory (NMT, committed) beside it",
        "pods", "JSON bytes per pod", "heap growth MiB", "heap bytes per pod", "heap / JSON",
        "approximateBytes() / JSON", "RSS MiB", "NMT committed MiB", "largest NMT categories (MiB)"));
    ResultTable classes = report.table(new ResultTable(
        "What the heap holds per pod: GC.class_histogram of the server after loading minus before the first pod, "
            + "the classes that grew most", "pods", "class", "instances per pod", "bytes per pod", "share"));
    ResultTable lists = report.table(new ResultTable(String.format(
        "Lists over HTTP: GET /api/v1/pods, full and limit=%d with continue; %d timed reads of each kind "
            + "after 1 untimed", pageSize, repeats),
        "pods", "read", "pages", "bytes", "ms per read (median)", "min ms", "max ms", "MB/s (median)",
        "items/s (median)"));
    ResultTable phases = report.table(new ResultTable(
        "Where a full JSON list's time goes (medians of the timed reads): the server's CPU per read (/proc); the "
            + "raw read, request to last byte, then its Jackson tree; our client's whole read, and its decode of the "
            + "same body from memory (ListDecoder into DynamicObjects, no transfer)",
        "pods", "server CPU ms per read", "raw receive ms", "tree parse ms", "tree parse share", "our client ms",
        "our decode ms (from memory)", "decode share"));
    profile = report.table(new ResultTable(String.format(Locale.ROOT, "Where our client's CPU goes in its timed "
        + "full lists (JFR of the benchmark's JVM, execution and CPU-time samples every %d ms, the first kind of work "
        + "on a sample's stack counting it); the JVM's GC and JIT threads' share of its CPU from /proc (JFR does not "
        + "sample them)", PROFILE_PERIOD_MS), profileColumns()));
    List<String> jvm = new ArrayList<>(ChildJvm.standardOptions(serverHeap));
    jvm.add(JvmMemory.NMT);
    try (ServerJvm child = ServerJvm.start(ListServer.class.getName(), List.of(dir.resolve("data").toString()),
        jvm, Set.of("http"), dir.resolve("server.log"))) {
      server = child;
      address = server.address();
      client = KubeClient.create(Config.builder(server.url()).requestTimeout(Duration.ofMinutes(5)).build());
      client11 = KubeClient.create(Config.builder(server.url()).requestTimeout(Duration.ofMinutes(5)).http2(false)
          .build());
      warmUp();
      long baseline = cachedHeap()[0];
      Map<String, JvmMemory.ClassCount> histogramBefore = JvmMemory.histogram(server.pid());
      for (int size : sizes) {
        load.upTo(size, address, report, "");
        measureMemory(size, baseline, histogramBefore, memory, classes);
        measureLists(size, lists, phases);
      }
    } finally {
      if (http != null) {
        http.close();
      }
      if (client != null) {
        client.close();
      }
      if (client11 != null) {
        client11.close();
      }
      data.close();
    }
    double fullMs100k = report.figures().getOrDefault("list.pods100000.parsedMs.median", -1.0);
    if (fullMs100k >= 0) {
      report.verdict(String.format("target: full list of 100,000 pods parsed by our client in <= %s ms: %s "
          + "(median %.1f ms)", Format.number(targetMs), fullMs100k <= targetMs ? "MET" : "MISSED", fullMs100k));
    }
    double ratio100k = report.figures().getOrDefault("list.pods100000.heapRatio", -1.0);
    if (ratio100k >= 0) {
      report.verdict(String.format("target: heap per cached object <= %sx its JSON at 100,000 pods: %s (%.2fx)",
          Format.number(targetHeapRatio), ratio100k <= targetHeapRatio ? "MET" : "MISSED", ratio100k));
    }
    report.progress("done in %.0f s", (System.nanoTime() - started) / 1e9);
    report.parameters.put("server", "ListServer (ApiServer, builder defaults but no garbage collector, as "
        + "kube-apiserver alone; CacherConfig.DEFAULTS) in a JVM of "
        + "its own (" + String.join(" ", jvm) + " " + ServerJvm.NO_LEAK_DETECTION + "), embedded RocksDB store in "
        + "a new temp dir, plain HTTP/1.1 on 127.0.0.1; it reports its heap after full GCs and its cached pods' "
        + "JSON on request (stdin); RSS from /proc/<pid>/status, native memory and the class histogram from jcmd");
    report.parameters.put("pods", String.format("up to %s in namespace default, created through HTTP (%d in "
        + "flight) from bodies of ~%,d bytes (--object-bytes); as stored, with the server's managedFields, uid and "
        + "times, each is the memory table's JSON bytes per pod; unique pod IPs, %d pods a node", sizes,
        load.connections(), load.objectBytes(), Pods.PODS_PER_NODE));
    report.parameters.put("reads", String.format("each body parsed within the timed read: our client "
        + "(KubeClient, JDK HttpClient, ListDecoder streaming the body into DynamicObjects: each item's JSON bytes "
        + "and parsed metadata); a raw HTTP/1.1 client on one keep-alive connection reading the whole body, then a "
        + "Jackson tree (JSON) or V1.PodList (protobuf); %d timed reads per kind after 1 untimed; pages of %d",
        repeats, pageSize));
    report.parameters.put("JVM", String.join(" ",
        java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()));
    output.print(report, machine);
    return 0;
  }

  private void measureMemory(int size, long baseline, Map<String, JvmMemory.ClassCount> before,
      ResultTable memory, ResultTable classes) throws Exception {
    long[] heap = cachedHeap();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (heap[1] != size && System.nanoTime() < deadline) {
      Thread.sleep(10); // the watch cache applies the last creates' events a little after they are acknowledged
      heap = cachedHeap();
    }
    check(heap[1] == size, "the cache holds " + heap[1] + " pods, expected " + size);
    long growth = heap[0] - baseline;
    double jsonPerPod = heap[2] / (double) size;
    double heapPerPod = growth / (double) size;
    double ratio = growth / (double) heap[2];
    long rss = JvmMemory.rssBytes(server.pid());
    JvmMemory.NativeMemory nmt = JvmMemory.nativeMemory(server.pid());
    memory.row(count(size), count(jsonPerPod), Report.mib(growth), count(heapPerPod), String.format("%.2f", ratio),
        String.format("%.2f", heap[3] / (double) heap[2]), Report.mib(rss), Report.mib(nmt.committedBytes()),
        nmt.largest(4));
    String key = "list.pods" + size + ".";
    report.figure(key + "heapPerObjectBytes", heapPerPod);
    report.figure(key + "jsonBytesPerObject", jsonPerPod);
    report.figure(key + "heapRatio", ratio);
    report.figure(key + "rssMiB", rss / 1048576.0);
    report.figure(key + "nmtCommittedMiB", nmt.committedBytes() / 1048576.0);

    Map<String, JvmMemory.ClassCount> after = JvmMemory.histogram(server.pid());
    List<Map.Entry<String, long[]>> grown = new ArrayList<>();
    for (Map.Entry<String, JvmMemory.ClassCount> e : after.entrySet()) {
      JvmMemory.ClassCount b = before.getOrDefault(e.getKey(), new JvmMemory.ClassCount(0, 0));
      grown.add(Map.entry(e.getKey(),
          new long[] {e.getValue().instances() - b.instances(), e.getValue().bytes() - b.bytes()}));
    }
    grown.sort((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]));
    long total = grown.stream().mapToLong(e -> e.getValue()[1]).sum();
    long shown = 0;
    for (Map.Entry<String, long[]> e : grown.subList(0, Math.min(CLASSES_SHOWN, grown.size()))) {
      shown += e.getValue()[1];
      classes.row(count(size), e.getKey(), String.format("%.2f", e.getValue()[0] / (double) size),
          count(e.getValue()[1] / (double) size), String.format("%.0f%%", 100.0 * e.getValue()[1] / total));
    }
    classes.row(count(size), "(all others)", "", count((total - shown) / (double) size),
        String.format("%.0f%%", 100.0 * (total - shown) / total));
    classes.row(count(size), "(total)", "", count(total / (double) size), "100%");
  }

  private void measureLists(int size, ResultTable lists, ResultTable phases) throws Exception {
    String key = "list.pods" + size + ".";
    // raw reads, the body then parsed into a Jackson tree: receive and parse timed apart
    report.progress("%,d pods: full lists, raw + tree", size);
    CpuMonitor cpu = CpuMonitor.now();
    long ticks = server.cpuTicks();
    List<long[]> split = new ArrayList<>();
    TimedReads<ParsedList> full = TimedReads.run(repeats, untimed -> {
      long t0 = System.nanoTime();
      RawHttp.Response r = get("/api/v1/pods", Integer.MAX_VALUE);
      long t1 = System.nanoTime();
      ParsedList list = ParsedList.json(r);
      if (!untimed) {
        split.add(new long[] {t1 - t0, System.nanoTime() - t1});
      }
      return list;
    }, (list, nanos) -> check(list.items() == size, "full list returned " + list.items() + " items, expected " + size));
    double serverCpuMs = (server.cpuTicks() - ticks) * 10.0 / (repeats + 1);
    check(full.last().items() == size, "full list returned " + full.last().items() + " items, expected " + size);
    report.phase(count(size) + " pods: full lists, raw + Jackson tree", cpu);
    row(lists, size, "full (no limit), raw read + Jackson tree", 1, full.last().bytes(), full);
    figures(key + "treeMs", full);

    // our client: the body streamed through ListDecoder into DynamicObjects (JSON bytes and parsed
    // metadata); as configured by default (HTTP/2 preferred: over plain HTTP an h2c upgrade), and
    // with HTTP/1.1 only
    JvmThreadCpu bench0 = JvmThreadCpu.of(ProcessHandle.current().pid());
    JfrProfile.Profiled<TimedReads<ObjectList<DynamicObject>>> profiled = JfrProfile.ofThisJvm(CLIENT_WORK,
        PROFILE_PERIOD_MS, () -> readByClient(client, size, "our client"));
    TimedReads<ObjectList<DynamicObject>> ours = profiled.result();
    clientProfile(size, profiled.counts(), JvmThreadCpu.of(ProcessHandle.current().pid()).since(bench0));
    row(lists, size, "full (no limit), our client, DynamicObject", 1, full.last().bytes(), ours);
    figures(key + "parsedMs", ours);
    TimedReads<ObjectList<DynamicObject>> ours11 = readByClient(client11, size, "our client, HTTP/1.1");
    row(lists, size, "full (no limit), our client with http2(false), DynamicObject", 1, full.last().bytes(),
        ours11);
    figures(key + "parsedHttp11Ms", ours11);

    // where the time goes: the server's CPU, the raw receive, the tree parse, and our client's
    // decode of the same body from memory (no transfer), beside our client's whole read
    byte[] body = get("/api/v1/pods", Integer.MAX_VALUE).body();
    TimedReads<ObjectList<DynamicObject>> decode = TimedReads.run(repeats, untimed -> {
      try (JsonParser p = Json.FACTORY.createParser(new RecordingInputStream(new ByteArrayInputStream(body)))) {
        return ListDecoder.read(p, DynamicObject.CODEC);
      }
    });
    check(decode.last().items().size() == size, "decoded " + decode.last().items().size() + " items");
    double receiveMs = median(split, 0) / 1e6;
    double parseMs = median(split, 1) / 1e6;
    double decodeMs = decode.median() / 1e6;
    double oursMs = ours.median() / 1e6;
    phases.row(count(size), String.format("%.0f", serverCpuMs), String.format("%.1f", receiveMs),
        String.format("%.1f", parseMs), String.format("%.0f%%", 100 * parseMs / (receiveMs + parseMs)),
        String.format("%.1f", oursMs), String.format("%.1f", decodeMs),
        String.format("%.0f%%", 100 * decodeMs / oursMs));
    report.figure(key + "receiveMs.median", receiveMs);
    report.figure(key + "treeParseMs.median", parseMs);
    report.figure(key + "decodeMs.median", decodeMs);
    report.figure(key + "serverCpuMsPerRead", serverCpuMs);

    // the same full list in kube's protobuf: the first read converts the pods not yet converted
    // (each pod's protobuf form is then kept beside its JSON in the watch cache), later ones
    // assemble the kept forms
    report.progress("%,d pods: full lists in protobuf", size);
    cpu = CpuMonitor.now();
    TimedReads<ParsedList> proto = TimedReads.run(repeats,
        untimed -> ParsedList.protobuf(get("/api/v1/pods", PROTOBUF, Integer.MAX_VALUE)), (list, nanos) -> {
          check(list.items() == size, "protobuf list returned " + list.items() + " items, expected " + size);
          row(lists, size, "full, protobuf, first read (converts), parsed", 1, list.bytes(),
              new TimedReads<>(list, new long[] {nanos}));
        });
    check(proto.last().items() == size, "protobuf list returned " + proto.last().items() + " items, expected " + size);
    report.phase(count(size) + " pods: full lists in protobuf", cpu);
    row(lists, size, "full, protobuf (forms kept), parsed", 1, proto.last().bytes(), proto);
    figures(key + "protobufMs", proto);

    report.progress("%,d pods: paged lists", size);
    cpu = CpuMonitor.now();
    TimedReads<long[]> paged = TimedReads.run(repeats, untimed -> readPaged("/api/v1/pods"),
        (stats, nanos) -> check(stats[2] == size, "paged list returned " + stats[2] + " items, expected " + size));
    check(paged.last()[2] == size, "paged list returned " + paged.last()[2] + " items, expected " + size);
    report.phase(count(size) + " pods: paged lists", cpu);
    row(lists, size, "paged, limit " + pageSize + ", parsed", (int) paged.last()[0], paged.last()[1], paged);
    figures(key + "pagedMs", paged);
  }

  /**
   * A row of the profile table: where our client's CPU went during its timed full lists of
   * {@code size} pods ({@code counts}, JFR of this JVM), and this JVM's JIT and GC threads'
   * share of its CPU meanwhile ({@code threads}, from /proc: JFR does not sample them).
   */
  private void clientProfile(int size, JfrProfile.Counts counts, JvmThreadCpu threads) {
    List<Object> cells = new ArrayList<>(List.of(count(size), count(counts.samples())));
    for (JfrProfile.Kind k : CLIENT_WORK) {
      cells.add(String.format(Locale.ROOT, "%.0f%%", counts.percent(k.name())));
      report.figure("list.pods" + size + ".profile." + FanOutFigures.lowerCamel(k.name()) + "Pct", counts.percent(k.name()));
    }
    cells.add(String.format(Locale.ROOT, "%.0f%%", counts.percent(JfrProfile.OTHER)));
    long all = threads.jitTicks() + threads.gcTicks() + threads.otherTicks();
    cells.add(all <= 0 ? "unknown" : String.format(Locale.ROOT, "%.0f%% / %.0f%%", 100.0 * threads.gcTicks() / all,
        100.0 * threads.jitTicks() / all));
    cells.add(JfrProfile.Counts.shares(counts.topThreads(3), counts.samples()));
    cells.add(JfrProfile.Counts.shares(counts.topSelf(4), counts.samples()));
    profile.row(cells.toArray());
  }

  private static String[] profileColumns() {
    List<String> c = new ArrayList<>(List.of("pods", "samples"));
    CLIENT_WORK.forEach(k -> c.add(k.name()));
    c.addAll(List.of(JfrProfile.OTHER, "GC / JIT threads' share of CPU", "top threads", "top methods (self)"));
    return c.toArray(String[]::new);
  }

  /** Full lists of the pods read by {@code reader}, checked, recorded as the phase "N pods: full lists, {@code name}". */
  private TimedReads<ObjectList<DynamicObject>> readByClient(KubeClient reader, int size, String name)
      throws Exception {
    report.progress("%,d pods: full lists, %s", size, name);
    CpuMonitor cpu = CpuMonitor.now();
    ResourceClient<DynamicObject> pods = reader.dynamic(ResourceType.PODS);
    TimedReads<ObjectList<DynamicObject>> reads = TimedReads.run(repeats, untimed -> pods.list("",
        ListOptions.builder().build()), (list, nanos) -> check(list.items().size() == size,
            name + ": full list returned " + list.items().size() + " items, expected " + size));
    check(reads.last().items().size() == size, name + ": full list returned " + reads.last().items().size());
    report.phase(count(size) + " pods: full lists, " + name, cpu);
    return reads;
  }

  /** Records {@code prefix.median}, {@code .min} and {@code .max} in milliseconds. */
  private void figures(String prefix, TimedReads<?> reads) {
    report.figure(prefix + ".median", reads.median() / 1e6);
    report.figure(prefix + ".min", reads.min() / 1e6);
    report.figure(prefix + ".max", reads.max() / 1e6);
  }

  private static double median(List<long[]> rows, int column) {
    return Spread.of(rows.stream().mapToDouble(r -> r[column]).toArray()).median();
  }

  /** {heap used after full GC, cached pods, their JSON bytes, their approximateBytes()}, as the server reports them. */
  private long[] cachedHeap() throws IOException, InterruptedException {
    String[] answer = server.ask(ListServer.HEAP, l -> l.startsWith(ListServer.HEAP + " "), 300).split(" ");
    return new long[] {Long.parseLong(answer[1]), Long.parseLong(answer[2]), Long.parseLong(answer[3]),
        Long.parseLong(answer[4])};
  }

  /**
   * Runs the create and list paths on 2,000 ConfigMaps of the same size before the heap
   * baseline, so that JIT and lazily built server state are not charged to the pods. They
   * stay (in their own watch cache), so the baseline includes them.
   */
  private void warmUp() throws Exception {
    report.progress("warm-up");
    CpuMonitor cpu = CpuMonitor.now();
    String data = "x".repeat(Math.max(0, load.objectBytes() - 200));
    Pods.LoadResult r = Pods.createAll(address, "/api/v1/namespaces/" + Pods.NAMESPACE + "/configmaps", 0, 2_000,
        load.connections(), i -> ("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"warmup-" + i
            + "\",\"labels\":{\"app\":\"bench\"}},\"data\":{\"payload\":\"" + data + "\"}}")
            .getBytes(StandardCharsets.UTF_8));
    check(r.errors() == 0, "warm-up creates failed: " + r.firstError());
    get("/api/v1/configmaps", PROTOBUF, 0); // converts each (the protobuf writer's first use)
    for (int i = 0; i < 30; i++) {
      ParsedList.json(get("/api/v1/configmaps", Integer.MAX_VALUE));
      readPaged("/api/v1/configmaps");
    }
    report.phase("warm-up (2,000 ConfigMaps created and listed)", cpu);
  }

  private RawHttp http;

  private RawHttp.Response get(String path, int keep) throws IOException {
    return get(path, "application/json", keep);
  }

  private RawHttp.Response get(String path, String accept, int keep) throws IOException {
    if (http == null) {
      http = new RawHttp(address);
    }
    RawHttp.Response r = http.send("GET", path, accept, null, null, keep);
    check(r.status() == 200, "GET " + path + ": HTTP " + r.status() + " " + r.bodyText());
    return r;
  }

  /** A paged walk, each page parsed: {pages, body bytes, items}. */
  private long[] readPaged(String collection) throws IOException {
    long pages = 0;
    long bytes = 0;
    long items = 0;
    String token = null;
    while (true) {
      String path = collection + "?limit=" + pageSize
          + (token == null ? "" : "&continue=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
      ParsedList page = ParsedList.json(get(path, Integer.MAX_VALUE));
      pages++;
      bytes += page.bytes();
      items += page.items();
      token = page.continueToken();
      if (token.isEmpty()) {
        return new long[] {pages, bytes, items};
      }
    }
  }

  /**
   * A list as its reader parsed it: a JSON list into a tree (what a dynamic client holds), a
   * protobuf one into the official client's {@code V1.PodList} messages.
   *
   * @param items how many items it holds
   * @param bytes the body's length
   * @param continueToken {@code metadata.continue}, "" at the end
   * @param parsed the parsed list, kept so that the parse is not optimized away
   */
  private record ParsedList(int items, long bytes, String continueToken, Object parsed) {

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    static ParsedList json(RawHttp.Response r) throws IOException {
      com.fasterxml.jackson.databind.JsonNode tree = JSON.readTree(r.body());
      return new ParsedList(tree.path("items").size(), r.bodyBytes(),
          tree.path("metadata").path("continue").asText(""), tree);
    }

    static ParsedList protobuf(RawHttp.Response r) throws IOException {
      io.kubernetes.client.proto.V1.PodList list = io.kubernetes.client.proto.V1.PodList.parseFrom(
          Envelope.unwrap(r.body()).raw());
      return new ParsedList(list.getItemsCount(), r.bodyBytes(), list.getMetadata().getContinue(), list);
    }
  }

  /** Adds the row of {@code reads}. */
  private static void row(ResultTable table, int size, String read, int pages, long bytes, TimedReads<?> reads) {
    long median = reads.median();
    table.row(count(size), read, count(pages), count(bytes), ms(median), ms(reads.min()), ms(reads.max()),
        count(bytes / 1e6 / (median / 1e9)), count(size / (median / 1e9)));
  }

  private void validate() {
    List<String> problems = new ArrayList<>();
    checkIncreasingCounts("--sizes", sizes, problems);
    if (repeats < 1 || pageSize < 1 || load.connections() < 1 || load.objectBytes() < 0) {
      problems.add("--repeats, --page-size, --load-connections must be >= 1");
    }
    rejectIfAny(problems);
  }

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new IllegalStateException(message);
    }
  }
}
