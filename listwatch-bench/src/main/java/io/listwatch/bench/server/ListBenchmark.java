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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 *       request to reading the last byte. One untimed read of each kind first, whose items
 *       are counted to check the response; then {@code --repeats} timed reads.
 * </ol>
 *
 * <p>Confined to the thread that runs the command; the loaders run on virtual threads.
 */
@Command(
    name = "server-list",
    description = "Full and paged lists of the in-process API server, and heap per cached object.")
public final class ListBenchmark extends BenchmarkCommand {

  private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
  private static final Pattern CONTINUE = Pattern.compile("\"continue\":\"([^\"]+)\"");
  private static final byte[] ITEM_MARKER = Pods.MARKER.getBytes(StandardCharsets.US_ASCII);

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
        TimedReads<RawHttp.Response> full = TimedReads.run(repeats,
            untimed -> get("/api/v1/pods", untimed ? Integer.MAX_VALUE : 0), (resp, nanos) -> {
              int items = countMarkers(resp.body());
              check(items == size, "full list returned " + items + " items, expected " + size);
            });
        report.phase(count(size) + " pods: full lists", cpu);
        row(lists, size, "full (no limit)", 1, full.last().bodyBytes(), full);
        if (size == 100_000) {
          fullMs100k[0] = full.median() / 1e6;
        }

        // the same full list in kube's protobuf: the first read converts the pods not yet converted
        // (each pod's protobuf form is then kept beside its JSON in the watch cache), later ones
        // assemble the kept forms
        report.progress("%,d pods: full lists in protobuf", size);
        cpu = CpuMonitor.now();
        TimedReads<RawHttp.Response> proto = TimedReads.run(repeats,
            untimed -> get("/api/v1/pods", PROTOBUF, untimed ? Integer.MAX_VALUE : 0), (resp, nanos) -> {
              int items = protobufItems(resp.body());
              check(items == size, "protobuf list returned " + items + " items, expected " + size);
              row(lists, size, "full, protobuf, first read (converts)", 1, resp.bodyBytes(),
                  new TimedReads<>(resp, new long[] {nanos}));
            });
        report.phase(count(size) + " pods: full lists in protobuf", cpu);
        row(lists, size, "full, protobuf (forms kept)", 1, proto.last().bodyBytes(), proto);
        long heapWithProto = Report.heapAfterGc() - baseline;
        memory.row(count(size) + " + protobuf forms", count(json[1]), count(json[1] / (double) size),
            Report.mib(heapWithProto), count(heapWithProto / (double) size),
            String.format("%.2f", heapWithProto / (double) json[1]), "");

        report.progress("%,d pods: paged lists", size);
        cpu = CpuMonitor.now();
        TimedReads<long[]> paged = TimedReads.run(repeats, untimed -> readPaged("/api/v1/pods", untimed),
            (stats, nanos) -> check(stats[2] == size, "paged list returned " + stats[2] + " items, expected " + size));
        report.phase(count(size) + " pods: paged lists", cpu);
        row(lists, size, "paged, limit " + pageSize, (int) paged.last()[0], paged.last()[1], paged);
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
    report.parameters.put("pods", String.format("up to %s in namespace default, ~%,d bytes of JSON each, created "
        + "through HTTP (%d in flight)", sizes, load.objectBytes(), load.connections()));
    report.parameters.put("reads", String.format("one keep-alive connection, raw HTTP/1.1 client; %d timed "
        + "reads per kind after 1 untimed; pages of %d", repeats, pageSize));
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
      get("/api/v1/configmaps", 0);
      readPaged("/api/v1/configmaps", false);
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

  /** A paged walk: {pages, body bytes, items (when counted, else 0)}. */
  private long[] readPaged(String collection, boolean countItems) throws IOException {
    long pages = 0;
    long bytes = 0;
    long items = 0;
    String token = null;
    while (true) {
      String path = collection + "?limit=" + pageSize
          + (token == null ? "" : "&continue=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
      RawHttp.Response r = get(path, countItems ? Integer.MAX_VALUE : 2048);
      pages++;
      bytes += r.bodyBytes();
      if (countItems) {
        items += countMarkers(r.body());
      }
      String head = new String(r.body(), 0, Math.min(r.body().length, 2048), StandardCharsets.UTF_8);
      int itemsAt = head.indexOf("\"items\":");
      Matcher m = CONTINUE.matcher(itemsAt < 0 ? head : head.substring(0, itemsAt));
      if (!m.find()) {
        return new long[] {pages, bytes, items};
      }
      token = m.group(1);
    }
  }

  /** The items of a PodList in kube's protobuf envelope: its field 2 (items), counted. */
  private static int protobufItems(byte[] body) throws IOException {
    com.google.protobuf.CodedInputStream in = com.google.protobuf.CodedInputStream.newInstance(Envelope.unwrap(body).raw());
    int items = 0;
    for (int tag; (tag = in.readTag()) != 0; ) {
      if (com.google.protobuf.WireFormat.getTagFieldNumber(tag) == 2) {
        items++;
      }
      in.skipField(tag);
    }
    return items;
  }

  private static int countMarkers(byte[] body) {
    int n = 0;
    byte first = ITEM_MARKER[0];
    outer:
    for (int i = 0; i + ITEM_MARKER.length <= body.length; i++) {
      if (body[i] != first) {
        continue;
      }
      for (int j = 1; j < ITEM_MARKER.length; j++) {
        if (body[i + j] != ITEM_MARKER[j]) {
          continue outer;
        }
      }
      n++;
      i += ITEM_MARKER.length - 1;
    }
    return n;
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
