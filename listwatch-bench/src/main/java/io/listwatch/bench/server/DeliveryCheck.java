package io.listwatch.bench.server;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The check every fan-out point makes of every watch: that it received each write the server
 * acknowledged once, in the server's order (resourceVersion order), with no gap. All watches
 * of a point start at the resourceVersion read before its first write, so each must hold
 * every acknowledged write of the point; a watch the server ended while the point ran (a
 * watcher too slow to keep up, dropped as kube drops it) must hold a gapless prefix of them:
 * every write up to the last it received, as a client that resumes from its last
 * resourceVersion relies on.
 *
 * <p>How: writers stamp a sequence number beside the send time in the pod they write and keep
 * the resourceVersion each write was answered with ({@link AckedWrites}); each watch marks the
 * numbers it sees in a bitset and folds them, in arrival order, into a fingerprint
 * ({@link SeenWrites}). Afterwards, per watch: writes missing are the acknowledged bits it
 * lacks; duplicates were counted as they came; it is in order when its fingerprint equals the
 * fingerprint of the writes it saw taken in resourceVersion order (a mismatch with the
 * probability of a 64-bit collision aside). A write that got no answer (its connection broke)
 * may or may not have been applied, and nothing places it among the others: a watch that
 * received one is checked for gaps and duplicates but not judged on order. An event of a
 * write that was neither answered nor sent unanswered is a failure. The work is a pass over
 * the bitsets, one word per 64 writes, plus one pass over the writes for a watch that missed
 * some.
 *
 * <p>Stateless; thread-safe.
 */
final class DeliveryCheck {

  /**
   * The check of one point.
   *
   * @param watchers watches checked
   * @param acknowledged writes the server acknowledged
   * @param unanswered writes that got no answer (outcome unknown)
   * @param complete watches that received every acknowledged write
   * @param endedGapless watches the server ended early that received a gapless prefix
   * @param inOrder watches whose events came in resourceVersion order
   * @param unjudged watches not judged on order (they received a write that got no answer)
   * @param duplicates events, over all watches, that repeated a write the watch had seen
   * @param failed watches with any problem: a gap, out of order, a duplicate, a stray write
   * @param firstProblem the first watch's problem found, or null
   */
  record Result(int watchers, int acknowledged, int unanswered, int complete, int endedGapless, int inOrder,
      int unjudged, long duplicates, int failed, String firstProblem) {

    /** Whether every watch received every acknowledged write (or a gapless prefix, if ended early) once, in order. */
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
    long[] prefix = new long[n + 1]; // prefix[k]: the fingerprint of the first k writes in resourceVersion order
    for (int k = 0; k < n; k++) {
      int seq = byVersion[k];
      ackedBits[seq >>> 6] |= 1L << seq;
      prefix[k + 1] = SeenWrites.extend(prefix[k], seq);
    }
    int complete = 0;
    int endedGapless = 0;
    int inOrder = 0;
    int unjudged = 0;
    long duplicates = 0;
    int failed = 0;
    String first = null;
    for (int w = 0; w < watches.size(); w++) {
      SeenWrites s = watches.get(w);
      long missing = 0;
      long ackedSeen = 0;
      long unansweredSeen = 0;
      long stray = 0;
      for (int i = 0; i < Math.max(ackedBits.length, s.words()); i++) {
        long a = i < ackedBits.length ? ackedBits[i] : 0;
        long seen = s.word(i);
        missing += Long.bitCount(a & ~seen);
        ackedSeen += Long.bitCount(a & seen);
        for (long extra = seen & ~a; extra != 0; extra &= extra - 1) {
          if (acked.isUnanswered(i * 64 + Long.numberOfTrailingZeros(extra))) {
            unansweredSeen++;
          } else {
            stray++;
          }
        }
      }
      // the acknowledged writes it holds are the first ackedSeen in resourceVersion order
      boolean prefixHeld = missing == 0 || holdsPrefix(byVersion, s, (int) ackedSeen);
      boolean gapless = missing == 0 || (s.wasEndedByServer() && prefixHeld);
      boolean judged = unansweredSeen == 0;
      boolean ordered = judged && s.order() == (prefixHeld ? prefix[(int) ackedSeen] : fingerprintOfSeen(byVersion, s));
      complete += missing == 0 ? 1 : 0;
      endedGapless += missing > 0 && gapless ? 1 : 0;
      inOrder += ordered ? 1 : 0;
      unjudged += judged ? 0 : 1;
      duplicates += s.duplicates();
      if (!gapless || (judged && !ordered) || s.duplicates() > 0 || stray > 0) {
        failed++;
        if (first == null) {
          first = problem(w, s, missing, stray, gapless, byVersion, acked);
        }
      }
    }
    return new Result(watches.size(), n, acked.unansweredCount(), complete, endedGapless, inOrder, unjudged,
        duplicates, failed, first);
  }

  /** Whether {@code s} holds each of the first {@code k} writes in resourceVersion order. */
  private static boolean holdsPrefix(int[] byVersion, SeenWrites s, int k) {
    for (int i = 0; i < k; i++) {
      if (!s.has(byVersion[i])) {
        return false;
      }
    }
    return true;
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
  private static String problem(int w, SeenWrites s, long missing, long stray, boolean gapless, int[] byVersion,
      AckedWrites acked) {
    if (!gapless) {
      int firstMissing = Arrays.stream(byVersion).filter(seq -> !s.has(seq)).findFirst().orElse(-1);
      return String.format("watch %d%s missed %,d of %,d writes (first: write %d)", w,
          s.wasEndedByServer() ? " (ended by the server) has a gap: it" : "", missing, acked.size(), firstMissing);
    }
    if (s.duplicates() > 0) {
      return String.format("watch %d received %,d events twice (first: write %d)", w, s.duplicates(),
          s.firstDuplicate());
    }
    if (stray > 0) {
      return String.format("watch %d received %,d writes nobody sent", w, stray);
    }
    return String.format("watch %d received its events out of resourceVersion order", w);
  }
}
