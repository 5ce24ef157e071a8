package io.listwatch.client.workqueue;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** The bound on the tests' waits ({@code Await.until(what, TIMEOUT, ...)}), and gets on their own threads. */
final class Waits {

  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private Waits() {}

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
