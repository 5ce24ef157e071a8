package io.listwatch.bench;

import static io.listwatch.bench.Format.count;
import static io.listwatch.bench.Format.errorCell;
import static io.listwatch.bench.Format.ms;

import io.listwatch.bench.Workers.ThreadKind;
import io.listwatch.storage.KeyValue;
import io.listwatch.storage.Keys;
import io.listwatch.storage.RangeRequest;
import io.listwatch.storage.RangeResult;
import io.listwatch.storage.Storage;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.Watch;
import io.listwatch.storage.etcd.EtcdStorage;
import io.listwatch.storage.etcd.testing.EtcdServer;
import io.listwatch.storage.rocksdb.RocksDbStorage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bench storage}: the stores under the API server, measured through the {@link Storage}
 * API it uses: the embedded RocksDB store and, with {@code --stores rocksdb,etcd}, the etcd
 * store over a real etcd in its own process (started here unless {@code --etcd-servers} names
 * one), the same workload on each, one after the other in one run.
 *
 * <ol>
 *   <li>Durable creates: N writers each loop {@code create(key, value).join()} on fresh keys
 *       for a fixed time after a warm-up; creates/s and the commit latency of each create
 *       (from the call to the completion of its future) at p50/p99/max.
 *   <li>Range: a prefix holding {@code --range-keys} keys (created in parallel first) read in
 *       full, and read in pages of {@code --page-size} that continue at
 *       {@code Keys.after(lastKey)} at the first page's revision, as a kube LIST with
 *       {@code limit} and {@code continue} does.
 *   <li>Watch: the replay of a watch started from an old revision (the range keys' creation,
 *       one event per key), and a live watch on a prefix while writers create and update
 *       under it at full speed. Both check that every revision arrives once and in order.
 * </ol>
 *
 * <p>Results go to stdout (aligned text, or Markdown with {@code --markdown}) with the
 * machine and the exact parameters; progress goes to stderr. Confined to the thread that
 * runs the command; writers and loaders run on their own threads (see {@link Workers}).
 */
@Command(
    name = "storage",
    description = "Durable creates, ranges and watch delivery of the embedded RocksDB store "
        + "and of the etcd store.")
public final class StorageBenchmark extends BenchmarkCommand {

  private static final String ROOT = "/registry/bench/";

  @Mixin
  private StoreDirOption dataDir;

  @Option(names = "--stores", split = ",", defaultValue = "rocksdb", paramLabel = "rocksdb|etcd",
      description = "The stores to measure, in turn (default: ${DEFAULT-VALUE}).")
  private List<String> stores;

  @Option(names = "--etcd-servers", paramLabel = "URL",
      description = "For the etcd store, an etcd to use (its keys go under a fresh prefix); "
          + "default: start one (Debian's etcd binary) in its own process, with its data in the store directory.")
  private java.net.URI etcdServers;

  @Option(names = "--writers", split = ",", splitSynopsisLabel = ",", defaultValue = "1,8,64",
      paramLabel = "N",
      description = "Concurrent writer counts for the create run (default: ${DEFAULT-VALUE}).")
  private List<Integer> writerCounts;

  @Option(names = "--seconds", paramLabel = "N", defaultValue = "10",
      description = "Measured seconds per writer count (default: ${DEFAULT-VALUE}).")
  private int seconds;

  @Option(names = "--warmup-seconds", paramLabel = "N", defaultValue = "2",
      description = "Unmeasured seconds before each writer count (default: ${DEFAULT-VALUE}).")
  private int warmupSeconds;

  @Option(names = "--value-bytes", paramLabel = "N", defaultValue = "1024",
      description = "Size of every value, random bytes (default: ${DEFAULT-VALUE}).")
  private int valueBytes;

  @Option(names = "--threads", defaultValue = "virtual", paramLabel = "virtual|platform",
      converter = Workers.ThreadKindConverter.class,
      description = "Threads the writers run on (default: ${DEFAULT-VALUE}).")
  private ThreadKind threadKind;

  @Option(names = "--repeats", paramLabel = "N", defaultValue = "3",
      description = "Runs of the durable creates at each writer count (default: ${DEFAULT-VALUE}); the verdict "
          + "takes the median.")
  private int repeats;

  @Option(names = "--range-keys", paramLabel = "N", defaultValue = "100000",
      description = "Keys under the range prefix (default: ${DEFAULT-VALUE}).")
  private int rangeKeys;

