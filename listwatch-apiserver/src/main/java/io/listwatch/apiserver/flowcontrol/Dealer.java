package io.listwatch.apiserver.flowcontrol;

/**
 * Shuffle sharding (kube's {@code shufflesharding.Dealer}): deals a hand of {@code handSize}
 * distinct queues out of a deck of {@code deckSize} from a flow's 64-bit hash, so that two
 * flows share all their queues only rarely, and a flow that floods fills only its own hand.
 *
 * <p>The hash is read as a number in a mixed radix ({@code deckSize}, {@code deckSize - 1},
 * ...): its i-th digit picks among the cards not dealt yet, so every hand is equally likely
 * for a uniform hash, and each card at most once.
 *
 * <p>Immutable.
 */
final class Dealer {

  private final int deckSize;
  private final int handSize;

  Dealer(int deckSize, int handSize) {
    if (deckSize < 1 || handSize < 1 || handSize > deckSize) {
      throw new IllegalArgumentException("need 1 <= handSize (" + handSize + ") <= deckSize (" + deckSize + ")");
    }
    this.deckSize = deckSize;
    this.handSize = handSize;
  }

  int handSize() {
    return handSize;
  }

  /** The hand of {@code hash}: {@code handSize} distinct cards in [0, deckSize), in dealing order. */
  int[] deal(long hash) {
    int[] hand = new int[handSize];
    int[] sorted = new int[handSize]; // the cards dealt so far, ascending
    long rest = hash;
    for (int i = 0; i < handSize; i++) {
      long left = deckSize - i;
      int card = (int) Long.remainderUnsigned(rest, left);
      rest = Long.divideUnsigned(rest, left);
      // the card-th of the cards not yet dealt
      int pos = 0;
      while (pos < i && sorted[pos] <= card) {
        card++;
        pos++;
      }
      System.arraycopy(sorted, pos, sorted, pos + 1, i - pos);
      sorted[pos] = card;
      hand[i] = card;
    }
    return hand;
  }
}
