package io.listwatch.bench.apf;

import io.listwatch.bench.LatencyRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The light user: GETs of one object at a fixed rate, open loop. Request i is due at
 * {@code start + i / rate} and is sent then whatever happened to the ones before it; its latency
 * runs from that due time to the end of its response, so a server that stalls is charged for
 * every request that was due during the stall (no coordinated omission).
 *
 * <p>Confined to the thread that calls {@link #run}; responses complete on the client's threads,
 * which only add to a synchronized recorder.
 */
final class OpenLoopGets {

  /**
   * What one run measured; {@code sendLags} are how late this client handed each request to its
   * HTTP client (a load generator starved of CPU shows here, not only in the latencies).
   */
  record Result(LatencyRecorder latencies, LatencyRecorder sendLags, long sent, long errors, String firstError,
      Timeline timeline) {
  }

  /**
   * Each request's due time (wall clock, ms since the epoch), latency (µs; -1 if it got no
   * answer), send lag (µs from its due time to its hand-over to the HTTP client) and the CPU time
   * the client's thread spent on it (µs; -1 when not known), in the order sent: to line the slow
   * ones up with the server's logs.
   */
  record Timeline(long[] dueEpochMillis, long[] latencyMicros, long[] sendLagMicros, long[] clientCpuMicros) {

    /** A GET that cost its client more CPU than this (µs) paid for a slow wake of the server's CPU. */
    static final long SLOW_CPU_MICROS = 1_000;

    /** A second in which at least this share of the GETs were {@link #SLOW_CPU_MICROS slow} is a host-slow one. */
    static final double SLOW_SHARE = 0.1;

    /** One line per request: due time in ISO-8601 UTC, latency, send lag and client CPU in µs, tab-separated. */
    String tsv() {
      StringBuilder out = new StringBuilder("due\tlatency_us\tsend_lag_us\tclient_cpu_us\n");
      for (int i = 0; i < dueEpochMillis.length; i++) {
        out.append(java.time.Instant.ofEpochMilli(dueEpochMillis[i])).append('\t').append(latencyMicros[i])
            .append('\t').append(sendLagMicros[i]).append('\t').append(clientCpuMicros[i]).append('\n');
      }
      return out.toString();
    }

    /** Whether the client timed any of these GETs in its CPU time (so {@link #hostSlowSeconds} can tell). */
    boolean timed() {
      return java.util.Arrays.stream(clientCpuMicros).anyMatch(cpu -> cpu >= 0);
    }

    /**
     * The seconds (since the epoch) in which this machine's host, not the server, made the GETs
     * slow: at least {@link #SLOW_SHARE} of the second's timed GETs (and two) cost the client over
     * {@link #SLOW_CPU_MICROS} of CPU, where one costs it about a tenth of that. Each GET wakes
     * the server's thread on another CPU, and in the host's slow stretches such a wake costs the
     * waker a scheduler tick (docs/reliability.md). Empty when the client does not time its GETs.
     */
    java.util.Set<Long> hostSlowSeconds() {
      java.util.Map<Long, int[]> bySecond = new java.util.TreeMap<>();
      for (int i = 0; i < dueEpochMillis.length; i++) {
        if (clientCpuMicros[i] >= 0) {
          int[] counts = bySecond.computeIfAbsent(Math.floorDiv(dueEpochMillis[i], 1000), k -> new int[2]);
          counts[0]++;
          if (clientCpuMicros[i] > SLOW_CPU_MICROS) {
            counts[1]++;
          }
        }
      }
      java.util.Set<Long> slow = new java.util.TreeSet<>();
      bySecond.forEach((second, counts) -> {
        if (counts[1] >= 2 && counts[1] >= SLOW_SHARE * counts[0]) {
          slow.add(second);
        }
      });
      return slow;
    }

    /**
     * The latencies (ns) of the answered requests that were due outside {@code seconds} (seconds
     * since the epoch): a measure without the seconds in which the machine was slow.
     */
    LatencyRecorder latenciesOutside(java.util.Set<Long> seconds) {
      LatencyRecorder kept = new LatencyRecorder();
      for (int i = 0; i < latencyMicros.length; i++) {
        if (latencyMicros[i] >= 0 && !seconds.contains(Math.floorDiv(dueEpochMillis[i], 1000))) {
          kept.record(latencyMicros[i] * 1_000);
        }
      }
      return kept;
    }

    /**
     * The p99 latency (ns, nearest rank) of the answered requests in each of {@code parts}
     * consecutive, equal shares of the requests in the order sent (the last share takes the
     * remainder); 0 for a share without an answer. How the tail moves over a measure.
     */
    long[] p99ByPart(int parts) {
      if (parts < 1) {
        throw new IllegalArgumentException("parts must be positive: " + parts);
      }
      long[] p99 = new long[parts];
      int share = latencyMicros.length / parts;
      for (int p = 0; p < parts; p++) {
        LatencyRecorder part = new LatencyRecorder();
        int end = p == parts - 1 ? latencyMicros.length : (p + 1) * share;
        for (int i = p * share; i < end; i++) {
          if (latencyMicros[i] >= 0) {
            part.record(latencyMicros[i] * 1_000);
          }
        }
        p99[p] = part.percentile(0.99);
      }
      return p99;
    }
  }

  private final LightClient client;
  private final double perSecond;

  OpenLoopGets(LightClient client, double perSecond) {
    this.client = client;
    this.perSecond = perSecond;
  }

  /** Sends for {@code duration}, then waits (up to a minute) for the answers. */
  Result run(Duration duration) throws InterruptedException {
    LatencyRecorder latencies = new LatencyRecorder();
    LatencyRecorder sendLags = new LatencyRecorder();
    AtomicLong errors = new AtomicLong();
    StringBuilder firstError = new StringBuilder();
    List<CompletableFuture<?>> pending = new ArrayList<>();
    long startMillis = System.currentTimeMillis();
    long start = System.nanoTime();
    long count = (long) (duration.toNanos() / 1e9 * perSecond);
    long[] dueMillis = new long[(int) count];
    long[] latencyMicros = new long[(int) count];
    long[] sendLagMicros = new long[(int) count];
    long[] clientCpuMicros = new long[(int) count];
    java.util.Arrays.fill(latencyMicros, -1);
    java.util.Arrays.fill(clientCpuMicros, -1);
    for (long i = 0; i < count; i++) {
      long due = start + (long) (i * 1e9 / perSecond);
      int index = (int) i;
      dueMillis[index] = startMillis + (due - start) / 1_000_000;
      long wait;
      while ((wait = due - System.nanoTime()) > 0) {
        LockSupport.parkNanos(wait);
      }
      long lag = System.nanoTime() - due;
      sendLagMicros[index] = lag / 1_000;
      sendLags.record(lag); // this thread only until the results are read after the join below
      pending.add(client.get().whenComplete((answer, e) -> {
        long latency = System.nanoTime() - due;
        synchronized (latencies) {
          latencies.record(latency);
          latencyMicros[index] = latency / 1_000;
          if (e == null && answer.cpuNanos() >= 0) {
            clientCpuMicros[index] = answer.cpuNanos() / 1_000;
          }
          if (e != null || answer.code() != 200) {
            errors.incrementAndGet();
            if (firstError.isEmpty()) {
              firstError.append(e != null ? unwrap(e).toString() : "HTTP " + answer.code());
            }
          }
        }
      }));
    }
    try {
      CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      // each failure is counted above; a request still open after a minute is left out
    }
    synchronized (latencies) {
      return new Result(latencies, sendLags, count, errors.get(), firstError.toString(),
          new Timeline(dueMillis, latencyMicros.clone(), sendLagMicros, clientCpuMicros.clone()));
    }
  }

  private static Throwable unwrap(Throwable e) {
    return e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
  }
}
