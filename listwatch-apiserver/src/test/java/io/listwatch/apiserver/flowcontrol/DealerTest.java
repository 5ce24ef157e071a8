package io.listwatch.apiserver.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Shuffle sharding: distinct cards, every card equally likely, every hand reachable. */
class DealerTest {

  @Test
  void deal_givesDistinctCardsInTheDeck() {
    Dealer dealer = new Dealer(128, 6);
    SplittableRandom random = new SplittableRandom(1);
    for (int i = 0; i < 10_000; i++) {
      int[] hand = dealer.deal(random.nextLong());
      assertThat(hand).hasSize(6).doesNotHaveDuplicates();
      assertThat(Arrays.stream(hand).allMatch(c -> c >= 0 && c < 128)).isTrue();
    }
  }

  @Test
  void deal_ofTheWholeDeck_isAPermutation_andAllHandsOccur() {
    Dealer dealer = new Dealer(4, 4);
    Map<String, Integer> seen = new HashMap<>();
    for (long h = 0; h < 24; h++) { // 4! hands, one per mixed-radix number
      int[] hand = dealer.deal(h);
      int[] sorted = hand.clone();
      Arrays.sort(sorted);
      assertThat(sorted).containsExactly(0, 1, 2, 3);
      seen.merge(Arrays.toString(hand), 1, Integer::sum);
    }
    assertThat(seen).hasSize(24);
  }

  @Test
  void deal_spreadsCardsEvenly() {
    Dealer dealer = new Dealer(16, 4);
    int[] counts = new int[16];
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 40_000; i++) {
      for (int c : dealer.deal(random.nextLong())) {
        counts[c]++;
      }
    }
    assertThat(Arrays.stream(counts).allMatch(n -> Math.abs(n - 10_000) < 600)).as(Arrays.toString(counts)).isTrue(); // 160,000 cards over 16
  }

  @Test
  void deal_usesTheHashAsUnsigned() {
    int[] hand = new Dealer(128, 6).deal(-1L);
    assertThat(hand).doesNotHaveDuplicates();
    assertThat(Arrays.stream(hand).allMatch(c -> c >= 0 && c < 128)).isTrue();
  }

  @Test
  void handLargerThanDeck_isRefused() {
    assertThatThrownBy(() -> new Dealer(3, 4)).isInstanceOf(IllegalArgumentException.class);
  }
}
