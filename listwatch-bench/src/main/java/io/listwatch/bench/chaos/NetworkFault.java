package io.listwatch.bench.chaos;

/**
 * A fault of the network around one etcd member in a {@link PrivateNetwork}, as the
 * {@link Nemesis} names it in the history.
 */
enum NetworkFault {
  /** Cut off from the host (the API servers) and every other member. */
  PARTITION("partition"),
  /** Cut off from the other members only: a minority of one that the API servers still reach. */
  SPLIT("split"),
  /** Its link slowed to a trickle, with a short queue: packets delayed, and dropped when the queue is full. */
  LOSSY("lossy");

  private final String label;

  NetworkFault(String label) {
    this.label = label;
  }

  /** The fault's kind in the history and the summary. */
  String label() {
    return label;
  }
}
