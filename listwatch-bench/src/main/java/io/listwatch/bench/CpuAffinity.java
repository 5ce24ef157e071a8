package io.listwatch.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Pins a process, every thread of it, to some of the machine's CPUs with util-linux's
 * {@code taskset} (and may start it in the idle scheduling class with {@code chrt}), so that a
 * server under test and the load generator driving it do not take each other's cores. Threads
 * a pinned process starts later inherit its CPUs, and so do the processes it starts: to size
 * itself for its own CPUs (its GC and JIT threads, Netty's event loops), a child is started on
 * them ({@link #launcher}) rather than pinned after it started.
 *
 * <p>Stateless; thread-safe.
 */
public final class CpuAffinity {

  private CpuAffinity() {
  }

  /**
   * The command prefix that starts a program on {@code cpus} (taskset's list form) from its first
   * instruction, {@code taskset --cpu-list cpus}; none when {@code cpus} is null (not pinned).
   * The prefix execs the program, so the process's pid is the program's.
   */
  public static List<String> launcher(String cpus) {
    return cpus == null ? List.of() : List.of("taskset", "--cpu-list", cpus);
  }

  /**
   * The command prefix that starts a program on {@code cpus} as {@link #launcher(String)} does and,
   * when {@code idleClass}, in Linux's {@code SCHED_IDLE} scheduling class ({@code chrt --idle 0},
   * inherited by every thread it starts): it then runs only on CPU that no thread of another class
   * on its cores wants, and such a thread waking there preempts it rather than wait out its time
   * slice. The prefix execs the program, so the process's pid is the program's.
   */
  public static List<String> launcher(String cpus, boolean idleClass) {
    List<String> prefix = new ArrayList<>(idleClass ? List.of("chrt", "--idle", "0") : List.of());
    prefix.addAll(launcher(cpus));
    return List.copyOf(prefix);
  }

  /** The machine's online CPUs in taskset's list form (e.g. {@code 0-1}), whatever this process is pinned to. */
  public static String online() {
    try {
      return Files.readString(Path.of("/sys/devices/system/cpu/online")).strip();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the machine's online CPUs", e);
    }
  }

  /**
   * Pins every thread of process {@code pid} to {@code cpus} (taskset's list form, e.g.
   * {@code 1} or {@code 0,2-3}).
   *
   * @throws IllegalStateException when taskset is missing or refuses (an unknown CPU, a bad list)
   */
  public static void pin(long pid, String cpus) {
    run(List.of("taskset", "--all-tasks", "--pid", "--cpu-list", cpus, String.valueOf(pid)),
        "pin process " + pid + " to CPUs " + cpus);
  }

  /**
   * Runs {@code command} (a util-linux tool: taskset, chrt) to {@code purpose} and waits up to
   * 30 s for it to end.
   *
   * @throws IllegalStateException when it is missing, fails (its output in the message) or hangs
   */
  static void run(List<String> command, String purpose) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " did not end within 30 s");
      }
      if (p.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", command) + " failed (exit " + p.exitValue() + "): " + output);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command.get(0) + " (util-linux) to " + purpose + ": "
          + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while trying to " + purpose, e);
    }
  }
}
