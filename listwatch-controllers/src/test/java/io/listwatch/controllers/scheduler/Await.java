package io.listwatch.controllers.scheduler;

import static org.assertj.core.api.Assertions.fail;

import java.util.function.BooleanSupplier;

/** A bounded wait for a condition the scheduler's threads make true. */
final class Await {

  private Await() {
  }

  static void until(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("not within 30 s: " + what);
      }
      Thread.sleep(10);
    }
  }
}
