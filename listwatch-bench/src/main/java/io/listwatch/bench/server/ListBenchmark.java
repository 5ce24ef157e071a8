package io.listwatch.bench.server;

import static io.listwatch.bench.Format.count;
import static io.listwatch.bench.Format.errorCell;
import static io.listwatch.bench.Format.ms;

import io.listwatch.api.ListOptions;
import io.listwatch.bench.CpuMonitor;
import io.listwatch.bench.DataDirectory;
import io.listwatch.bench.Format;
import io.listwatch.bench.MachineInfo;
import io.listwatch.bench.Report;
import io.listwatch.bench.ReportOutput;
import io.listwatch.bench.ResultTable;
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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

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
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Full and paged lists of the in-process API server, and heap per cached object.")
public final class ListBenchmark implements Callable<Integer> {

  private static final String NAMESPACE = "default";
  private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
  private static final Pattern CONTINUE = Pattern.compile("\"continue\":\"([^\"]+)\"");
  private static final byte[] ITEM_MARKER = Pods.MARKER.getBytes(StandardCharsets.US_ASCII);

  @Spec
  private CommandSpec spec;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Store directory, absent or empty; kept afterwards. "
          + "Default: a new temporary directory, deleted at the end.")
  private Path dataDir;

  @Option(names = "--sizes", split = ",", defaultValue = "10000,100000", paramLabel = "N",
      description = "Pod counts measured, increasing (default: ${DEFAULT-VALUE}).")
  private List<Integer> sizes;

  @Option(names = "--object-bytes", defaultValue = "1024", paramLabel = "N",
      description = "Approximate JSON size of each pod as stored (default: ${DEFAULT-VALUE}).")
  private int objectBytes;

  @Option(names = "--load-connections", defaultValue = "64", paramLabel = "N",
      description = "Creates in flight while loading (default: ${DEFAULT-VALUE}).")
  private int loadConnections;

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

  private final Report report = new Report("server-list");
  private Cacher cacher;
  private InetSocketAddress address;

  @Override
  public Integer call() throws Exception {
    validate();
    DataDirectory data = DataDirectory.open(dataDir, "listwatch-bench-list-", spec);
    Path dir = data.path();
    MachineInfo machine = MachineInfo.describe(dir);
    long started = System.nanoTime();
    ResultTable loads = report.table(new ResultTable(String.format(
        "Loading: pods of ~%,d bytes created through POST /api/v1/namespaces/default/pods, %d in flight "
            + "(virtual threads, one keep-alive connection each)", objectBytes, loadConnections),
        "pods", "created", "seconds", "creates/s", "errors"));
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
      int have = 0;
      for (int size : sizes) {
        report.progress("creating pods %,d..%,d", have, size);
        CpuMonitor cpu = CpuMonitor.now();
        Pods template = new Pods(objectBytes);
        Pods.LoadResult r = Pods.createAll(address, "/api/v1/namespaces/" + NAMESPACE + "/pods", have, size,
            loadConnections, i -> template.create(NAMESPACE, podName(i), i));
        report.phase("creating pods up to " + count(size), cpu);
        loads.row(count(size), count(r.created()), String.format("%.1f", r.seconds()),
            count(r.created() / r.seconds()), errorCell(r.errors(), null) + (r.errors() > 0 ? " " + r.firstError() : ""));
        have = size;

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
        cpu = CpuMonitor.now();
        long[] full = new long[repeats];
        long fullBytes = 0;
        for (int i = -1; i < repeats; i++) {
          long t0 = System.nanoTime();
          RawHttp.Response resp = get("/api/v1/pods", i < 0 ? Integer.MAX_VALUE : 0);
          long took = System.nanoTime() - t0;
          if (i < 0) {
            int items = countMarkers(resp.body());
            check(items == size, "full list returned " + items + " items, expected " + size);
          } else {
            full[i] = took;
          }
          fullBytes = resp.bodyBytes();
        }
        report.phase(count(size) + " pods: full lists", cpu);
        long median = row(lists, size, "full (no limit)", 1, fullBytes, full);
        if (size == 100_000) {
          fullMs100k[0] = median / 1e6;
        }

        // the same full list in kube's protobuf: the first read converts the pods not yet converted
        // (each pod's protobuf form is then kept beside its JSON in the watch cache), later ones
        // assemble the kept forms
        report.progress("%,d pods: full lists in protobuf", size);
        cpu = CpuMonitor.now();
        long[] proto = new long[repeats];
        long protoBytes = 0;
        for (int i = -1; i < repeats; i++) {
          long t0 = System.nanoTime();
          RawHttp.Response resp = get("/api/v1/pods", PROTOBUF, i < 0 ? Integer.MAX_VALUE : 0);
          long took = System.nanoTime() - t0;
          if (i < 0) {
            int items = protobufItems(resp.body());
            check(items == size, "protobuf list returned " + items + " items, expected " + size);
            row(lists, size, "full, protobuf, first read (converts)", 1, resp.bodyBytes(), new long[] {took});
          } else {
            proto[i] = took;
          }
          protoBytes = resp.bodyBytes();
        }
        report.phase(count(size) + " pods: full lists in protobuf", cpu);
        row(lists, size, "full, protobuf (forms kept)", 1, protoBytes, proto);
        long heapWithProto = Report.heapAfterGc() - baseline;
        memory.row(count(size) + " + protobuf forms", count(json[1]), count(json[1] / (double) size),
            Report.mib(heapWithProto), count(heapWithProto / (double) size),
            String.format("%.2f", heapWithProto / (double) json[1]), "");

        report.progress("%,d pods: paged lists", size);
        cpu = CpuMonitor.now();
        long[] paged = new long[repeats];
        long[] pagedStats = null;
        for (int i = -1; i < repeats; i++) {
          long t0 = System.nanoTime();
          long[] stats = readPaged("/api/v1/pods", i < 0);
          long took = System.nanoTime() - t0;
          if (i < 0) {
            check(stats[2] == size, "paged list returned " + stats[2] + " items, expected " + size);
          } else {
            paged[i] = took;
          }
          pagedStats = stats;
        }
        report.phase(count(size) + " pods: paged lists", cpu);
        row(lists, size, "paged, limit " + pageSize, (int) pagedStats[0], pagedStats[1], paged);
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
        + "through HTTP (%d in flight)", sizes, objectBytes, loadConnections));
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
    String data = "x".repeat(Math.max(0, objectBytes - 200));
    Pods.LoadResult r = Pods.createAll(address, "/api/v1/namespaces/" + NAMESPACE + "/configmaps", 0, 2_000,
        loadConnections, i -> ("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"warmup-" + i
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

  private static String podName(int i) {
    return String.format("pod-%06d", i);
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

  /** Adds a row; returns the median. */
  private long row(ResultTable table, int size, String read, int pages, long bytes, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    long median = sorted[sorted.length / 2];
    table.row(count(size), read, count(pages), count(bytes), ms(median), ms(sorted[0]),
        ms(sorted[sorted.length - 1]), count(bytes / 1e6 / (median / 1e9)), count(size / (median / 1e9)));
    return median;
  }

  private void validate() {
    List<String> problems = new ArrayList<>();
    if (sizes.isEmpty() || sizes.stream().anyMatch(n -> n < 1)) {
      problems.add("--sizes must list counts >= 1");
    }
    for (int i = 1; i < sizes.size(); i++) {
      if (sizes.get(i) <= sizes.get(i - 1)) {
        problems.add("--sizes must increase");
      }
    }
    if (repeats < 1 || pageSize < 1 || loadConnections < 1 || objectBytes < 0) {
      problems.add("--repeats, --page-size, --load-connections must be >= 1");
    }
    if (!problems.isEmpty()) {
      throw new ParameterException(spec.commandLine(), String.join("; ", problems));
    }
  }

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new IllegalStateException(message);
    }
  }
}
