package io.listwatch.apiserver.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.listwatch.apiserver.flowcontrol.ConcurrencyAllocation.Item;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sharing out seats among levels: one fair fraction of each target, within each level's bounds. */
class ConcurrencyAllocationTest {

  private static double[] allocate(int sum, Item... items) {
    ConcurrencyAllocation.Result r = ConcurrencyAllocation.allocate(sum, List.of(items));
    assertThat(java.util.Arrays.stream(r.allocations()).sum()).as("the allocations sum to the seats").isCloseTo(sum,
        within(1e-6));
    return r.allocations();
  }

  @Test
  void noBoundInTheWay_sharesInProportionToTheTargets() {
    assertThat(allocate(100, new Item(10, 0, 1000), new Item(30, 0, 1000)))
        .containsExactly(new double[] {25, 75}, within(1e-9));
  }

  @Test
  void aLowerBound_holds_andTheOthersShareWhatIsLeft() {
    // 10% of 100 would give the first 5; it must have 20
    assertThat(allocate(100, new Item(20, 20, 1000), new Item(180, 0, 1000)))
        .containsExactly(new double[] {20, 80}, within(1e-9));
    // the first is pinned at 5; the other two grow together from f = 1: 45f + 5f = 95
    assertThat(allocate(100, new Item(5, 5, 5), new Item(45, 45, 1000), new Item(5, 0, 1000)))
        .containsExactly(new double[] {5, 85.5, 9.5}, within(1e-9));
  }

  @Test
  void anUpperBound_holds_andTheOthersTakeTheRest() {
    assertThat(allocate(100, new Item(90, 0, 30), new Item(10, 0, 1000)))
        .containsExactly(new double[] {30, 70}, within(1e-9));
  }

  @Test
  void lowerBoundsThatFillTheSum_areTheAnswer_andUpperBoundsThatDoToo() {
    assertThat(allocate(50, new Item(40, 20, 100), new Item(30, 30, 100))).containsExactly(new double[] {20, 30},
        within(1e-9));
    assertThat(allocate(50, new Item(1, 0, 20), new Item(1, 0, 30))).containsExactly(new double[] {20, 30},
        within(1e-9));
  }

  @Test
  void aLevelWithNoTarget_stillGetsItsShareOfNothing_andItsLowerBound() {
    assertThat(allocate(10, new Item(0, 0, 600), new Item(10, 10, 600))).containsExactly(new double[] {0, 10},
        within(1e-3));
  }

  @Test
  void boundsThatCannotMeetTheSum_orItemsThatBreakTheContract_areRefused() {
    assertThatThrownBy(() -> ConcurrencyAllocation.allocate(10, List.of(new Item(20, 20, 30))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot give 10 seats");
    assertThatThrownBy(() -> ConcurrencyAllocation.allocate(100, List.of(new Item(20, 0, 30))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ConcurrencyAllocation.allocate(10, List.of(new Item(5, 6, 30))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lower <= target");
  }
}
