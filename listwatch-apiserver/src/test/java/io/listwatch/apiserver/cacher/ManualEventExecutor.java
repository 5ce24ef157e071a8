package io.listwatch.apiserver.cacher;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;

/**
 * An event loop that runs nothing by itself: tasks wait in a queue until the test calls
 * {@link #runPending()} on its own thread, so what a drain writes, and when, is decided by the
 * test (like OkHttp's fake task runner). Thread-safe: any thread may submit.
 */
final class ManualEventExecutor implements Executor {

  private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();

  @Override
  public void execute(Runnable task) {
    tasks.add(task);
  }

  /** Runs every queued task, including tasks queued meanwhile; returns how many ran. */
  int runPending() {
    int n = 0;
    for (Runnable r; (r = tasks.poll()) != null; n++) {
      r.run();
    }
    return n;
  }

  int pending() {
    return tasks.size();
  }
}
