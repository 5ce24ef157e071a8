package io.listwatch.bench;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Two settings of this Linux machine held for a benchmark's run, the same for each of its
 * measures, and given back on {@link #close()}: what the machine does when it has nothing to do,
 * so that a tail latency is the system's under test rather than the machine's.
 * <ul>
 *   <li>its idle CPUs poll instead of halting: a PM QoS request of 0 µs through
 *       {@code /dev/cpu_dma_latency}, held while the file is open. On a virtual machine a halted
 *       CPU is woken through the host, which added milliseconds to a quiet GET's tail;
 *   <li>its DAMON threads ({@code kdamond.N}, the kernel's memory-access monitor, which this
 *       machine runs for proactive reclaim) in {@code SCHED_IDLE}: each wakes every half second
 *       and runs 3-7 ms at the priority of every other thread, so that a GET waiting for that CPU
 *       waited for it. In the idle class it runs only on CPU nothing else wants, once it reaches a
 *       point where the kernel may preempt it: on a kernel built without full preemption
 *       ({@code PREEMPT_NONE}, as here) it still holds its CPU until then.
 * </ul>
 * Not the default: a kernel thread in the idle class that holds a lock another thread needs
 * keeps that thread waiting while it waits for CPU, and one run with it had a GET of 4.8 s
 * that nothing else explained (docs/reliability.md).
 * Both need root (or {@code CAP_SYS_NICE} and write access to the device).
 *
 * <p>Thread-safe: {@link #close()} and the shutdown hook that stands in for it when the JVM is
 * stopped first give the settings back once between them.
 */
public final class QuietMachine implements AutoCloseable {

  /** SCHED_OTHER and SCHED_IDLE, as {@code /proc/<pid>/stat} numbers them. */
  static final int SCHED_OTHER = 0;
  static final int SCHED_IDLE = 5;

  private final FileOutputStream latency;
  private final List<Long> idled;
  /** Gives the settings back when the JVM is stopped (Ctrl-C, SIGTERM) before {@link #close()}. */
  private final Thread onExit = new Thread(this::giveBack, "quiet-machine-exit");
  private boolean given;

  private QuietMachine(FileOutputStream latency, List<Long> idled) {
    this.latency = latency;
    this.idled = idled;
    Runtime.getRuntime().addShutdownHook(onExit);
  }

  /**
   * Holds both settings until {@link #close()}.
   *
   * @throws IllegalStateException when either cannot be set (not root, not Linux); nothing is
   *     left changed then
   */
  public static QuietMachine hold() {
    FileOutputStream latency;
    try {
      latency = new FileOutputStream("/dev/cpu_dma_latency");
      latency.write(new byte[4]); // a 32-bit 0: no idle state with an exit latency above 0 µs
      latency.flush();
    } catch (IOException e) {
      throw new IllegalStateException("cannot hold /dev/cpu_dma_latency at 0 (root is needed): " + e.getMessage(), e);
    }
    List<Long> idled = new ArrayList<>();
    try {
      for (long pid : kdamonds(Path.of("/proc"))) {
        chrt("--idle", pid);
        idled.add(pid);
      }
    } catch (RuntimeException e) {
      new QuietMachine(latency, idled).close();
      throw e;
    }
    return new QuietMachine(latency, idled);
  }

  /** What is held, for a report: "idle CPUs poll (...); DAMON's threads (pids [78]) in SCHED_IDLE". */
  public String describe() {
    return "idle CPUs poll (/dev/cpu_dma_latency held at 0)" + (idled.isEmpty() ? "; no kdamond thread"
        : "; DAMON's threads (pids " + idled + ") in SCHED_IDLE");
  }

  /** The pids of the {@code kdamond.N} threads in SCHED_OTHER under {@code proc} (a /proc). */
  static List<Long> kdamonds(Path proc) {
    List<Long> pids = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(proc, p -> p.getFileName().toString()
        .chars().allMatch(Character::isDigit))) {
      for (Path p : entries) {
        String stat;
        try {
          stat = Files.readString(p.resolve("stat"), StandardCharsets.UTF_8);
        } catch (IOException e) {
          continue; // ended meanwhile
        }
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open || !stat.substring(open + 1, close).startsWith("kdamond")) {
          continue;
        }
        if (policy(stat) == SCHED_OTHER) {
          pids.add(Long.parseLong(p.getFileName().toString()));
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot list " + proc + ": " + e.getMessage(), e);
    }
    return pids;
  }

  /** The scheduling policy in a {@code /proc/<pid>/stat} line (its 41st field). */
  static int policy(String stat) {
    String[] after = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
    return Integer.parseInt(after[38]); // field 3 (state) is after[0]
  }

  private static void chrt(String policy, long pid) {
    CpuAffinity.run(List.of("chrt", policy, "--pid", "0", String.valueOf(pid)),
        "set the scheduling class of process " + pid + " (root is needed)");
  }

  /**
   * Gives both settings back: the CPUs may halt again, DAMON's threads are SCHED_OTHER again.
   * Idempotent.
   */
  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(onExit);
    } catch (IllegalStateException e) {
      // the JVM is stopping: the hook gives them back
    }
    giveBack();
  }

  private synchronized void giveBack() {
    if (given) {
      return;
    }
    given = true;
    for (long pid : idled) {
      try {
        chrt("--other", pid);
      } catch (IllegalStateException e) {
        System.err.println("listwatch bench: " + e.getMessage()); // a thread that ended meanwhile
      }
    }
    idled.clear();
    try {
      latency.close();
    } catch (IOException e) {
      System.err.println("listwatch bench: closing /dev/cpu_dma_latency: " + e.getMessage());
    }
  }
}
