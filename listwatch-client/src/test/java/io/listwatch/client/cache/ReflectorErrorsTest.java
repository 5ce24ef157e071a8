package io.listwatch.client.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReflectorErrorsTest {

  @Test
  void formatDuration_printsAsGoDoes() {
    assertThat(ReflectorErrors.formatDuration(Duration.ofMinutes(2))).isEqualTo("2m0s");
    assertThat(ReflectorErrors.formatDuration(Duration.ofSeconds(90))).isEqualTo("1m30s");
    assertThat(ReflectorErrors.formatDuration(Duration.ofHours(1))).isEqualTo("1h0m0s");
    assertThat(ReflectorErrors.formatDuration(Duration.ofMillis(1500))).isEqualTo("1.5s");
    assertThat(ReflectorErrors.formatDuration(Duration.ofMillis(800))).isEqualTo("800ms");
    assertThat(ReflectorErrors.formatDuration(Duration.ofMillis(61250))).isEqualTo("1m1.25s");
    assertThat(ReflectorErrors.formatDuration(Duration.ZERO)).isEqualTo("0s");
  }

  @Test
  void describe_namesStatusCodesAndConnectionErrors() {
    assertThat(ReflectorErrors.describe(StatusException.expired("too old"))).isEqualTo("410 Expired");
    assertThat(ReflectorErrors.describe(
        new UncheckedIOException(new ConnectException("Connection refused"))))
        .isEqualTo("connection error: Connection refused");
    assertThat(ReflectorErrors.describe(new IOException())).isEqualTo("connection error: IOException");
  }

  @Test
  void tooLargeResourceVersion_isRecognized_asAnUnavailableVersion() {
    StatusException tooLarge = StatusException.tooLargeResourceVersion(20, 10);
    assertThat(ReflectorErrors.isResourceVersionUnavailable(tooLarge)).isTrue();
    assertThat(ReflectorErrors.retryAfter(tooLarge)).contains(Duration.ofSeconds(1));
    assertThat(ReflectorErrors.isResourceVersionUnavailable(
        new StatusException(Status.failure(504, Reasons.TIMEOUT, "request timed out", null))))
        .isFalse();
    assertThat(ReflectorErrors.isResourceVersionUnavailable(StatusException.expired("gone")))
        .isTrue();
  }

  @Test
  void watchListRejection_isA4xxOtherThanExpiredAndTooManyRequests() {
    assertThat(ReflectorErrors.isWatchListRejected(StatusException.badRequest("no"))).isTrue();
    assertThat(ReflectorErrors.isWatchListRejected(StatusException.expired("old"))).isFalse();
    assertThat(ReflectorErrors.isWatchListRejected(
        new StatusException(Status.failure(429, Reasons.TOO_MANY_REQUESTS, "slow", null))))
        .isFalse();
    assertThat(ReflectorErrors.isWatchListRejected(StatusException.internal("x"))).isFalse();
  }
}
