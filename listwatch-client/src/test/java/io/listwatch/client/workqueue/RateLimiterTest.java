package io.listwatch.client.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.clock.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateLimiterTest {

  private final FakeClock clock = new FakeClock();

  private static List<Duration> delays(RateLimiter<String> limiter, String item, int times) {
    List<Duration> delays = new ArrayList<>();
    for (int i = 0; i < times; i++) {
      delays.add(limiter.when(item));
    }
    return delays;
  }

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }

  @Test
  void itemExponentialFailure_doublesPerFailure_upToTheCap() {
    RateLimiter<String> limiter = RateLimiters.itemExponentialFailure(ms(5), ms(100));

    assertThat(delays(limiter, "a", 7))
        .containsExactly(ms(5), ms(10), ms(20), ms(40), ms(80), ms(100), ms(100));
    assertThat(limiter.numRequeues("a")).isEqualTo(7);
  }

  @Test
  void itemExponentialFailure_countsEachItemOnItsOwn_andForgetResets() {
    RateLimiter<String> limiter = RateLimiters.itemExponentialFailure(ms(1), Duration.ofSeconds(1));
    limiter.when("a");
    limiter.when("a");

    assertThat(limiter.when("b")).isEqualTo(ms(1));
    assertThat(limiter.when("a")).isEqualTo(ms(4));

    limiter.forget("a");
    assertThat(limiter.numRequeues("a")).isZero();
    assertThat(limiter.when("a")).isEqualTo(ms(1));
    assertThat(limiter.numRequeues("b")).isEqualTo(1);
  }

  @Test
  void itemExponentialFailure_neverOverflows_pastSixtyThreeFailures() {
    Duration max = Duration.ofDays(365L * 50);
    RateLimiter<String> limiter = RateLimiters.itemExponentialFailure(Duration.ofNanos(1), max);

    List<Duration> delays = delays(limiter, "a", 200);

    assertThat(delays.get(0)).isEqualTo(Duration.ofNanos(1));
    assertThat(delays.get(40)).isEqualTo(Duration.ofNanos(1L << 40));
    assertThat(delays).isSorted();
    assertThat(delays.get(199)).isEqualTo(max);
  }

  @Test
  void itemExponentialFailure_rejectsBadDelays() {
    assertThatThrownBy(() -> RateLimiters.itemExponentialFailure(ms(-1), ms(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("baseDelay");
    assertThatThrownBy(() -> RateLimiters.itemExponentialFailure(ms(10), ms(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxDelay");
  }

  @Test
  void bucket_allowsTheBurst_thenSpacesReservationsByOneOverQps() {
    RateLimiter<String> limiter = RateLimiters.bucket(10, 100, clock);

    assertThat(delays(limiter, "any", 100)).containsOnly(Duration.ZERO);
    assertThat(delays(limiter, "any", 3)).containsExactly(ms(100), ms(200), ms(300));
    assertThat(limiter.numRequeues("any")).isZero();
  }

  @Test
  void bucket_refillsWithClockTime_upToTheBurst() {
    RateLimiter<String> limiter = RateLimiters.bucket(10, 5, clock);
    delays(limiter, "x", 7); // 5 free, then owes 2 tokens (200 ms)

    clock.advance(ms(250)); // pays the 200 ms debt, 50 ms towards the next token
    assertThat(limiter.when("x")).isEqualTo(ms(50));

    clock.advance(Duration.ofHours(1)); // refills, but no more than the burst
    assertThat(delays(limiter, "x", 6))
        .containsExactly(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, ms(100));
  }

  @Test
  void bucket_rejectsBadRates() {
    assertThatThrownBy(() -> RateLimiters.bucket(0, 1, clock))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("qps");
    assertThatThrownBy(() -> RateLimiters.bucket(Double.NaN, 1, clock))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("qps");
    assertThatThrownBy(() -> RateLimiters.bucket(1, 0, clock))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("burst");
    assertThatThrownBy(() -> RateLimiters.bucket(1e-12, 1000, clock))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("refill");
  }

  @Test
  void itemFastSlow_isFastForTheFirstAttempts_thenSlow_untilForgotten() {
    RateLimiter<String> limiter = RateLimiters.itemFastSlow(ms(5), Duration.ofSeconds(10), 3);

    assertThat(delays(limiter, "a", 5))
        .containsExactly(ms(5), ms(5), ms(5), Duration.ofSeconds(10), Duration.ofSeconds(10));
    assertThat(limiter.numRequeues("a")).isEqualTo(5);
    assertThat(limiter.when("b")).isEqualTo(ms(5));

    limiter.forget("a");
    assertThat(limiter.when("a")).isEqualTo(ms(5));
  }

  @Test
  void maxOf_picksTheLongestDelay_andForgetsInEveryLimiter() {
    RateLimiter<String> limiter =
        RateLimiters.maxOf(
            RateLimiters.itemExponentialFailure(ms(1), Duration.ofSeconds(1)),
            RateLimiters.itemFastSlow(ms(3), ms(50), 2));

    assertThat(delays(limiter, "a", 6))
        .containsExactly(ms(3), ms(3), ms(50), ms(50), ms(50), ms(50));
    assertThat(limiter.when("a")).isEqualTo(ms(64));
    assertThat(limiter.numRequeues("a")).isEqualTo(7);

    limiter.forget("a");
    assertThat(limiter.numRequeues("a")).isZero();
    assertThat(limiter.when("a")).isEqualTo(ms(3));
  }

  @Test
  void maxOf_needsALimiter() {
    assertThatThrownBy(RateLimiters::<String>maxOf).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void defaultControllerRateLimiter_isExponentialFrom5ms_andTenQpsAfterABurstOf100() {
    RateLimiter<String> limiter = RateLimiters.defaultControllerRateLimiter(clock);

    assertThat(delays(limiter, "a", 3)).containsExactly(ms(5), ms(10), ms(20));
    for (int i = 0; i < 97; i++) {
      assertThat(limiter.when("item-" + i)).isEqualTo(ms(5));
    }
    assertThat(limiter.when("b")).as("101st token: the bucket wins").isEqualTo(ms(100));
    assertThat(limiter.when("a")).isEqualTo(ms(200));

    limiter.forget("a");
    clock.advance(Duration.ofSeconds(10));
    assertThat(limiter.when("a")).isEqualTo(ms(5));
  }

  @Test
  void defaultControllerRateLimiter_capsItemBackoffAt1000Seconds() {
    RateLimiter<String> limiter = RateLimiters.defaultControllerRateLimiter(clock);

    for (int i = 0; i < 30; i++) {
      limiter.when("a");
      clock.advance(Duration.ofSeconds(1));
    }

    assertThat(limiter.when("a")).isEqualTo(Duration.ofSeconds(1000));
  }
}
