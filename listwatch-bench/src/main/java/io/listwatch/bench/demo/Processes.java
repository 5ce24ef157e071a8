package io.listwatch.bench.demo;

import io.listwatch.bench.CpuMonitor;
import io.listwatch.bench.GcLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The child JVMs of {@code bench demo-scale} — the API server, the controllers and the node
 * fleet — as the benchmark measures them: CPU from {@code /proc} and garbage collection from
 * each one's JVM log ({@link GcLog}). A {@link Sample} taken at the start and the end of a phase
 * gives each process's CPU and its heap after the last collection of the phase.
 *
 * <p>Immutable; thread-safe.
 */
record Processes(List<Member> members) {

  /** One child: its name in the report, its pid and its GC log. */
  record Member(String name, long pid, GcLog gc) {
  }

  /** CPU ticks and GC log positions of every member at one moment. */
  record Sample(long nanos, long[] ticks, long[] gcMarks) {
  }

  Sample sample() {
    long[] ticks = new long[members.size()];
    long[] marks = new long[members.size()];
    for (int i = 0; i < members.size(); i++) {
      ticks[i] = CpuMonitor.processTicks(members.get(i).pid());
      marks[i] = members.get(i).gc().mark();
    }
    return new Sample(System.nanoTime(), ticks, marks);
  }

  /** Member {@code i}'s CPU between two samples, in seconds (Linux's USER_HZ is 100). */
  static double cpuSeconds(Sample from, Sample to, int i) {
    return from.ticks()[i] < 0 || to.ticks()[i] < 0 ? -1 : (to.ticks()[i] - from.ticks()[i]) / 100.0;
  }

  /** The pauses member {@code i} logged between two samples. */
  GcLog.Pauses pauses(Sample from, Sample to, int i) {
    return members.get(i).gc().between(from.gcMarks()[i], to.gcMarks()[i]);
  }

  /**
   * Member {@code i}'s live heap: asks it for a full collection ({@code jcmd <pid> GC.run}) and
   * reads the heap after it from its GC log; -1 if that fails.
   */
  long liveHeapMiB(int i) throws InterruptedException {
    Member m = members.get(i);
    long before = m.gc().mark();
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    try {
      Process p = new ProcessBuilder(jcmd.toString(), Long.toString(m.pid()), "GC.run")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return -1;
      }
    } catch (IOException e) {
      return -1;
    }
    // the JVM writes the collection's line once it ends; give the log a moment to show it
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      long heap = m.gc().between(before, m.gc().mark()).heapAfterGcMiB();
      if (heap >= 0) {
        return heap;
      }
      Thread.sleep(50);
    }
    return -1;
  }
}
