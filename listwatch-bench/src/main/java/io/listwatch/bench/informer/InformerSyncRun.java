package io.listwatch.bench.informer;

import io.listwatch.bench.Report;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The child JVM of one {@code informer-sync} run: {@code InformerSyncRun CLIENT URL PODS
 * TIMEOUT_SECONDS UPDATES EVENT_TIMEOUT_SECONDS}. It builds the client, takes the heap
 * baseline (heap used after full GCs), starts the client's pod informer, polls every
 * millisecond until the client says it has synced and its cache holds {@code PODS} pods, then
 * measures the heap again with the informer (and so its cache) still running.
 *
 * <p>Then it shows the informer receiving watch events after its sync: it adds a handler
 * counting update notifications, prints {@value #READY_PREFIX} (the parent then writes
 * {@code UPDATES} pod updates through the server), and waits until the handler has counted
 * {@code UPDATES} or {@code EVENT_TIMEOUT_SECONDS} pass. It prints one line,
 * {@value #RESULT_PREFIX} followed by {@code key=value} pairs (see {@link SyncResult}), and
 * exits; on failure it prints {@value #FAILURE_PREFIX} and a message and exits with 1. Too few
 * events is not a failure here: the parent judges the count.
 *
 * <p>Single-threaded apart from the client's own threads.
 */
public final class InformerSyncRun {

  static final String RESULT_PREFIX = "informer-sync-result ";
  static final String FAILURE_PREFIX = "informer-sync-failure ";
  static final String READY_PREFIX = "informer-sync-ready";

  private InformerSyncRun() {
  }

  public static void main(String[] args) {
    int code = 1;
    try {
      code = run(args);
    } catch (Throwable t) {
      t.printStackTrace();
      System.out.println(FAILURE_PREFIX + t);
    }
    System.out.flush();
    stopFlightRecordings();
    // some clients leave non-daemon threads behind after close
    Runtime.getRuntime().halt(code);
  }

  private static int run(String[] args) throws Exception {
    if (args.length != 6) {
      throw new IllegalArgumentException(
          "usage: InformerSyncRun CLIENT URL PODS TIMEOUT_SECONDS UPDATES EVENT_TIMEOUT_SECONDS");
    }
    String clientName = args[0];
    String url = args[1];
    int pods = Integer.parseInt(args[2]);
    long timeoutNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args[3]));
    int updates = Integer.parseInt(args[4]);
    long eventTimeoutNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args[5]));
    try (PodInformerUnderTest client = InformerClients.create(clientName)) {
      client.connect(url);
      long baseline = Report.heapAfterGc();
      long[] gc0 = gcTotals();
      long cpu0 = Report.processCpuNanos();
      Instant startedAt = Instant.now();
      long t0 = System.nanoTime();
      client.start();
      long syncedAt = -1;
      while (true) {
        long now = System.nanoTime();
        if (syncedAt < 0 && client.hasSynced()) {
          syncedAt = now;
        }
        if (syncedAt >= 0 && client.cachedPods() >= pods) {
          break;
        }
        if (now - t0 > timeoutNanos) {
          System.out.println(FAILURE_PREFIX + "not synced with " + pods + " pods within " + args[3]
              + " s (hasSynced " + (syncedAt >= 0) + ", cached " + client.cachedPods() + ")");
          return 1;
        }
        LockSupport.parkNanos(1_000_000);
      }
      long t1 = System.nanoTime();
      long cpu1 = Report.processCpuNanos();
      long[] gc1 = gcTotals();
      int cached = client.cachedPods();
      long heapAfter = Report.heapAfterGc();
      long[] events = awaitUpdates(client, updates, eventTimeoutNanos);
      Map<String, String> out = new LinkedHashMap<>();
      out.put("syncNanos", Long.toString(t1 - t0));
      out.put("hasSyncedNanos", Long.toString(syncedAt - t0));
      out.put("syncStartEpochMicros", Long.toString(ChronoUnit.MICROS.between(Instant.EPOCH, startedAt)));
      out.put("cached", Integer.toString(cached));
      out.put("baselineBytes", Long.toString(baseline));
      out.put("heapAfterBytes", Long.toString(heapAfter));
      out.put("cpuSyncNanos", Long.toString(cpu1 - cpu0));
      out.put("cpuTotalNanos", Long.toString(Report.processCpuNanos()));
      out.put("gcCount", Long.toString(gc1[0] - gc0[0]));
      out.put("gcMillis", Long.toString(gc1[1] - gc0[1]));
      out.put("eventsReceived", Long.toString(events[0]));
      out.put("eventsExpected", Integer.toString(updates));
      out.put("eventsNanos", Long.toString(events[1]));
      out.put("holds", client.holds().replace(' ', '\u00a0'));
      out.put("describe", client.describe().replace(' ', '\u00a0'));
      StringBuilder line = new StringBuilder(RESULT_PREFIX);
      out.forEach((k, v) -> line.append(k).append('=').append(v).append(' '));
      System.out.println(line.toString().trim());
      System.out.flush();
      if (cached != pods) {
        System.out.println(FAILURE_PREFIX + "cache holds " + cached + " pods, expected " + pods);
        return 1;
      }
    }
    return 0;
  }

  /**
   * Counts the informer's update notifications from now on, tells the parent to write
   * {@code updates} pod updates ({@value #READY_PREFIX}), and waits (polling every
   * millisecond) until that many were counted or {@code timeoutNanos} pass: {received, nanos
   * from the ready line to the last one counted, or to the timeout}.
   */
  private static long[] awaitUpdates(PodInformerUnderTest client, int updates, long timeoutNanos) {
    AtomicLong received = new AtomicLong();
    AtomicLong lastAt = new AtomicLong();
    client.onUpdates(() -> {
      lastAt.set(System.nanoTime());
      received.incrementAndGet();
    });
    long t0 = System.nanoTime();
    System.out.println(READY_PREFIX);
    System.out.flush();
    while (received.get() < updates && System.nanoTime() - t0 < timeoutNanos) {
      LockSupport.parkNanos(1_000_000);
    }
    long n = received.get();
    return new long[] {n, n >= updates ? lastAt.get() - t0 : System.nanoTime() - t0};
  }

  /**
   * Stops the flight recordings started with {@code -XX:StartFlightRecording=filename=...},
   * which writes them to their files: {@code halt} skips the shutdown hook that would.
   */
  private static void stopFlightRecordings() {
    if (!jdk.jfr.FlightRecorder.isInitialized()) {
      return;
    }
    for (jdk.jfr.Recording r : jdk.jfr.FlightRecorder.getFlightRecorder().getRecordings()) {
      if (r.getState() == jdk.jfr.RecordingState.RUNNING) {
        r.stop();
      }
    }
  }

  /** {collections, milliseconds} summed over every collector since the JVM started. */
  private static long[] gcTotals() {
    long count = 0;
    long millis = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, gc.getCollectionCount());
      millis += Math.max(0, gc.getCollectionTime());
    }
    return new long[] {count, millis};
  }
}