  @Option(names = "--range-repeats", paramLabel = "N", defaultValue = "5",
      description = "Timed reads of each kind, after one untimed (default: ${DEFAULT-VALUE}).")
  private int rangeRepeats;

  @Option(names = "--page-size", paramLabel = "N", defaultValue = "500",
      description = "Limit of each paged range (default: ${DEFAULT-VALUE}).")
  private int pageSize;

  @Option(names = "--load-writers", paramLabel = "N", defaultValue = "64",
      description = "Writers creating the range keys (default: ${DEFAULT-VALUE}).")
  private int loadWriters;

  @Option(names = "--watch-writers", paramLabel = "N", defaultValue = "64",
      description = "Writers under the watched prefix (default: ${DEFAULT-VALUE}).")
  private int watchWriters;

  @Option(names = "--watch-seconds", paramLabel = "N", defaultValue = "10",
      description = "Seconds the watch writers run (default: ${DEFAULT-VALUE}).")
  private int watchSeconds;

  @Option(names = "--keys-per-watch-writer", paramLabel = "N", defaultValue = "16",
      description = "Each watch writer creates these keys, then updates them in turn "
          + "(default: ${DEFAULT-VALUE}).")
  private int keysPerWatchWriter;

  @Option(names = "--target", defaultValue = "20000", paramLabel = "CREATES_PER_S",
      description = "Target creates/s at the largest writer count (default: ${DEFAULT-VALUE}).")
  private long targetCreatesPerSecond;

  @Mixin
  private ReportOutput output;

  /** The store being measured, for table titles. */
  private String storeName;
  private byte[][] values;

  @Override
  public Integer call() throws Exception {
    validate();
    values = randomValues(64, valueBytes);
    DataDirectory data = dataDir.open("listwatch-bench-storage-");
    Path dir = data.path();
    MachineInfo machine = MachineInfo.describe(dir);
    long started = System.nanoTime();
    try (data) {
      for (String store : stores) {
        storeName = store;
        Path storeDir = dir.resolve(store);
        java.nio.file.Files.createDirectories(storeDir);
        EtcdServer etcd = store.equals("etcd") && etcdServers == null ? EtcdServer.start(storeDir) : null;
        try (Storage storage = open(store, storeDir, etcd)) {
          benchCreates(storage);
          long loadFrom = benchRanges(storage);
          benchReplay(storage, loadFrom);
          benchLiveWatch(storage);
        } finally {
          if (etcd != null) {
            etcd.close();
          }
        }
      }
    }
    report.progress("done in %.0f s", (System.nanoTime() - started) / 1e9);
    report.parameters.putAll(parameters(dir, data.temporary()));
    output.print(report, machine);
    return 0;
  }

  private Storage open(String store, Path storeDir, EtcdServer etcd) {
    if (store.equals("rocksdb")) {
      return RocksDbStorage.builder(storeDir).open();
    }
    java.net.URI endpoint = etcd != null ? etcd.endpoint() : etcdServers;
    return EtcdStorage.builder(List.of(endpoint)).namespace("/listwatch-bench-" + System.currentTimeMillis())
        .compactionInterval(java.time.Duration.ZERO).open();
  }

  /** "[store] title", so the tables of one run tell the stores apart. */
  private String titled(String title) {
    return "[" + storeName + "] " + title;
  }

  // ---- 1. durable creates -------------------------------------------------------------

