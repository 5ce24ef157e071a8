package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An event loop's bulk writers (lists, watch backlogs) take turns round robin, and a pass of
 * turns is bounded in time, however many writers there are: the loop's connections are served
 * between passes. Each {@code runScheduledPendingTasks} of the embedded channel is one pass of
 * the loop: a pass scheduled during it runs in the next.
 */
class LoopTurnsTest {

  private final EmbeddedChannel channel = new EmbeddedChannel();
  private final EventLoop loop = channel.eventLoop();
  private final AtomicLong now = new AtomicLong();
  private final AtomicLong yields = new AtomicLong();
  private final LoopTurns turns = new LoopTurns(now::get, yields::incrementAndGet);
  private final List<String> ran = new ArrayList<>();

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
  }

  /** A writer that needs {@code count} turns, each taking {@code nanos}, asking for the next at the end of each. */
  private void writer(String name, int count, long nanos) {
    turns.add(loop, new Runnable() {
      int left = count;

      @Override
      public void run() {
        ran.add(name);
        now.addAndGet(nanos);
        if (--left > 0) {
          turns.add(loop, this);
        }
      }
    });
  }

  @Test
  void writers_takeTurnsRoundRobin_inTheOrderTheyAsked_onePerPass() {
    writer("a", 3, 0);
    writer("b", 3, 0);
    writer("c", 2, 0);
    assertThat(ran).as("a turn waits for the loop's next pass over its connections").isEmpty();

    channel.runScheduledPendingTasks();
    assertThat(ran).containsExactly("a", "b", "c");
    assertThat(turns.waiting()).as("a turn asked for during a pass waits for the next").isEqualTo(3);

    channel.runScheduledPendingTasks();
    assertThat(ran).containsExactly("a", "b", "c", "a", "b", "c");
    channel.runScheduledPendingTasks();
    assertThat(ran).containsExactly("a", "b", "c", "a", "b", "c", "a", "b");
    assertThat(turns.waiting()).isZero();
  }

  @Test
  void aPassThatLeavesTurnsWaiting_givesTheCpuAway_andTheLastPassDoesNot() {
    writer("a", 2, 0);
    writer("b", 1, 0);

    channel.runScheduledPendingTasks();
    assertThat(yields).as("a's second turn waits: other threads may run first").hasValue(1);
    channel.runScheduledPendingTasks();
    assertThat(ran).containsExactly("a", "b", "a");
    assertThat(yields).as("nothing left to write: the loop goes back to its connections").hasValue(1);
  }

  @Test
  void aPass_endsOnceItsTimeIsSpent_andTheRestGoInTheNextPasses() {
    long turn = LoopTurns.PASS_NANOS * 6 / 10; // two turns spend a pass
    for (String name : List.of("a", "b", "c", "d", "e")) {
      writer(name, 1, turn);
    }

    channel.runScheduledPendingTasks();
    assertThat(ran).containsExactly("a", "b");
    channel.runScheduledPendingTasks();
    assertThat(ran).containsExactly("a", "b", "c", "d");
    channel.runScheduledPendingTasks();
    assertThat(ran).containsExactly("a", "b", "c", "d", "e");
    assertThat(turns.waiting()).isZero();
  }

  @Test
  void aTurnLongerThanAPass_stillRuns_oneAPass() {
    writer("long", 2, TimeUnit.MILLISECONDS.toNanos(50));
    writer("short", 1, 0);

    channel.runScheduledPendingTasks();
    assertThat(ran).containsExactly("long");
    channel.runScheduledPendingTasks();
    assertThat(ran).containsExactly("long", "short", "long");
  }

  @Test
  void anErrorOutOfATurn_leavesTheOthersTheirTurns() {
    turns.add(loop, () -> {
      throw new OutOfMemoryError("a chunk could not be allocated");
    });
    writer("b", 1, 0);

    channel.runScheduledPendingTasks(); // the loop logs the Error, as Netty's loops do
    assertThat(ran).isEmpty();
    channel.runScheduledPendingTasks();
    assertThat(ran).containsExactly("b");
  }

  @Test
  void aFailingTurn_doesNotStopTheOthers() {
    turns.add(loop, () -> {
      throw new IllegalStateException("boom");
    });
    writer("b", 1, 0);

    channel.runScheduledPendingTasks();
    assertThat(ran).containsExactly("b");
  }
}
