package io.listwatch.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What waking a thread on another CPU costs the waker, ten times a second, to tell the seconds
 * in which the machine itself was slow from the ones in which the system under test was. Two
 * threads, each pinned to one of two CPUs (taskset on its own thread id), wake each other in
 * turn every {@value #PERIOD_MILLIS} ms ({@link LockSupport#unpark}: a futex wake, and an
 * interrupt to the other CPU when it must be told), and each times its wake in its own CPU
 * time. CPU time, not wall time: a probe that waits for a busy CPU does not count the wait, so a
 * server that fills its core does not read as a slow machine.
 *
 * <p>Why: this machine is a guest of the PVM hypervisor. Usually such a wake costs the waker
 * 20-60 µs. For stretches of seconds to minutes, with or without a benchmark running, it costs
 * 3-4 ms instead (about one tick of the host's scheduler, the waker's virtual CPU set aside
 * until then); a server's event loop answering a quiet GET pays it once per answer, and the GET
 * then takes 4-8 ms instead of 1 (docs/reliability.md). Nothing inside the guest counts it as
 * steal.
 *
 * <p>A second is slow when at least {@value #SLOW_SAMPLES} of its wakes, either way, cost the
 * waker more than {@value #SLOW_WAKE_MICROS} µs of CPU.
 *
 * <p>Not free, and not complete: started in {@code bench apf}'s JVM, beside the light user, it
 * went with a higher flooded p99 in each of five runs than in each of six without it, for a
 * reason not yet known (one candidate: a safepoint of that JVM waiting for the probe's thread on
 * the server's busy CPU); and in a stretch not every second has two slow wakes, so some of its
 * seconds stay in (docs/reliability.md). So the benchmark runs it only when asked.
 *
 * <p>Thread-safe: the probe threads append samples under this object's lock and readers read
 * them under it.
 */
public final class HostProbe implements AutoCloseable {

  /** How often the probe wakes the other CPU, and back. */
  public static final int PERIOD_MILLIS = 100;
  /** A wake that costs the waker more than this is slow. */
  public static final long SLOW_WAKE_MICROS = 1_000;
  /** Slow wakes that make their second slow. */
  public static final int SLOW_SAMPLES = 2;

  /** One wake, from {@code fromCpu} to {@code toCpu} at {@code epochMillis}; it cost the waker {@code wakerNanos}. */
  record Sample(int fromCpu, int toCpu, long epochMillis, long wakerNanos) {
  }

  private final int first;
  private final int second;
  private final List<Sample> samples = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();
  private final Thread waker;
  private final Thread answerer;
  /** The round the waker has started and the one the answerer has answered. */
  private volatile long asked;
  private volatile long answered;
  private volatile boolean closed;

  private HostProbe(int first, int second) {
    this.first = first;
    this.second = second;
    this.answerer = Thread.ofPlatform().daemon().name("host-probe-" + second).unstarted(this::answer);
    this.waker = Thread.ofPlatform().daemon().name("host-probe-" + first).unstarted(this::wake);
  }

  /**
   * Starts the probe between CPUs {@code first} and {@code second} (the machine's numbers). When
   * a probe thread cannot pin itself (no taskset, not Linux) nothing is recorded and
   * {@link #problems()} says why.
   */
  public static HostProbe start(int first, int second) {
    if (first == second) {
      throw new IllegalArgumentException("the probe needs two CPUs, got " + first + " twice");
    }
    HostProbe probe = new HostProbe(first, second);
    probe.answerer.start();
    probe.waker.start();
    return probe;
  }

  /** The CPUs of a taskset list such as {@code 0-1} or {@code 0,2-3}, in order, each once. */
  public static List<Integer> cpus(String list) {
    List<Integer> cpus = new ArrayList<>();
    for (String part : list.strip().split(",")) {
      String[] range = part.split("-");
      int from = Integer.parseInt(range[0].strip());
      int to = range.length == 1 ? from : Integer.parseInt(range[1].strip());
      if (range.length > 2 || from < 0 || to < from) {
        throw new IllegalArgumentException("not a CPU list: " + list);
      }
      for (int cpu = from; cpu <= to; cpu++) {
        if (!cpus.contains(cpu)) {
          cpus.add(cpu);
        }
      }
    }
    return List.copyOf(cpus);
  }

  /** Every {@value #PERIOD_MILLIS} ms: wakes the answerer, times it, and waits for the answer (up to a second). */
  private void wake() {
    if (!pin(first)) {
      return;
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    try {
      while (!closed) {
        Thread.sleep(PERIOD_MILLIS - System.currentTimeMillis() % PERIOD_MILLIS);
        long round = asked + 1;
        long before = mx.getCurrentThreadCpuTime();
        asked = round;
        LockSupport.unpark(answerer);
        record(first, second, mx.getCurrentThreadCpuTime() - before);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (answered != round && !closed && System.nanoTime() < deadline) {
          LockSupport.parkNanos(this, deadline - System.nanoTime());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits to be woken, then wakes the waker and times that. */
  private void answer() {
    if (!pin(second)) {
      return;
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long seen = 0;
    while (!closed) {
      long round = asked;
      if (round == seen) {
        LockSupport.park(this);
        continue;
      }
      seen = round;
      long before = mx.getCurrentThreadCpuTime();
      answered = round;
      LockSupport.unpark(waker);
      record(second, first, mx.getCurrentThreadCpuTime() - before);
    }
  }

  /** Pins the calling thread to {@code cpu}; false (and a problem recorded) when it cannot. */
  private boolean pin(int cpu) {
    try {
      String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
      CpuAffinity.run(List.of("taskset", "--pid", "--cpu-list", String.valueOf(cpu),
          self.substring(self.lastIndexOf('/') + 1)), "pin the host probe to CPU " + cpu);
      return true;
    } catch (IOException | RuntimeException e) {
      synchronized (this) {
        problems.add("CPU " + cpu + ": " + e.getMessage());
      }
      return false;
    }
  }

  private synchronized void record(int from, int to, long nanos) {
    samples.add(new Sample(from, to, System.currentTimeMillis(), nanos));
  }

  /** The samples so far, in the order taken. */
  synchronized List<Sample> samples() {
    return List.copyOf(samples);
  }

  /** Why the probe records nothing; empty when it runs. */
  public synchronized List<String> problems() {
    return List.copyOf(problems);
  }

  /** The probe's two CPUs, as the report names them ("0 and 1"). */
  public String describe() {
    return first + " and " + second;
  }

  /**
   * The seconds (since the epoch) from {@code fromMillis} to {@code toMillis} in which the
   * machine was slow, by the samples so far.
   */
  public synchronized TreeSet<Long> slowSeconds(long fromMillis, long toMillis) {
    return slowSeconds(samples, fromMillis, toMillis);
  }

  /** As {@link #slowSeconds(long, long)}, over {@code samples}. */
  static TreeSet<Long> slowSeconds(List<Sample> samples, long fromMillis, long toMillis) {
    Map<Long, Integer> slowWakes = new HashMap<>();
    for (Sample s : samples) {
      if (s.epochMillis() >= fromMillis && s.epochMillis() < toMillis
          && s.wakerNanos() > TimeUnit.MICROSECONDS.toNanos(SLOW_WAKE_MICROS)) {
        slowWakes.merge(Math.floorDiv(s.epochMillis(), 1000), 1, Integer::sum);
      }
    }
    TreeSet<Long> slow = new TreeSet<>();
    slowWakes.forEach((second, n) -> {
      if (n >= SLOW_SAMPLES) {
        slow.add(second);
      }
    });
    return slow;
  }

  /** Stops the probe and waits for its threads. */
  @Override
  public void close() throws InterruptedException {
    closed = true;
    LockSupport.unpark(answerer);
    LockSupport.unpark(waker);
    answerer.join(5_000);
    waker.join(5_000);
  }
}
