package io.listwatch.client.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.clock.Clock;
import io.listwatch.api.clock.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link FakeClock} that also records how long each sleep asks for, so a test can assert
 * a backoff's length and then advance exactly past it. Thread-safe.
 */
final class ReflectorTestClock implements Clock {

  final FakeClock fake = new FakeClock();
  private final BlockingQueue<Duration> sleeps = new LinkedBlockingQueue<>();

  /**
   * Waits (bounded) for the next sleep not yet awaited, and until the sleeper is blocked on
   * the fake clock (so that advancing wakes it); returns its duration.
   */
  Duration awaitSleep() throws InterruptedException {
    Duration duration = sleeps.poll(10, TimeUnit.SECONDS);
    assertThat(duration).as("a sleep within 10s").isNotNull();
    assertThat(fake.awaitWaiters(fake.pendingTasks() + 1, Duration.ofSeconds(10)))
        .as("the sleeper blocked on the clock").isTrue();
    return duration;
  }

  /** Waits for the next sleep and advances the clock past it. */
  Duration awaitSleepAndWake() throws InterruptedException {
    Duration duration = awaitSleep();
    fake.advance(duration);
    return duration;
  }

  /** Sleeps not yet awaited. */
  int unawaitedSleeps() {
    return sleeps.size();
  }

  @Override
  public long nanoTime() {
    return fake.nanoTime();
  }

  @Override
  public Instant now() {
    return fake.now();
  }

  @Override
  public void sleep(Duration duration) throws InterruptedException {
    sleeps.add(duration);
    fake.sleep(duration);
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    return fake.schedule(delay, task);
  }
}
