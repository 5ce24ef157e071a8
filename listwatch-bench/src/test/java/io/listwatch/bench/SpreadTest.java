package io.listwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpreadTest {

  @Test
  void anOddCount_hasItsMiddleRunAsMedian_whateverTheOrder() {
    assertThat(Spread.of(9.0, 4.0, 5.0)).isEqualTo(new Spread(4.0, 5.0, 9.0, 3));
  }

  @Test
  void anEvenCount_hasTheMeanOfItsMiddleTwoAsMedian() {
    assertThat(Spread.of(List.of(8.0, 6.0, 1.0, 100.0))).isEqualTo(new Spread(1.0, 7.0, 100.0, 4));
  }

  @Test
  void noRuns_haveNoSpread() {
    assertThatThrownBy(Spread::of).isInstanceOf(IllegalArgumentException.class);
  }
}
