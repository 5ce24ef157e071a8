package io.listwatch.bench.server;

import io.listwatch.bench.CpuMonitor;
import io.listwatch.bench.GcLog;
import io.listwatch.bench.Report;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLSocketFactory;
import org.HdrHistogram.Histogram;

/**
 * One measured point of {@code bench server-fanout}: N watches over one transport, writers
 * merge-PATCHing pods at a fixed total rate (or as fast as they go), a warm-up, then a
 * measured window; the server in its own JVM (or the servers, etcd and HAProxy of a
 * {@link FanOutTopology}), measured from their processes and the servers' JVM logs.
 *
 * <p>Writers: platform threads, one keep-alive connection each, on a fixed schedule each
 * (writer i of n sends at t0 + (k + i/n) * n/rate): it parks until its next slot
 * ({@link LockSupport#parkNanos}, accurate to tens of microseconds on Linux) and stamps the
 * slot, the write's intended send time, into the pod, with the write's sequence number
 * ({@link Pods#sentPatch}). Latencies count from the intended time, open loop: a writer that
 * fell behind (a slow response) sends its late writes at once, and their wait for the writer
 * counts in both the write's latency and its watchers' (no coordinated omission; HdrHistogram
 * records them, needing no correction since the stamp already is the intended time). How late
 * each write left is recorded too, as the pacer's lateness, so a burst from the load generator
 * shows apart. The max-throughput point (rate 0) is closed loop: its writes are due when sent.
 *
 * <p>After the catch-up each watch is checked to have received every acknowledged write once,
 * in resourceVersion order ({@link DeliveryCheck}).
 *
 * <p>Confined to the thread that runs the benchmark; the writers and the fleet's reader run
 * on their own threads.
 */
final class FanOutPoint {

  private static final long NANOS_PER_TICK = 10_000_000L; // USER_HZ is 100 on Linux

  /** Where and how to run points: the servers, their listener for the watches, the writers' TLS. */
  record Target(FanOutTopology.Servers servers, Transport transport, InetSocketAddress watchAddress,
      InetSocketAddress writeAddress, SSLSocketFactory writeTls, TlsClient tls, int streamsPerConnection, int pods) {
  }

  /**
   * The result of one point; {@code measuredFrom} and {@code measuredUntil}: its measured window
   * on the wall clock; {@code serverThreadTicks}: the servers' CPU in that window by thread name.
   */
  record Result(int watchers, int rate, int writers, double writesPerSecond, long errors, String firstError,
      long writeP50, long writeP99, long writeP999, long writeMax, long pacerLateP99, double deliveriesPerSecond,
      long p50, long p99, long p999, long max, double serverCpuPercent, double serverCpuNanosPerWrite, double serverCpuNanosPerDelivery,
      double etcdCpuPercent, double haproxyCpuPercent, double clientCpuPercent, double othersCpuPercent,
      GcLog.Pauses pauses, long delivered, long expected, long caughtUpNanos, int lost, String firstLoss,
      long unparsed, DeliveryCheck.Result check, Instant measuredFrom, Instant measuredUntil,
      Map<String, Long> serverThreadTicks) {

    long missing() {
      return Math.max(0, expected - delivered);
    }
  }

  private FanOutPoint() {
  }

