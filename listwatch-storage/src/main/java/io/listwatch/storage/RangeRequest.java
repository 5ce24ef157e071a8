package io.listwatch.storage;

import java.util.Objects;

/**
 * A read of the keys under a prefix, in key order.
 *
 * @param prefix every returned key starts with it; {@code ""} means every key
 * @param startKey the first key to consider (inclusive), or {@code ""} for the start of the
 *     prefix. To continue after a page whose last key was {@code k}, pass
 *     {@link Keys#after(String) Keys.after(k)}.
 * @param limit the most keys to return; 0 means no limit
 * @param revision read the state as of this revision; 0 means the current revision. A
 *     revision below {@link Storage#compactedRevision()} fails with {@code COMPACTED}, one
 *     above the current revision with {@code FUTURE_REVISION}.
 */
public record RangeRequest(String prefix, String startKey, int limit, long revision) {

  public RangeRequest {
    Objects.requireNonNull(prefix, "prefix");
    startKey = startKey == null ? "" : startKey;
    if (limit < 0) {
      throw new IllegalArgumentException("limit must be >= 0, got " + limit);
    }
    if (revision < 0) {
      throw new IllegalArgumentException("revision must be >= 0, got " + revision);
    }
  }

  /** Every key under {@code prefix}, at the current revision. */
  public static RangeRequest prefix(String prefix) {
    return new RangeRequest(prefix, "", 0, 0);
  }

  public RangeRequest withLimit(int newLimit) {
    return new RangeRequest(prefix, startKey, newLimit, revision);
  }

  public RangeRequest withStartKey(String newStartKey) {
    return new RangeRequest(prefix, newStartKey, limit, revision);
  }

  public RangeRequest atRevision(long newRevision) {
    return new RangeRequest(prefix, startKey, limit, newRevision);
  }
}
