package io.listwatch.storage;

import java.time.Duration;

/**
 * How much history a store keeps for reads and watches at past revisions: everything younger
 * than {@code period}, and at least the latest {@code minRevisions} revisions whatever their age
 * (etcd's periodic compaction, which kube-apiserver's watch cache relies on). Every store applies
 * this one rule; what is older may be compacted, and a read or watch from there answers
 * {@code COMPACTED}. Immutable.
 *
 * @param period how long history is kept; not negative, at most 1,000 years
 * @param minRevisions how many of the latest revisions are kept at least; not negative
 */
public record HistoryRetention(Duration period, long minRevisions) {

  private static final Duration LONGEST = Duration.ofDays(365L * 1000); // before DEFAULT, which checks against it

  /** Five minutes, or the last 100,000 revisions, whichever is more. */
  public static final HistoryRetention DEFAULT = new HistoryRetention(Duration.ofMinutes(5), 100_000);

  /** @throws IllegalArgumentException for a negative or absurdly long period, or negative minRevisions */
  public HistoryRetention {
    if (period == null || period.isNegative() || period.compareTo(LONGEST) > 0) {
      throw new IllegalArgumentException("history retention must be between 0 and 1000 years: " + period);
    }
    if (minRevisions < 0) {
      throw new IllegalArgumentException("history min revisions must be >= 0: " + minRevisions);
    }
  }

  /** This retention with another period. */
  public HistoryRetention withPeriod(Duration period) {
    return new HistoryRetention(period, minRevisions);
  }

  /** This retention with another minimum of revisions. */
  public HistoryRetention withMinRevisions(long minRevisions) {
    return new HistoryRetention(period, minRevisions);
  }

  /**
   * The newest revision history may be compacted to, or 0 when none is outside both bounds.
   *
   * @param currentRevision the store's revision now
   * @param newestBeforePeriod the newest revision committed at or before {@code now - period}
   *     (0 if none)
   */
  public long compactionTarget(long currentRevision, long newestBeforePeriod) {
    long byCount = currentRevision - minRevisions;
    if (byCount <= 0 || newestBeforePeriod <= 0) {
      return 0;
    }
    return Math.min(byCount, newestBeforePeriod);
  }
}
