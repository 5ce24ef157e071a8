package io.listwatch.bench.server;

import static io.listwatch.bench.Format.count;
import static io.listwatch.bench.Format.ms;

import io.listwatch.api.ListOptions;
import io.listwatch.bench.BenchmarkCommand;
import io.listwatch.bench.CpuMonitor;
import io.listwatch.bench.DataDirectory;
import io.listwatch.bench.Format;
import io.listwatch.bench.MachineInfo;
import io.listwatch.bench.Report;
import io.listwatch.bench.ReportOutput;
import io.listwatch.bench.ResultTable;
import io.listwatch.bench.StoreDirOption;
import io.listwatch.bench.TimedReads;
import io.listwatch.server.ApiServer;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.protobuf.Envelope;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bench server-list}: full and paged lists of the API server, in-process over loopback
 * HTTP/1.1, and the heap the watch cache holds per cached object.
 *
 * <p>The server ({@link ApiServer} with its defaults, embedded store in a new temporary
 * directory) runs in this JVM. Pods of about 1 KB are created through HTTP POST with many
 * requests in flight, in namespace {@code default}, up to each of {@code --sizes} in turn.
 * At each size:
 * <ol>
 *   <li>Memory: heap used after full GCs minus the same before the first pod, divided by the
 *       summed length of the cached objects' JSON ({@link CachedObject#json()}, read through
 *       {@code server.cacher("", "pods").list(...)}). The heap includes everything the server
 *       keeps for the pods: the cached objects, their keys, labels and fields, the sorted map,
 *       and the event history (one event per create).
 *   <li>Lists: {@code GET /api/v1/pods} (no limit) and the same in pages of
 *       {@code --page-size} following {@code continue}, each timed from sending the first
 *       request to having parsed the last body (a Jackson tree; the protobuf list into
 *       {@code V1.PodList}), as a client reads a list. One untimed read of each kind first;
 *       then {@code --repeats} timed reads; the items of each are counted to check it.
 * </ol>
 *
 * <p>Confined to the thread that runs the command; the loaders run on virtual threads.
 */
@Command(
    name = "server-list",
    description = "Full and paged lists of the in-process API server, and heap per cached object.")
public final class ListBenchmark extends BenchmarkCommand {

  private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";

  @Mixin
  private StoreDirOption dataDir;

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

  @Option(names = "--target-ms", defaultValue = "500", paramLabel = "MS",
      description = "Target for a full list of 100,000 pods, median (default: ${DEFAULT-VALUE}).")
  private double targetMs;

  @Option(names = "--target-heap-ratio", defaultValue = "1.5", paramLabel = "X",
      description = "Target heap per cached object over its JSON size at 100,000 pods "
          + "(default: ${DEFAULT-VALUE}).")
  private double targetHeapRatio;

  @Mixin
  private ReportOutput output;

  private Cacher cacher;
  private InetSocketAddress address;

