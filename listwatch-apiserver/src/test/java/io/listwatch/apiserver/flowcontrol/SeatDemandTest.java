package io.listwatch.apiserver.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** A level's seat demand over a period: time-weighted average, standard deviation and peak. */
class SeatDemandTest {

  private static final long S = 1_000_000_000L;

  @Test
  void aPeriod_weighsEachValueByHowLongItHeld() {
    SeatDemand d = new SeatDemand(0);
    d.set(10, 0);
    d.set(30, S);
    SeatDemand.Period p = d.reset(2 * S);
    assertThat(p.seconds()).isEqualTo(2.0);
    assertThat(p.average()).isCloseTo(20, within(1e-9));
    assertThat(p.deviation()).isCloseTo(10, within(1e-9));
    assertThat(p.max()).isEqualTo(30);
  }

  @Test
  void theNextPeriod_startsAtTheDemandThereIs() {
    SeatDemand d = new SeatDemand(0);
    d.set(40, 0);
    d.reset(S);
    d.set(0, 3 * S); // 40 held for 2 s of this period, then 0 for 2 s
    SeatDemand.Period p = d.reset(5 * S);
    assertThat(p.average()).isCloseTo(20, within(1e-9));
    assertThat(p.max()).isEqualTo(40);
    assertThat(d.reset(5 * S).seconds()).as("no time passed").isZero();
  }
}
