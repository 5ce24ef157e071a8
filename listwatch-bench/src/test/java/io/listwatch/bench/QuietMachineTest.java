package io.listwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which of the kernel's threads {@code --quiet-machine} moves to the idle class, read from a /proc. */
class QuietMachineTest {

  /** A /proc/PID/stat line of a kernel thread with scheduling policy {@code policy} (its 41st field). */
  private static String stat(long pid, String comm, int policy) {
    StringBuilder line = new StringBuilder(pid + " (" + comm + ") I 2");
    for (int field = 5; field <= 52; field++) {
      line.append(' ').append(field == 41 ? policy : 0);
    }
    return line.append('\n').toString();
  }

  private static void process(Path proc, long pid, String comm, int policy) throws Exception {
    Files.createDirectories(proc.resolve(String.valueOf(pid)));
    Files.writeString(proc.resolve(pid + "/stat"), stat(pid, comm, policy));
  }

  @Test
  void policy_isTheStatLinesFortyFirstField_evenWithSpacesAndParenthesesInTheName() {
    assertThat(QuietMachine.policy(stat(78, "kdamond.0", QuietMachine.SCHED_IDLE))).isEqualTo(5);
    assertThat(QuietMachine.policy(stat(9, "a (b) c", QuietMachine.SCHED_OTHER))).isZero();
    // this machine's kdamond.0 in SCHED_OTHER, as read; its 39th field (the CPU it last ran on) is 0 too
    assertThat(QuietMachine.policy("78 (kdamond.0) I 2 0 0 0 -1 2129984 0 0 0 0 0 981 0 0 20 0 1 0 120 0 0 "
        + "18446744073709551615 0 0 0 0 0 0 0 2147483647 0 1 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 0")).isZero();
    assertThat(QuietMachine.policy("78 (kdamond.0) I 2 0 0 0 -1 2129984 0 0 0 0 0 981 0 0 20 0 1 0 120 0 0 "
        + "18446744073709551615 0 0 0 0 0 0 0 2147483647 0 1 0 0 17 1 0 5 0 0 0 0 0 0 0 0 0 0")).isEqualTo(5);
  }

  @Test
  void kdamonds_areTheDamonThreadsInTheOrdinaryClass_only(@TempDir Path proc) throws Exception {
    process(proc, 78, "kdamond.0", QuietMachine.SCHED_OTHER);
    process(proc, 79, "kdamond.1", QuietMachine.SCHED_IDLE); // already idle: left as it is, not restored to other
    process(proc, 80, "kworker/0:1", QuietMachine.SCHED_OTHER);
    process(proc, 1234, "java", QuietMachine.SCHED_OTHER);
    Files.createDirectories(proc.resolve("self"));
    Files.createDirectories(proc.resolve("81")); // ended while listed: no stat

    assertThat(QuietMachine.kdamonds(proc)).containsExactly(78L);
  }
}
