package io.listwatch.client.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.clock.FakeClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class RateLimitingQueueTest {

  private final FakeClock clock = new FakeClock();
  private final RateLimitingQueue<String> queue =
      RateLimitingQueue.builder(
              RateLimiters.<String>itemExponentialFailure(Duration.ofSeconds(1), Duration.ofMinutes(1)))
          .name("replicasets")
          .clock(clock)
          .build();

  @Test
  void addRateLimited_waitsTheLimitersDelay_whichGrowsPerRequeue() throws Exception {
    queue.addRateLimited("a");
    assertThat(queue.numRequeues("a")).isEqualTo(1);
    clock.advance(Duration.ofMillis(999));
    assertThat(queue.len()).isZero();
    clock.advance(Duration.ofMillis(1));
    assertThat(queue.get()).contains("a");

    queue.addRateLimited("a");
    queue.done("a");
    clock.advance(Duration.ofMillis(1999));
    assertThat(queue.len()).isZero();
    clock.advance(Duration.ofMillis(1));
    assertThat(queue.get()).contains("a");
    assertThat(queue.numRequeues("a")).isEqualTo(2);
    assertThat(queue.metrics().retries()).isEqualTo(2);
  }

  @Test
  void forget_resetsTheBackoff() throws Exception {
    queue.addRateLimited("a");
    queue.addRateLimited("a");
    queue.forget("a");
    assertThat(queue.numRequeues("a")).isZero();

    queue.addRateLimited("a");
    clock.advance(Duration.ofSeconds(1));

    assertThat(queue.len()).isEqualTo(1);
  }

  @Test
  void defaultControllerRateLimiter_firstRetryWaitsFiveMillis() throws Exception {
    RateLimitingQueue<String> controllerQueue =
        RateLimitingQueue.builder(RateLimiters.<String>defaultControllerRateLimiter(clock))
            .name("deployments")
            .clock(clock)
            .build();

    controllerQueue.addRateLimited("default/web");
    clock.advance(Duration.ofMillis(4));
    assertThat(controllerQueue.len()).isZero();
    clock.advance(Duration.ofMillis(1));

    assertThat(controllerQueue.get()).contains("default/web");
    assertThat(controllerQueue.name()).isEqualTo("deployments");
  }
}
