package io.listwatch.bench;

import java.util.List;

/**
 * Pins a process, every thread of it, to some of the machine's CPUs with util-linux's
 * {@code taskset}, so that a server under test and the load generator driving it do not take
 * each other's cores. Threads a pinned process starts later inherit its CPUs.
 *
 * <p>Stateless; thread-safe.
 */
public final class CpuAffinity {

  private CpuAffinity() {
  }

  /**
   * Pins every thread of process {@code pid} to {@code cpus} (taskset's list form, e.g.
   * {@code 1} or {@code 0,2-3}).
   *
   * @throws IllegalStateException when taskset is missing or refuses (an unknown CPU, a bad list)
   */
  public static void pin(long pid, String cpus) {
    UtilLinux.run(List.of("taskset", "--all-tasks", "--pid", "--cpu-list", cpus, String.valueOf(pid)),
        "pin process " + pid + " to CPUs " + cpus);
  }
}