  private void benchCreates(Storage storage) throws InterruptedException {
    ResultTable table = new ResultTable(titled(String.format(
        "Durable creates: %,d-byte values, %d s measured after %d s warm-up, %s threads",
        valueBytes, seconds, warmupSeconds, threadKind.name().toLowerCase(Locale.ROOT))),
        "run", "writers", "creates", "creates/s", "p50 ms", "p99 ms", "max ms", "errors");
    report.table(table);
    List<Double> largestRates = new ArrayList<>();
    int largest = writerCounts.stream().max(Comparator.naturalOrder()).orElseThrow();
    for (int point = 0; point < writerCounts.size() * repeats; point++) {
      int repeat = point / writerCounts.size() + 1;
      int writers = writerCounts.get(point % writerCounts.size());
      int run = point; // each point writes under its own prefix
      report.progress("creates: %d writers, %d+%d s (run %d of %d)", writers, warmupSeconds, seconds, repeat,
          repeats);
      CpuMonitor cpu = CpuMonitor.now();
      String prefix = ROOT + "creates/" + run + "/";
      long measureFrom = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmupSeconds);
      long until = measureFrom + TimeUnit.SECONDS.toNanos(seconds);
      LatencyRecorder[] recorders = new LatencyRecorder[writers];
      long[] lastDone = new long[writers];
      LongAdder errors = new LongAdder();
      AtomicReference<Throwable> firstError = new AtomicReference<>();
      Workers.run(threadKind, writers, "create-writer", w -> {
        LatencyRecorder recorder = new LatencyRecorder();
        long[] done = new long[1];
        for (long seq = 0; ; seq++) {
          long start = System.nanoTime();
          if (start - until >= 0) {
            break;
          }
          byte[] value = values[(int) (seq % values.length)];
          try {
            storage.create(prefix + w + "/" + seq, value)
                .whenComplete((kv, e) -> done[0] = System.nanoTime())
                .join();
          } catch (CompletionException e) {
            errors.increment();
            firstError.compareAndSet(null, e.getCause());
            if (isUnavailable(e)) {
              break;
            }
            continue;
          }
          if (start - measureFrom >= 0) {
            recorder.record(done[0] - start);
            lastDone[w] = done[0];
          }
        }
        recorders[w] = recorder;
      });
      report.phase(titled("creates, ") + writers + (writers == 1 ? " writer" : " writers") + ", with warm-up",
          cpu);
      LatencyRecorder all = new LatencyRecorder();
      long end = measureFrom;
      for (int w = 0; w < writers; w++) {
        all.merge(recorders[w]);
        end = Math.max(end, lastDone[w]);
      }
      double rate = all.count() / Math.max(1e-9, (end - measureFrom) / 1e9);
      table.row(repeat, writers, count(all.count()), count(rate), ms(all.percentile(0.50)),
          ms(all.percentile(0.99)), ms(all.max()), errorCell(errors.sum(), firstError.get()));
      report.figure("storage." + storeName + ".w" + writers + ".createsPerSecond.run" + repeat, rate);
      if (writers == largest) {
        largestRates.add(rate);
      }
    }
    Spread spread = Spread.of(largestRates);
    String verdict = spread.median() >= targetCreatesPerSecond ? "MET" : "MISSED";
    report.verdict(titled(String.format("target >= %,d durable creates/s at %d writers: %s (median of %d runs "
        + "%,.0f/s, range %,.0f-%,.0f)", targetCreatesPerSecond, largest, verdict, spread.count(), spread.median(),
        spread.min(), spread.max())));
  }

  // ---- 2. range -----------------------------------------------------------------------

  /** Creates the range keys, times full and paged reads; returns the revision before the load. */
  private long benchRanges(Storage storage) throws Exception {
    String prefix = ROOT + "range/";
    report.progress("range: creating %,d keys with %d writers", rangeKeys, loadWriters);
    long loadFrom = storage.currentRevision();
    AtomicInteger next = new AtomicInteger();
    CpuMonitor cpu = CpuMonitor.now();
    long t0 = System.nanoTime();
    Workers.run(threadKind, loadWriters, "range-loader", w -> {
      for (int k = next.getAndIncrement(); k < rangeKeys; k = next.getAndIncrement()) {
        storage.create(rangeKey(prefix, k), values[k % values.length]).join();
      }
    });
    double loadSeconds = (System.nanoTime() - t0) / 1e9;
    report.phase(titled("range: creating the keys"), cpu);
    ResultTable table = new ResultTable(titled(String.format(
        "Range over %,d keys of %,d bytes (created in %.1f s by %d writers, %,.0f creates/s); "
            + "%d timed reads of each kind after 1 untimed",
        rangeKeys, valueBytes, loadSeconds, loadWriters, rangeKeys / loadSeconds, rangeRepeats)),
        "read", "pages", "keys", "ms per read (median)", "min ms", "max ms", "keys/s");
    report.table(table);

    report.progress("range: %d full reads", rangeRepeats + 1);
    cpu = CpuMonitor.now();
    TimedReads<Void> full = TimedReads.run(rangeRepeats, untimed -> {
      RangeResult r = storage.range(RangeRequest.prefix(prefix)).join();
      check(r.kvs().size() == rangeKeys && !r.more(),
          "full range returned " + r.kvs().size() + " keys, more=" + r.more());
      return null;
    });
    addReadRow(table, "full range (no limit)", 1, full);
    report.phase(titled("range: full reads"), cpu);

    report.progress("range: %d paged reads, limit %d", rangeRepeats + 1, pageSize);
    cpu = CpuMonitor.now();
    TimedReads<Integer> paged = TimedReads.run(rangeRepeats, untimed -> readPaged(storage, prefix));
    addReadRow(table, "paged, limit " + pageSize, paged.last(), paged);
    report.phase(titled("range: paged reads"), cpu);
    return loadFrom;
  }

  /** Reads {@code prefix} in pages at the first page's revision; returns the page count. */
  private int readPaged(Storage storage, String prefix) {
    RangeRequest request = RangeRequest.prefix(prefix).withLimit(pageSize);
    int pages = 0;
    int keys = 0;
    long revision = 0;
    while (true) {
      RangeResult page = storage.range(request).join();
      pages++;
      keys += page.kvs().size();
      check(revision == 0 || page.revision() == revision,
          "page served at revision " + page.revision() + ", asked " + revision);
      revision = page.revision();
      if (!page.more()) {
        break;
      }
      KeyValue last = page.kvs().get(page.kvs().size() - 1);
      request = request.withStartKey(Keys.after(last.key())).atRevision(revision);
    }
    check(keys == rangeKeys, "paged range returned " + keys + " keys");
    return pages;
  }

  private void addReadRow(ResultTable table, String read, int pages, TimedReads<?> reads) {
    table.row(read, count(pages), count(rangeKeys), ms(reads.median()), ms(reads.min()), ms(reads.max()),
        count(rangeKeys / (reads.median() / 1e9)));
  }

  // ---- 3. watch -----------------------------------------------------------------------

  private void benchReplay(Storage storage, long loadFrom) throws InterruptedException {
    String prefix = ROOT + "range/";
    report.progress("watch: replay of %,d events from revision %d", rangeKeys, loadFrom);
    EventCounter counter = new EventCounter(loadFrom);
    CpuMonitor cpu = CpuMonitor.now();
    long start = System.nanoTime();
    Watch watch = storage.watch(prefix, loadFrom, counter);
    try {
      counter.awaitEvents(rangeKeys, TimeUnit.MINUTES.toMillis(2));
    } finally {
      watch.close();
    }
    report.phase(titled("watch replay"), cpu);
    ResultTable table = new ResultTable(titled(String.format(
        "Watch replay: a watch on the range prefix from revision %d (before the load), "
            + "%,d create events of history", loadFrom, rangeKeys)),
        "events", "first event ms", "all events ms", "events/s", "events per batch", "delivery");
    report.table(table);
    if (counter.events() == 0) {
      table.row(0, "-", "-", "-", "-", counter.verdict(rangeKeys));
      return;
    }
    long last = counter.lastEventNanos();
    double allSeconds = (last - start) / 1e9;
    table.row(count(counter.events()), ms(counter.firstEventNanos() - start),
        ms(last - start), count(counter.events() / Math.max(1e-9, allSeconds)),
        String.format("%.1f", counter.events() / (double) Math.max(1, counter.batches())),
        counter.verdict(rangeKeys));
  }

  private void benchLiveWatch(Storage storage) throws InterruptedException {
    String prefix = ROOT + "watch/";
    report.progress("watch: live, %d writers for %d s", watchWriters, watchSeconds);
    long from = storage.currentRevision();
    EventCounter counter = new EventCounter(from);
    LongAdder writes = new LongAdder();
    LongAdder errors = new LongAdder();
    AtomicReference<Throwable> firstError = new AtomicReference<>();
    long start;
    long stop;
    long atStop;
    boolean drained;
    CpuMonitor cpu = CpuMonitor.now();
    Watch watch = storage.watch(prefix, from, counter);
    try {
      start = System.nanoTime();
      long until = start + TimeUnit.SECONDS.toNanos(watchSeconds);
      Workers.run(threadKind, watchWriters, "watch-writer", w -> {
        long[] modRevisions = new long[keysPerWatchWriter];
        for (long seq = 0; System.nanoTime() - until < 0; seq++) {
          int k = (int) (seq % keysPerWatchWriter);
          String key = prefix + w + "/" + k;
          byte[] value = values[(int) (seq % values.length)];
          try {
            KeyValue kv = modRevisions[k] == 0
                ? storage.create(key, value).join()
                : storage.update(key, value, modRevisions[k]).join();
            modRevisions[k] = kv.modRevision();
            writes.increment();
          } catch (CompletionException e) {
            errors.increment();
            firstError.compareAndSet(null, e.getCause());
            if (isUnavailable(e)) {
              break;
            }
          }
        }
      });
      stop = System.nanoTime();
      atStop = counter.events();
      drained = counter.awaitEvents(writes.sum(), TimeUnit.MINUTES.toMillis(1));
    } finally {
      watch.close();
    }
    report.phase(titled("live watch"), cpu);
    long committed = writes.sum();
    double writeSeconds = (stop - start) / 1e9;
    long last = Math.max(counter.lastEventNanos(), stop);
    ResultTable table = new ResultTable(titled(String.format(
        "Live watch: one watch on a prefix while %d writers create, then update, %d keys each "
            + "for %d s", watchWriters, keysPerWatchWriter, watchSeconds)),
        "measurement", "value");
    report.table(table);
    table.row("writes committed", count(committed) + " (" + count(committed / writeSeconds)
        + "/s), errors: " + errorCell(errors.sum(), firstError.get()));
    table.row("events received while writing", count(atStop) + " ("
        + count(atStop / writeSeconds) + "/s)");
    table.row("events received in all", count(counter.events()) + " ("
        + count(counter.events() / ((last - start) / 1e9)) + "/s until the last one)");
    String catchUp = atStop == committed ? "none"
        : count(committed - atStop) + " events, " + (drained
            ? "caught up " + ms(last - stop) + " ms later" : "NOT caught up within 60 s");
    table.row("behind when writers stopped", catchUp);
    table.row("events per batch", String.format("%.1f",
        counter.events() / (double) Math.max(1, counter.batches())));
    table.row("delivery", counter.verdict(committed));
  }

  // ---- output -------------------------------------------------------------------------

  private Map<String, String> parameters(Path dir, boolean tempDir) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("stores", String.join(", ", stores.stream().map(st -> st.equals("rocksdb")
        ? "RocksDbStorage (builder defaults) in " + (tempDir ? "a new temp dir" : dir)
        : "EtcdStorage over " + (etcdServers != null ? "etcd at " + etcdServers
            : "etcd " + "started here (single member, 127.0.0.1, data beside the RocksDB store)")).toList()));
    m.put("value", String.format("%,d random bytes", valueBytes));
    m.put("threads", threadKind.name().toLowerCase(Locale.ROOT));
    m.put("create writers", writerCounts.toString());
    m.put("create time", warmupSeconds + " s warm-up + " + seconds + " s measured per count, " + repeats
        + (repeats == 1 ? " run" : " runs (the counts in turn, then again)"));
    m.put("range", String.format("%,d keys, %d reads per kind, page limit %d", rangeKeys,
        rangeRepeats, pageSize));
    m.put("live watch", String.format("%d writers x %d keys, %d s", watchWriters,
        keysPerWatchWriter, watchSeconds));
    return m;
  }

  // ---- helpers ------------------------------------------------------------------------

  private void validate() {
    List<String> problems = new ArrayList<>();
    if (writerCounts.isEmpty() || writerCounts.stream().anyMatch(n -> n < 1)) {
      problems.add("--writers must list counts >= 1");
    }
    if (seconds < 1 || warmupSeconds < 0 || watchSeconds < 1 || repeats < 1) {
      problems.add("--seconds, --watch-seconds and --repeats must be >= 1, --warmup-seconds >= 0");
    }
    if (valueBytes < 0 || rangeKeys < 1 || rangeRepeats < 1 || pageSize < 1) {
      problems.add("--value-bytes >= 0, --range-keys, --range-repeats, --page-size >= 1");
    }
    if (loadWriters < 1 || watchWriters < 1 || keysPerWatchWriter < 1) {
      problems.add("--load-writers, --watch-writers, --keys-per-watch-writer must be >= 1");
    }
    if (stores.isEmpty() || !stores.stream().allMatch(st -> st.equals("rocksdb") || st.equals("etcd"))) {
      problems.add("--stores lists rocksdb and/or etcd");
    }
    rejectIfAny(problems);
  }

  private static byte[][] randomValues(int count, int size) {
    SplittableRandom random = new SplittableRandom(42);
    byte[][] out = new byte[count][size];
    for (byte[] v : out) {
      random.nextBytes(v);
    }
    return out;
  }

  private static String rangeKey(String prefix, int k) {
    return prefix + String.format("obj-%07d", k);
  }

  private static boolean isUnavailable(CompletionException e) {
    return e.getCause() instanceof StorageException se
        && se.code() == StorageException.Code.UNAVAILABLE;
  }

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new IllegalStateException(message);
    }
  }

}
