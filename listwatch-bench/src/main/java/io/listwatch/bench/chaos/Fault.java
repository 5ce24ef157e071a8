package io.listwatch.bench.chaos;

/**
 * One fault the {@link Nemesis} injected: its kind, its target (e.g. {@code server-1},
 * {@code etcd-2}) and when it began and was healed (nanoseconds since the history began; the
 * end is -1 until it is healed), and what it did that its kind does not say, e.g.
 * {@code "37 packets dropped"} ("" when nothing).
 *
 * <p>Immutable; thread-safe.
 */
record Fault(String kind, String target, long start, long end, String effect) {

  @Override
  public String toString() {
    return kind + " " + target + " [" + Operation.ms(start) + "-" + Operation.ms(end) + " ms]"
        + (effect.isEmpty() ? "" : " (" + effect + ")");
  }
}
