package io.listwatch.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How much CPU this process and every other process used over a stretch of a benchmark, from
 * Linux's {@code /proc/stat} and {@code /proc/<pid>/stat}, so that a result taken while
 * something else was busy (a build, a test run) says so; and how much the hypervisor took from
 * this machine's CPUs meanwhile (steal time, on a virtual machine: while it is counted, none of
 * this machine's threads runs on that CPU). On other systems every figure is unknown.
 *
 * <p>Immutable snapshots; take one with {@link #now()} before and one after.
 */
public record CpuMonitor(long machineBusyTicks, long machineTotalTicks, long stealTicks, long selfTicks, long nanos,
    int cpus) {

  /** A snapshot of the counters now; all zero if they cannot be read. */
  public static CpuMonitor now() {
    long nanos = System.nanoTime();
    try {
      long selfTicks = processTicks(ProcessHandle.current().pid());
      return selfTicks < 0 ? new CpuMonitor(0, 0, 0, 0, nanos, 1)
          : ofProcStat(Files.readAllLines(Path.of("/proc/stat")), selfTicks, nanos);
    } catch (IOException | RuntimeException e) {
      return new CpuMonitor(0, 0, 0, 0, nanos, 1);
    }
  }

  /**
   * The snapshot {@code /proc/stat}'s lines give. Its CPUs are the machine's ({@code cpuN} lines),
   * not the ones this JVM may run on: a benchmark pinned to one core of two ({@code taskset})
   * still reads the whole machine's ticks. Steal time is not busy: it is no process's.
   */
  static CpuMonitor ofProcStat(List<String> procStat, long selfTicks, long nanos) {
    String[] f = procStat.get(0).trim().split("\\s+");
    // cpu user nice system idle iowait irq softirq steal [guest guest_nice: already in user]
    long busy = 0;
    long total = 0;
    long steal = 0;
    for (int i = 1; i <= Math.min(8, f.length - 1); i++) {
      long v = Long.parseLong(f[i]);
      total += v;
      if (i == 8) {
        steal = v;
      } else if (i != 4 && i != 5) {
        busy += v;
      }
    }
    int cpus = (int) procStat.stream().filter(l -> l.length() > 3 && l.startsWith("cpu")
        && Character.isDigit(l.charAt(3))).count();
    return new CpuMonitor(busy, total, steal, selfTicks, nanos, Math.max(1, cpus));
  }

  /**
   * The CPU process {@code pid} has used so far, in clock ticks (utime + stime from
   * {@code /proc/<pid>/stat}), or -1 if unknown (no such process, not Linux).
   */
  public static long processTicks(long pid) {
    try {
      return ticksOfStat(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** utime + stime of a {@code /proc/<pid>/stat} or {@code /proc/<pid>/task/<tid>/stat} line. */
  static long ticksOfStat(String stat) {
    // Fields after the command name "(...)": state is field 3, utime 14, stime 15.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  /**
   * {@code ticks} of CPU (e.g. a difference of {@link #processTicks}) used between
   * {@code start} and this snapshot, in percent of one core; -1 if unknown.
   */
  public double percentOfCoreSince(CpuMonitor start, long ticks) {
    long total = machineTotalTicks - start.machineTotalTicks;
    return total <= 0 ? -1 : 100.0 * ticks / total * cpus;
  }

  /** Every process's CPU since {@code start}, in percent of one core; -1 if unknown. */
  public double machineBusyPercentSince(CpuMonitor start) {
    return percentOfCoreSince(start, machineBusyTicks - start.machineBusyTicks);
  }

  /** This process's CPU since {@code start}, in percent of one core; -1 if unknown. */
  public double selfPercentSince(CpuMonitor start) {
    return percentOfCoreSince(start, selfTicks - start.selfTicks);
  }

  /**
   * The CPU time the hypervisor took from this machine since {@code start} (steal), in percent of
   * one core, e.g. "5.0%"; "unknown" if unknown. Zero on a machine of its own; on a shared virtual
   * machine it grows when the host is busy, and each tick of it is a stretch in which a thread
   * that was ready to run on that CPU did not.
   */
  public String stolenSince(CpuMonitor start) {
    double pct = percentOfCoreSince(start, stealTicks - start.stealTicks);
    return pct < 0 ? "unknown" : String.format("%.1f%%", pct);
  }

  /** Seconds from {@code start} to this snapshot. */
  public double secondsSince(CpuMonitor start) {
    return (nanos - start.nanos) / 1e9;
  }

  /** This process's CPU since {@code start}, in percent of one core ("150%": 1.5 cores). */
  public String selfSince(CpuMonitor start) {
    double pct = selfPercentSince(start);
    return pct < 0 ? "unknown" : String.format("%.0f%%", pct);
  }

  /**
   * The CPU every other process used since {@code start}, in percent of one core. A few
   * percent is the system's own noise; tens of percent mean the figures are suspect.
   */
  public String othersSince(CpuMonitor start) {
    long others = (machineBusyTicks - start.machineBusyTicks) - (selfTicks - start.selfTicks);
    double pct = percentOfCoreSince(start, Math.max(0, others));
    return pct < 0 ? "unknown" : String.format("%.0f%%", pct);
  }
}
