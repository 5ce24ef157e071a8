package io.listwatch.bench.server;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The check every fan-out point makes of every watch: that it received each write the server
 * acknowledged once, in the server's order (resourceVersion order), with no gap. All watches
 * of a point start at the resourceVersion read before its first write, so each must hold
 * every acknowledged write of the point.
 *
 * <p>How: writers stamp a sequence number beside the send time in the pod they write and keep
 * the resourceVersion each write was answered with ({@link AckedWrites}); each watch marks the
 * numbers it sees in a bitset and folds them, in arrival order, into a fingerprint
 * ({@link SeenWrites}). Afterwards, per watch: writes missing are the acknowledged bits it
 * lacks; duplicates were counted as they came; it is in order when its fingerprint equals the
 * fingerprint of the writes it saw taken in resourceVersion order (a mismatch with the
 * probability of a 64-bit collision aside). An event of a write no answer acknowledged (a
 * writer's I/O error after the server committed) cannot be placed, so it counts as out of
 * order. The work is a pass over the bitsets, one word per 64 writes, plus one pass over the
 * writes for a watch that missed some.
 *
 * <p>Stateless; thread-safe.
 */
final class DeliveryCheck {

  /**
   * The check of one point.
   *
   * @param watchers watches checked
   * @param acknowledged writes the server acknowledged
   * @param complete watches that received every acknowledged write
   * @param inOrder watches whose events came in resourceVersion order
   * @param duplicates events, over all watches, that repeated a write the watch had seen
   * @param failed watches with any problem: incomplete, out of order, or with a duplicate
   * @param firstProblem the first watch's problem found, or null
   */
  record Result(int watchers, int acknowledged, int complete, int inOrder, long duplicates, int failed,
      String firstProblem) {

    /** Whether every watch received every acknowledged write once, in order. */
    boolean passed() {
      return failed == 0;
    }
  }

  private DeliveryCheck() {
  }

  /** Checks {@code watches} against the writes {@code acked}. */
  static Result check(AckedWrites acked, List<SeenWrites> watches) {
    int n = acked.size();
    int[] byVersion = IntStream.range(0, n).boxed()
        .sorted(Comparator.comparingLong(acked::resourceVersion))
        .mapToInt(acked::seq).toArray();
    int maxSeq = Arrays.stream(byVersion).max().orElse(-1);
    long[] ackedBits = new long[(maxSeq >>> 6) + 1];
    long all = 0;
    for (int seq : byVersion) {
      ackedBits[seq >>> 6] |= 1L << seq;
      all = SeenWrites.extend(all, seq);
    }
    int complete = 0;
    int inOrder = 0;
    long duplicates = 0;
    int failed = 0;
    String first = null;
    for (int w = 0; w < watches.size(); w++) {
      SeenWrites s = watches.get(w);
      long missing = 0;
      long unacknowledged = 0;
      for (int i = 0; i < Math.max(ackedBits.length, s.words()); i++) {
        long a = i < ackedBits.length ? ackedBits[i] : 0;
        missing += Long.bitCount(a & ~s.word(i));
        unacknowledged += Long.bitCount(s.word(i) & ~a);
      }
      long expected = missing == 0 ? all : fingerprintOfSeen(byVersion, s);
      boolean ordered = unacknowledged == 0 && s.order() == expected;
      complete += missing == 0 ? 1 : 0;
      inOrder += ordered ? 1 : 0;
      duplicates += s.duplicates();
      if (missing > 0 || !ordered || s.duplicates() > 0) {
        failed++;
        if (first == null) {
          first = problem(w, s, missing, unacknowledged, byVersion, acked);
        }
      }
    }
    return new Result(watches.size(), n, complete, inOrder, duplicates, failed, first);
  }

  /** The fingerprint of the writes {@code s} saw, in resourceVersion order. */
  private static long fingerprintOfSeen(int[] byVersion, SeenWrites s) {
    long f = 0;
    for (int seq : byVersion) {
      if (s.has(seq)) {
        f = SeenWrites.extend(f, seq);
      }
    }
    return f;
  }

  /** What is wrong with watch {@code w}, which has a problem. */
  private static String problem(int w, SeenWrites s, long missing, long unacknowledged, int[] byVersion,
      AckedWrites acked) {
    if (missing > 0) {
      int firstMissing = Arrays.stream(byVersion).filter(seq -> !s.has(seq)).findFirst().orElse(-1);
      return String.format("watch %d missed %,d of %,d writes (first: write %d)", w, missing, acked.size(),
          firstMissing);
    }
    if (s.duplicates() > 0) {
      return String.format("watch %d received %,d events twice (first: write %d)", w, s.duplicates(),
          s.firstDuplicate());
    }
    if (unacknowledged > 0) {
      return String.format("watch %d received %,d writes no answer acknowledged", w, unacknowledged);
    }
    return String.format("watch %d received its events out of resourceVersion order", w);
  }
}
