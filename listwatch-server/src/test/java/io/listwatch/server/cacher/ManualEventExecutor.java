package io.listwatch.server.cacher;

import io.netty.util.concurrent.AbstractEventExecutor;
import io.netty.util.concurrent.DefaultPromise;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * An event loop that runs nothing by itself: tasks wait in a queue until the test calls
 * {@link #runPending()} on its own thread, so what a drain writes, and when, is decided by the
 * test (like OkHttp's fake task runner). Thread-safe: any thread may submit.
 */
final class ManualEventExecutor extends AbstractEventExecutor {

  private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  private final Future<?> termination = new DefaultPromise<Void>(ImmediateEventExecutor.INSTANCE);

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

  @Override
  public boolean inEventLoop(Thread thread) {
    return true;
  }

  @Override
  public boolean isShuttingDown() {
    return false;
  }

  @Override
  public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
    return termination;
  }

  @Override
  public Future<?> terminationFuture() {
    return termination;
  }

  @Override
  @Deprecated
  public void shutdown() {
  }

  @Override
  public boolean isShutdown() {
    return false;
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return false;
  }
}
