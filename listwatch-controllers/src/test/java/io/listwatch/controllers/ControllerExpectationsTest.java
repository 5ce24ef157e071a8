package io.listwatch.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.clock.FakeClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ControllerExpectationsTest {

  private final FakeClock clock = new FakeClock();
  private final ControllerExpectations expectations = new ControllerExpectations(clock);

  @Test
  void nothingRecorded_isSatisfied() {
    assertThat(expectations.satisfiedExpectations("ns/web")).isTrue();
    assertThat(expectations.pending("ns/web")).isEmpty();
  }

  @Test
  void creations_areSatisfiedOnceAllAreObserved() {
    expectations.expectCreations("ns/web", 2);
    expectations.creationObserved("ns/web");
    assertThat(expectations.satisfiedExpectations("ns/web")).isFalse();

    expectations.creationObserved("ns/web");
    assertThat(expectations.satisfiedExpectations("ns/web")).isTrue();
  }

  @Test
  void deletions_countEachExpectedPodOnce_andIgnoreOthers() {
    expectations.expectDeletions("ns/web", List.of("ns/a", "ns/b"));
    expectations.deletionObserved("ns/web", "ns/a");
    expectations.deletionObserved("ns/web", "ns/a"); // the same pod seen twice (graceful, then gone)
    expectations.deletionObserved("ns/web", "ns/unrelated");
    assertThat(expectations.satisfiedExpectations("ns/web")).isFalse();
    assertThat(expectations.pending("ns/web").orElseThrow()).isEqualTo(new ControllerExpectations.Pending(0, 1));

    expectations.deletionObserved("ns/web", "ns/b");
    assertThat(expectations.satisfiedExpectations("ns/web")).isTrue();
  }

  @Test
  void expectationsNeverObserved_expireAfterTheTtl() {
    expectations.expectCreations("ns/web", 1);
    clock.advance(ControllerExpectations.EXPECTATIONS_TTL);
    assertThat(expectations.satisfiedExpectations("ns/web")).isFalse();

    clock.advance(Duration.ofNanos(1));
    assertThat(expectations.satisfiedExpectations("ns/web")).isTrue();
  }

  @Test
  void deleteExpectations_forgetsTheKey() {
    expectations.expectCreations("ns/web", 3);
    expectations.deleteExpectations("ns/web");
    assertThat(expectations.satisfiedExpectations("ns/web")).isTrue();
  }
}