  @Override
  public Integer call() throws Exception {
    validate();
    DataDirectory data = dataDir.open("listwatch-bench-list-");
    Path dir = data.path();
    MachineInfo machine = MachineInfo.describe(dir);
    long started = System.nanoTime();
    load.addTable(report, " (virtual threads, one keep-alive connection each)");
    ResultTable memory = report.table(new ResultTable(
        "Heap per cached object: heap used after full GC minus the same before the first pod, over the "
            + "cached JSON",
        "pods", "JSON bytes (sum)", "JSON bytes per pod", "heap growth MiB", "heap bytes per pod",
        "heap / JSON", "approximateBytes() / JSON"));
    ResultTable lists = report.table(new ResultTable(String.format(
        "Lists over HTTP: GET /api/v1/pods, full and limit=%d with continue; %d timed reads of each kind "
            + "after 1 untimed", pageSize, repeats),
        "pods", "read", "pages", "bytes", "ms per read (median)", "min ms", "max ms", "MB/s (median)",
        "items/s (median)"));
    double[] fullMs100k = {-1};
    double[] ratio100k = {-1};
    try (ApiServer server = ApiServer.builder().dataDir(dir).build().start()) {
      cacher = server.cacher("", "pods");
      address = new InetSocketAddress("127.0.0.1", server.port());
      warmUp();
      long baseline = Report.heapAfterGc();
      for (int size : sizes) {
        load.upTo(size, address, report, "");

        // memory
        long[] json = cachedJson();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (json[0] != size && System.nanoTime() < deadline) {
          Thread.sleep(10); // the watch cache applies the last creates' events a little after they are acknowledged
          json = cachedJson();
        }
        if (json[0] != size) {
          throw new IllegalStateException("the cache holds " + json[0] + " pods, expected " + size);
        }
        long heap = Report.heapAfterGc() - baseline;
        double ratio = heap / (double) json[1];
        memory.row(count(size), count(json[1]), count(json[1] / (double) size), Report.mib(heap),
            count(heap / (double) size), String.format("%.2f", ratio), String.format("%.2f", json[2] / (double) json[1]));
        if (size == 100_000) {
          ratio100k[0] = ratio;
        }

        // lists
        report.progress("%,d pods: full lists", size);
        CpuMonitor cpu = CpuMonitor.now();
        // each read parses the list as a client would (a JSON tree), inside the timed part
        TimedReads<ParsedList> full = TimedReads.run(repeats, untimed -> ParsedList.json(get("/api/v1/pods",
            Integer.MAX_VALUE)), (list, nanos) -> check(list.items() == size,
                "full list returned " + list.items() + " items, expected " + size));
        check(full.last().items() == size, "full list returned " + full.last().items() + " items, expected " + size);
        report.phase(count(size) + " pods: full lists", cpu);
        row(lists, size, "full (no limit), parsed", 1, full.last().bytes(), full);
        if (size == 100_000) {
          fullMs100k[0] = full.median() / 1e6;
        }

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
        long heapWithProto = Report.heapAfterGc() - baseline;
        memory.row(count(size) + " + protobuf forms", count(json[1]), count(json[1] / (double) size),
            Report.mib(heapWithProto), count(heapWithProto / (double) size),
            String.format("%.2f", heapWithProto / (double) json[1]), "");

        report.progress("%,d pods: paged lists", size);
        cpu = CpuMonitor.now();
        TimedReads<long[]> paged = TimedReads.run(repeats, untimed -> readPaged("/api/v1/pods"),
            (stats, nanos) -> check(stats[2] == size, "paged list returned " + stats[2] + " items, expected " + size));
        check(paged.last()[2] == size, "paged list returned " + paged.last()[2] + " items, expected " + size);
        report.phase(count(size) + " pods: paged lists", cpu);
        row(lists, size, "paged, limit " + pageSize + ", parsed", (int) paged.last()[0], paged.last()[1], paged);
      }
    } finally {
      if (http != null) {
        http.close();
      }
      data.close();
    }
    if (fullMs100k[0] >= 0) {
      report.verdict(String.format("target: full list of 100,000 pods in <= %s ms: %s (median %.1f ms)",
          Format.number(targetMs), fullMs100k[0] <= targetMs ? "MET" : "MISSED", fullMs100k[0]));
    }
    if (ratio100k[0] >= 0) {
      report.verdict(String.format("target: heap per cached object <= %sx its JSON at 100,000 pods: %s (%.2fx)",
          Format.number(targetHeapRatio), ratio100k[0] <= targetHeapRatio ? "MET" : "MISSED", ratio100k[0]));
    }
    report.progress("done in %.0f s", (System.nanoTime() - started) / 1e9);
    report.parameters.put("server", "ApiServer in this JVM (builder defaults, CacherConfig.DEFAULTS), embedded "
        + "RocksDB store in a new temp dir, plain HTTP/1.1 on 127.0.0.1");
    report.parameters.put("pods", String.format("up to %s in namespace default, created through HTTP (%d in "
        + "flight) from bodies of ~%,d bytes (--object-bytes); as stored, with the server's managedFields, uid and "
        + "times, each is the memory table's JSON bytes/object; unique pod IPs, 100 pods a node", sizes,
        load.connections(), load.objectBytes()));
    report.parameters.put("reads", String.format("one keep-alive connection, raw HTTP/1.1 client; each body "
        + "parsed within the timed read (JSON: a Jackson tree; protobuf: V1.PodList); %d timed reads per kind after "
        + "1 untimed; pages of %d", repeats, pageSize));
    report.parameters.put("JVM", String.join(" ",
        java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()));
    output.print(report, machine);
    return 0;
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

  /** {count, sum of JSON lengths, sum of approximateBytes()} of the cached pods. */
  private long[] cachedJson() {
    List<CachedObject> items = cacher.list("", ListOptions.parse(Map.of("resourceVersion", List.of("0"))))
        .join().items();
    long json = 0;
    long approx = 0;
    for (CachedObject o : items) {
      json += o.json().length;
      approx += o.approximateBytes();
    }
    return new long[] {items.size(), json, approx};
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
