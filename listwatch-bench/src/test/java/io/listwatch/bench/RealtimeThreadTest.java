package io.listwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

public class RealtimeThreadTest {

  /** The scheduling policy (0 ordinary, 1 SCHED_FIFO) and real-time priority of thread {@code tid} of this JVM. */
  public static int[] policyAndPriority(long tid) throws Exception {
    String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
    // fields after the command's closing parenthesis start at field 3 (state); 40 is rt_priority, 41 policy
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return new int[] {Integer.parseInt(f[41 - 3]), Integer.parseInt(f[40 - 3])};
  }

  @Test
  void entersSchedFifo_andLeavesIt_forTheCallingThreadOnly() throws Exception {
    long main = RealtimeThread.currentTid();
    CompletableFuture<int[][]> seen = CompletableFuture.supplyAsync(() -> {
      try {
        long tid = RealtimeThread.currentTid();
        RealtimeThread.enter(1);
        int[] inside = policyAndPriority(tid);
        int[] other = policyAndPriority(main);
        RealtimeThread.leave();
        return new int[][] {inside, other, policyAndPriority(tid)};
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }, r -> Thread.ofPlatform().start(r));
    int[][] s = seen.get(30, TimeUnit.SECONDS);
    assertThat(s[0]).as("SCHED_FIFO, priority 1").containsExactly(1, 1);
    assertThat(s[1]).as("the other thread stays ordinary").containsExactly(0, 0);
    assertThat(s[2]).as("back to SCHED_OTHER").containsExactly(0, 0);
  }

  @Test
  void aPriorityOutOfRange_isAClearError_andChangesNothing() throws Exception {
    long tid = RealtimeThread.currentTid();
    assertThatThrownBy(() -> RealtimeThread.enter(100)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("chrt");
    assertThat(policyAndPriority(tid)).containsExactly(0, 0);
  }
}
