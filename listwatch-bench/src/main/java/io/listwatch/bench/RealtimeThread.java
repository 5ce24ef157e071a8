package io.listwatch.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Moves the calling thread into Linux's real-time class ({@code SCHED_FIFO}, with util-linux's
 * {@code chrt}) and back: a load generator's few, mostly blocked threads then run the moment they
 * wake, instead of waiting for a busy CPU's current time slice to end, so that a latency they
 * measure is the server's and not their own wait for a CPU. Only the calling thread moves: a
 * whole JVM in that class can starve its own spinning GC threads.
 *
 * <p>Needs the right to change scheduling policy ({@code CAP_SYS_NICE}, e.g. root). Stateless;
 * thread-safe; each call acts on its caller only.
 */
public final class RealtimeThread {

  private RealtimeThread() {
  }

  /** The calling thread's Linux thread id. */
  public static long currentTid() {
    try {
      // /proc/thread-self links to <pid>/task/<tid> for whichever thread reads it
      Path link = Files.readSymbolicLink(Path.of("/proc/thread-self"));
      return Long.parseLong(link.getFileName().toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read this thread's id from /proc/thread-self", e);
    }
  }

  /**
   * Puts the calling thread in {@code SCHED_FIFO} at {@code priority} (1, the lowest, is enough
   * to run before every ordinary thread).
   *
   * @throws IllegalStateException when chrt is missing or refuses (no right to, a bad priority)
   */
  public static void enter(int priority) {
    long tid = currentTid();
    UtilLinux.run(List.of("chrt", "--fifo", "--pid", String.valueOf(priority), String.valueOf(tid)),
        "put thread " + tid + " in SCHED_FIFO");
  }

  /** Puts the calling thread back in the ordinary class ({@code SCHED_OTHER}). */
  public static void leave() {
    long tid = currentTid();
    UtilLinux.run(List.of("chrt", "--other", "--pid", "0", String.valueOf(tid)),
        "put thread " + tid + " back in SCHED_OTHER");
  }
}