  /**
   * Runs one point: {@code watchers} watches, {@code writerCount} writers at {@code rate}
   * writes/s in total (0: as fast as they go) for {@code warmup + measured} seconds.
   */
  static Result run(Target t, int watchers, int rate, int writerCount, int warmup, int measured) throws Exception {
    String rv = currentResourceVersion(t.writeAddress(), t.writeTls());
    try (WatchFleet fleet = t.transport().fleet(t.watchAddress(), t.tls(), t.streamsPerConnection())) {
      WatchTally tally = fleet.tally();
      fleet.open("/api/v1/namespaces/" + Pods.NAMESPACE + "/pods?watch=true&resourceVersion=" + rv, watchers);
      awaitTrue(() -> tally.streaming() + tally.failed() + tally.ended() >= watchers, 60_000);
      if (tally.streaming() < watchers) {
        throw new IllegalStateException(t.transport() + ": " + tally.streaming() + " of " + watchers
            + " watches streaming; first failure: " + tally.firstFailure());
      }

      long t0 = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
      long measureFrom = t0 + TimeUnit.SECONDS.toNanos(warmup);
      long until = measureFrom + TimeUnit.SECONDS.toNanos(measured);
      tally.recordSentBetween(measureFrom, until);
      Writers w = new Writers(t, rate, writerCount, t0, measureFrom, until);
      w.start();

      sleepUntil(measureFrom);
      long[] gc0 = t.servers().gcMarks();
      Counters start = Counters.read(tally, t.servers());
      sleepUntil(until);
      Counters end = Counters.read(tally, t.servers());
      w.join();
      long[] gc1 = t.servers().gcMarks();
      long writersDone = System.nanoTime();

      long expected = w.writes.sum() * watchers;
      long[] lastProgress = {System.nanoTime(), tally.events()};
      awaitTrue(() -> {
        long e = tally.events();
        if (e != lastProgress[1]) {
          lastProgress[0] = System.nanoTime();
          lastProgress[1] = e;
        }
        return e >= expected || System.nanoTime() - lastProgress[0] > TimeUnit.SECONDS.toNanos(3);
      }, 60_000);
      long delivered = tally.events();
      long caughtUp = System.nanoTime() - writersDone;
      int lost = tally.ended() + tally.failed();
      String firstLoss = tally.firstFailure();
      tally.closing();
      fleet.close();
      DeliveryCheck.Result check = DeliveryCheck.check(w.acked, tally.watches());

      long wall = end.nanos() - start.nanos();
      long events = end.events() - start.events();
      long serverTicks = end.serverTicks() - start.serverTicks();
      long etcdTicks = end.etcdTicks() - start.etcdTicks();
      long haproxyTicks = end.haproxyTicks() - start.haproxyTicks();
      double deliveries = events / (wall / 1e9);
      long serverNanos = serverTicks * NANOS_PER_TICK;
      long windowWrites = w.windowWrites.sum();
      double others = end.machine().percentOfCoreSince(start.machine(),
          Math.max(0, (end.machine().machineBusyTicks() - start.machine().machineBusyTicks())
              - (end.machine().selfTicks() - start.machine().selfTicks()) - serverTicks - etcdTicks - haproxyTicks));
      Histogram lat = tally.latencies();
      return new Result(watchers, rate, writerCount, windowWrites / (double) measured, w.errors.sum(),
          w.firstError.get(), w.latencies.getValueAtPercentile(50), w.latencies.getValueAtPercentile(99),
          w.latencies.getValueAtPercentile(99.9), w.latencies.getMaxValue(), w.lateness.getValueAtPercentile(99),
          deliveries, lat.getValueAtPercentile(50), lat.getValueAtPercentile(99), lat.getValueAtPercentile(99.9),
          lat.getMaxValue(), 100.0 * serverNanos / wall,
          windowWrites == 0 ? 0 : serverNanos / (double) windowWrites,
          events == 0 ? 0 : serverNanos / (double) events,
          100.0 * etcdTicks * NANOS_PER_TICK / wall, 100.0 * haproxyTicks * NANOS_PER_TICK / wall,
          100.0 * (end.processCpuNanos() - start.processCpuNanos()) / wall, others, t.servers().pauses(gc0, gc1),
          delivered, expected, caughtUp, lost, firstLoss, tally.unparsed(), check, start.wall(), end.wall(),
          since(end.serverThreads(), start.serverThreads()));
    }
  }

  /**
   * The counters a point's figures come from, read at each end of the measured window: the
   * events the fleet received, this JVM's CPU, the CPU ticks of the servers, etcd and HAProxy
   * (0 for those not running), the machine's CPU, when they were read, and last the servers'
   * CPU by thread name.
   */
  private record Counters(long events, long processCpuNanos, long serverTicks, long etcdTicks, long haproxyTicks,
      CpuMonitor machine, long nanos, Instant wall, Map<String, Long> serverThreads) {

    static Counters read(WatchTally tally, FanOutTopology.Servers servers) {
      long events = tally.events();
      long processCpuNanos = Report.processCpuNanos();
      long serverTicks = servers.serverTicks();
      long etcdTicks = servers.etcdTicks();
      long haproxyTicks = servers.haproxyTicks();
      CpuMonitor machine = CpuMonitor.now();
      return new Counters(events, processCpuNanos, serverTicks, etcdTicks, haproxyTicks, machine, System.nanoTime(),
          Instant.now(), servers.serverThreadTicks());
    }
  }

  /** The ticks of each thread name from {@code start} to {@code end} (threads that ended meanwhile are not counted). */
  private static Map<String, Long> since(Map<String, Long> end, Map<String, Long> start) {
    Map<String, Long> d = new HashMap<>();
    end.forEach((name, n) -> d.put(name, Math.max(0, n - start.getOrDefault(name, 0L))));
    return d;
  }

