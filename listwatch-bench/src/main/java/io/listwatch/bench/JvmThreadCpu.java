package io.listwatch.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The CPU a JVM's threads have used so far (a child's, by pid), split by what they do: the JIT
 * compilers ({@code C1/C2 CompilerThread}), the garbage collector (G1's {@code GC Thread},
 * {@code G1 ...}; ZGC's {@code Z...}; Serial and Parallel run in {@code GC Thread} or the VM
 * thread, counted with the rest), and the rest (request handling, storage, timers). Read from
 * Linux's {@code /proc/<pid>/task/<tid>/{comm,stat}}; threads that ended are not counted, so the
 * split of a difference of two snapshots is approximate when threads come and go (the JVM keeps
 * its compiler and GC threads; a few of them start and stop with load). All -1 when not
 * readable (not Linux, no such process).
 *
 * <p>Immutable snapshots; take one with {@link #of(long)} before and one after.
 */
public record JvmThreadCpu(long jitTicks, long gcTicks, long otherTicks) {

  /** A snapshot of process {@code pid}'s threads now. */
  public static JvmThreadCpu of(long pid) {
    Map<String, Long> byName = byThreadName(pid);
    if (byName.isEmpty()) {
      return new JvmThreadCpu(-1, -1, -1);
    }
    long jit = 0;
    long gc = 0;
    long other = 0;
    for (Map.Entry<String, Long> t : byName.entrySet()) {
      String name = t.getKey();
      if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
        jit += t.getValue();
      } else if (isGc(name)) {
        gc += t.getValue();
      } else {
        other += t.getValue();
      }
    }
    return new JvmThreadCpu(jit, gc, other);
  }

  /**
   * The CPU ticks so far of process {@code pid}'s live threads, added up by thread name (Linux's
   * {@code comm}: the first 15 characters of the name); empty when not readable.
   */
  public static Map<String, Long> byThreadName(long pid) {
    Map<String, Long> ticks = new HashMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks.toList()) {
        try {
          ticks.merge(Files.readString(task.resolve("comm")).strip(),
              CpuMonitor.ticksOfStat(Files.readString(task.resolve("stat"))), Long::sum);
        } catch (IOException | RuntimeException e) {
          continue; // the thread ended meanwhile
        }
      }
    } catch (IOException | RuntimeException e) {
      return Map.of();
    }
    return ticks;
  }

  /** Whether the thread named {@code name} ({@code comm}) is a garbage collector's. */
  public static boolean isGc(String name) {
    return name.startsWith("GC Thread") || name.startsWith("G1 ") || name.startsWith("Z")
        || name.startsWith("Shenandoah");
  }

  /** The ticks used from {@code start} to this snapshot, by kind; -1 each if either is unknown. */
  public JvmThreadCpu since(JvmThreadCpu start) {
    if (jitTicks < 0 || start.jitTicks < 0) {
      return new JvmThreadCpu(-1, -1, -1);
    }
    return new JvmThreadCpu(jitTicks - start.jitTicks, gcTicks - start.gcTicks, otherTicks - start.otherTicks);
  }

  /** This difference plus {@code more}; -1 each if either is unknown. */
  public JvmThreadCpu plus(JvmThreadCpu more) {
    if (jitTicks < 0 || more.jitTicks < 0) {
      return new JvmThreadCpu(-1, -1, -1);
    }
    return new JvmThreadCpu(jitTicks + more.jitTicks, gcTicks + more.gcTicks, otherTicks + more.otherTicks);
  }
}
