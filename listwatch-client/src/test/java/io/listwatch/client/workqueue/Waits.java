package io.listwatch.client.workqueue;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Bounded waits for something to happen, and gets on their own threads, for the tests. */
final class Waits {

  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private Waits() {}

  /** Waits until {@code condition} holds; fails the test after {@link #TIMEOUT}. */
  static void until(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out waiting until " + what);
      }
      LockSupport.parkNanos(Duration.ofMillis(1).toNanos());
    }
  }

  /** Calls {@code queue.get()} on a new thread named {@code name}. */
  static <T> CompletableFuture<Optional<T>> getAsync(WorkQueue<T> queue, String name) {
    CompletableFuture<Optional<T>> result = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        result.complete(queue.get());
      } catch (Throwable e) {
        result.completeExceptionally(e);
      }
    }, name);
    thread.setDaemon(true);
    thread.start();
    return result;
  }
}
