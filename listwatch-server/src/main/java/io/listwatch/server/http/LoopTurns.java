package io.listwatch.server.http;

import io.netty.channel.EventLoop;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The turns an event loop gives its bulk writers: lists written a chunk at a time
 * ({@link ListStreamWriter}) and watches with a backlog of initial or replayed events
 * ({@link ChunkedWatchSink#nextTurn}, {@link WebSocketWatchSink#nextTurn}). A writer asks for a
 * turn, writes about 256 KiB in it, and asks again; the loop runs the turns round robin, in the
 * order asked for, and between two passes of turns it serves its connections.
 *
 * <p>A pass runs turns for at most {@link #PASS_NANOS} (always at least one), and only those asked
 * for before it began: so what a request on the loop waits for the loop is bounded by a pass,
 * however many lists and watches the loop is writing. A pass that gave every writer a turn
 * instead grew with their number: 32 lists of a flood in flight on one loop made passes of 8 MiB
 * of copying and encrypting, and a light user's GET on the same loop waited one of them, about
 * 15 ms at the median ({@code bench apf}).
 *
 * <p>A pass that leaves turns waiting ends by yielding the loop's CPU ({@link Thread#yield}):
 * an event loop writing lists back to back never sleeps, and on a core it shares (with the
 * server's other loops, when a container gives the server fewer cores than loops, or with
 * other processes) a thread that wakes there, such as another loop with a request to read,
 * otherwise waits until the kernel next looks, at its next tick (4 ms at 250 Hz). With the
 * yield it waits at most a pass. A yield with nothing else to run returns at once.
 *
 * <p>One instance per event loop ({@link #ask} finds it); a turn is asked for and run on that loop only, so
 * an instance needs no locking. The map from loops to instances is shared and synchronized.
 */
final class LoopTurns {

  private static final Logger LOG = LoggerFactory.getLogger(LoopTurns.class);

  /** The longest a pass of turns goes on before the loop serves its connections again. */
  static final long PASS_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  /** Weak keys: a loop's turns go with it (the instance does not refer to its loop). */
  private static final Map<EventLoop, LoopTurns> BY_LOOP = Collections.synchronizedMap(new WeakHashMap<>());

  private final LongSupplier nanoTime;
  private final Runnable yield;
  private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
  private boolean passScheduled;

  /** Turns timed by {@code nanoTime}; {@code yield} gives the CPU away after a pass that leaves some waiting. */
  LoopTurns(LongSupplier nanoTime, Runnable yield) {
    this.nanoTime = nanoTime;
    this.yield = yield;
  }

  /**
   * Runs {@code turn} on {@code loop} after the loop's next pass over its connections, once the
   * turns asked for before it have run. Call on {@code loop}.
   */
  static void ask(EventLoop loop, Runnable turn) {
    BY_LOOP.computeIfAbsent(loop, l -> new LoopTurns(System::nanoTime, Thread::yield)).add(loop, turn);
  }

  /** {@link #ask} on this instance, which must be {@code loop}'s only one. */
  void add(EventLoop loop, Runnable turn) {
    waiting.add(turn);
    if (!passScheduled) {
      passScheduled = true;
      // a task scheduled with no delay runs after the loop's next pass over its connections;
      // one submitted with execute() could run in this pass, before any of them
      loop.schedule(() -> pass(loop), 0, TimeUnit.NANOSECONDS);
    }
  }

  /** How many turns are waiting (for tests and diagnostics). */
  int waiting() {
    return waiting.size();
  }

  private void pass(EventLoop loop) {
    passScheduled = false;
    long start = nanoTime.getAsLong();
    int asked = waiting.size(); // a turn asked for during this pass waits for the next
    try {
      for (int i = 0; i < asked; i++) {
        Runnable turn = waiting.poll();
        try {
          turn.run();
        } catch (RuntimeException e) {
          LOG.warn("a turn of a list or watch failed", e); // the writer's own handling ends it
        }
        if (nanoTime.getAsLong() - start >= PASS_NANOS) {
          break;
        }
      }
    } finally {
      // even after an Error out of a turn, the others still get theirs
      if (!waiting.isEmpty() && !passScheduled) {
        passScheduled = true;
        loop.schedule(() -> pass(loop), 0, TimeUnit.NANOSECONDS);
      }
    }
    if (!waiting.isEmpty()) {
      yield.run();
    }
  }
}
