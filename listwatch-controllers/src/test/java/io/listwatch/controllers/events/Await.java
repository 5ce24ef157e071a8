package io.listwatch.controllers.events;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits, at most a bound, for something that happens on another thread. */
final class Await {

  private Await() {}

  /** Polls {@code condition} every 10 ms until it holds; fails after {@code bound}. */
  static void until(Duration bound, String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + bound + " waiting for " + what);
      }
      Thread.sleep(10);
    }
  }
}