  /** The writer threads of one point and what they measured. */
  private static final class Writers {
    private final Target t;
    private final int rate;
    private final int count;
    private final long t0;
    private final long measureFrom;
    private final long until;
    final LongAdder writes = new LongAdder();
    final LongAdder windowWrites = new LongAdder();
    final LongAdder errors = new LongAdder();
    final AtomicReference<String> firstError = new AtomicReference<>();
    private final AtomicInteger nextSeq = new AtomicInteger();
    private final WriteSchedule[] schedules;
    private final AckedWrites[] ackedPerWriter;
    private final List<Thread> threads = new ArrayList<>();
    /** Once joined: each write's latency, from its intended send time to its answer. */
    final Histogram latencies = new Histogram(3);
    /** Once joined: how late each write left after its intended send time. */
    final Histogram lateness = new Histogram(3);
    /** Once joined: the writes the server acknowledged. */
    final AckedWrites acked = new AckedWrites();

    Writers(Target t, int rate, int count, long t0, long measureFrom, long until) {
      this.t = t;
      this.rate = rate;
      this.count = count;
      this.t0 = t0;
      this.measureFrom = measureFrom;
      this.until = until;
      this.schedules = new WriteSchedule[count];
      this.ackedPerWriter = new AckedWrites[count];
    }

    void start() {
      for (int i = 0; i < count; i++) {
        int index = i;
        schedules[i] = new WriteSchedule(t0, measureFrom, rate, i, count);
        ackedPerWriter[i] = new AckedWrites();
        threads.add(Thread.ofPlatform().daemon(true).name("fanout-writer-" + i).start(() -> write(index)));
      }
    }

    void join() throws InterruptedException {
      for (Thread th : threads) {
        th.join();
      }
      for (int i = 0; i < count; i++) {
        latencies.add(schedules[i].latencies);
        lateness.add(schedules[i].lateness);
        acked.addAll(ackedPerWriter[i]);
      }
    }

    private void write(int index) {
      WriteSchedule schedule = schedules[index];
      AckedWrites mine = ackedPerWriter[index];
      String prefix = "/api/v1/namespaces/" + Pods.NAMESPACE + "/pods/";
      try (RawHttp http = new RawHttp(t.writeAddress(), t.writeTls())) {
        for (int k = 0; ; k++) {
          long intended = 0;
          if (schedule.paced()) {
            intended = schedule.nextSlot();
            if (intended - until >= 0) {
              break; // a writer behind schedule still sends the writes due before the end, late
            }
            sleepUntil(intended);
          }
          long sent = System.nanoTime();
          if (!schedule.paced()) {
            intended = sent; // closed loop: a write is due when the last one is answered
            if (sent - until >= 0) {
              break;
            }
          }
          int pod = (index + k * count) % t.pods();
          int seq = nextSeq.getAndIncrement();
          RawHttp.Response r;
          try {
            r = http.send("PATCH", prefix + FanOutBenchmark.podName(pod), "application/merge-patch+json",
                Pods.sentPatch(intended, seq), 64 * 1024);
          } catch (IOException e) {
            // no answer: the server may have applied it; never sent again (that would be a second write)
            mine.unanswered(seq);
            errors.increment();
            firstError.compareAndSet(null, "no answer: " + e);
            http.close(); // the next write connects anew
            continue;
          }
          long done = System.nanoTime();
          long version = r.status() == 200 ? AckedWrites.resourceVersionOf(r.body()) : -1;
          if (version < 0) {
            errors.increment();
            firstError.compareAndSet(null, "HTTP " + r.status() + (r.status() == 200
                ? " without a resourceVersion" : "") + ": " + r.bodyText());
            continue;
          }
          writes.increment();
          mine.add(seq, version);
          if (sent - measureFrom >= 0 && sent - until < 0) {
            windowWrites.increment();
          }
          schedule.answered(intended, sent, done);
        }
      }
    }
  }

  static String currentResourceVersion(InetSocketAddress address, SSLSocketFactory tls) throws IOException {
    try (RawHttp http = new RawHttp(address, tls)) {
      RawHttp.Response r = http.send("GET", "/api/v1/namespaces/" + Pods.NAMESPACE + "/pods?limit=1", null, null,
          1024);
      long rv = r.status() == 200 ? AckedWrites.resourceVersionOf(r.body()) : -1;
      if (rv < 0) {
        throw new IllegalStateException("cannot read the current resourceVersion: HTTP " + r.status());
      }
      return Long.toString(rv);
    }
  }

  static void sleepUntil(long deadline) {
    for (long left; (left = deadline - System.nanoTime()) > 0; ) {
      LockSupport.parkNanos(left);
    }
  }

  /** Polls {@code condition} every 5 ms until it holds or {@code timeoutMs} pass. */
  static void awaitTrue(BooleanSupplier condition, long timeoutMs) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (!condition.getAsBoolean() && System.nanoTime() - deadline < 0) {
      Thread.sleep(5);
    }
  }
}
