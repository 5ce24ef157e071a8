package io.listwatch.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwaitTest {

  @Test
  void until_returnsAtOnce_whenTheConditionAlreadyHolds() {
    AtomicInteger reads = new AtomicInteger();

    Await.until("it holds", Duration.ofSeconds(5), () -> reads.incrementAndGet() > 0);

    assertThat(reads).hasValue(1);
  }

  @Test
  void until_returnsTheFirstValueAccepted() {
    AtomicInteger counter = new AtomicInteger();

    int seen = Await.until("the counter reaches 5", Duration.ofSeconds(5), counter::incrementAndGet, n -> n >= 5);

    assertThat(seen).isEqualTo(5);
  }

  @Test
  void until_failsAtTheBound_namingWhatWasAwaited_theBound_andTheLastValueSeen() {
    AtomicInteger counter = new AtomicInteger();

    assertThatThrownBy(() -> Await.until("the counter is negative", Duration.ofMillis(200),
        counter::incrementAndGet, n -> n < 0))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("waited 200 ms (")
        .hasMessageContaining("until the counter is negative, in vain; last value seen: " + counter.get());
  }

  @Test
  void until_backsOff_soAShortBoundReadsTheConditionOnlyAFewTimes() {
    AtomicInteger reads = new AtomicInteger();

    assertThatThrownBy(() -> Await.until("never", Duration.ofMillis(300), () -> reads.incrementAndGet() < 0))
        .isInstanceOf(AssertionError.class);

    // pauses of 1, 2, 4, ... 100 ms: about 10 reads in 300 ms, not hundreds
    assertThat(reads.get()).isBetween(3, 20);
  }

  @Test
  void until_letsAnExceptionOfTheConditionThrough() {
    assertThatThrownBy(() -> Await.until("it holds", Duration.ofSeconds(5), () -> {
      throw new IllegalStateException("boom");
    })).isInstanceOf(IllegalStateException.class).hasMessage("boom");
  }

  @Test
  void until_wrapsACheckedExceptionOfTheCondition() {
    assertThatThrownBy(() -> Await.until("it holds", Duration.ofSeconds(5), () -> {
      throw new IOException("refused");
    })).isInstanceOf(AssertionError.class)
        .hasMessage("a read failed while waiting until it holds: java.io.IOException: refused")
        .hasCauseInstanceOf(IOException.class);
  }

  @Test
  void until_isEndedByAnInterrupt_keepingTheInterruptStatus() {
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> Await.until("never", Duration.ofSeconds(5), () -> false))
          .isInstanceOf(AssertionError.class)
          .hasMessage("interrupted while waiting until never");
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void until_refusesABoundThatIsNotPositive() {
    assertThatThrownBy(() -> Await.until("x", Duration.ZERO, () -> true))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void describe_writesBoundsAsAReaderDoes() {
    assertThat(Await.describe(Duration.ofMillis(250))).isEqualTo("250 ms");
    assertThat(Await.describe(Duration.ofMillis(1500))).isEqualTo("1500 ms");
    assertThat(Await.describe(Duration.ofSeconds(15))).isEqualTo("15 s");
    assertThat(Await.describe(Duration.ofSeconds(90))).isEqualTo("90 s");
    assertThat(Await.describe(Duration.ofMinutes(2))).isEqualTo("2 min");
  }
}
