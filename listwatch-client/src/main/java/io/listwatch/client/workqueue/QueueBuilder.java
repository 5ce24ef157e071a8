package io.listwatch.client.workqueue;

import io.listwatch.api.clock.Clock;
import java.util.Objects;

/**
 * What every queue's builder sets: the queue's name and its clock. {@link WorkQueue.Builder},
 * {@link DelayingQueue.Builder} and {@link RateLimitingQueue.Builder} extend it, each returning
 * itself for chaining. Not thread-safe; build once, then share the queue.
 *
 * @param <B> the concrete builder
 */
public abstract class QueueBuilder<B extends QueueBuilder<B>> {

  String name = QueueNames.DEFAULT;
  Clock clock = Clock.system();

  QueueBuilder() {
  }

  /** The name for logs and metrics; default {@code "workqueue"}. */
  public B name(String name) {
    this.name = QueueNames.require(name);
    return self();
  }

  /**
   * The clock that times delays and metrics; default the system clock. A rate limiter that
   * reads time ({@link RateLimiters#bucket}) has its own clock, usually the same one.
   */
  public B clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return self();
  }

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }
}
