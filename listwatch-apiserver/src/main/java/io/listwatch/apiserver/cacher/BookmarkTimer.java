package io.listwatch.apiserver.cacher;

/**
 * When a watch's next bookmark is due and when the watch ends: bookmarks about every
 * {@code interval} when the client allowed them, one more shortly before the deadline, and
 * the end at the deadline (kube sends the last bookmark 2 s before it).
 *
 * <p>Confined to the cacher's dispatch thread.
 */
final class BookmarkTimer {

  static final long FINAL_BOOKMARK_LEAD_NANOS = 2_000_000_000L;

  private final boolean bookmarks;
  private final long intervalNanos;
  private final long deadlineNanos;
  private long nextNanos;
  private boolean finalSent;

  /**
   * @param bookmarks whether the client allowed bookmarks
   * @param deadlineNanos when the watch ends (in the cacher's clock), or Long.MAX_VALUE
   */
  BookmarkTimer(boolean bookmarks, long startNanos, long intervalNanos, long deadlineNanos) {
    this.bookmarks = bookmarks;
    this.intervalNanos = intervalNanos;
    this.deadlineNanos = deadlineNanos;
    this.nextNanos = startNanos + intervalNanos;
  }

  boolean deadlineReached(long nowNanos) {
    return deadlineNanos != Long.MAX_VALUE && nowNanos - deadlineNanos >= 0;
  }

  boolean bookmarkDue(long nowNanos) {
    if (!bookmarks) {
      return false;
    }
    if (!finalSent && deadlineNanos != Long.MAX_VALUE && deadlineNanos - nowNanos <= FINAL_BOOKMARK_LEAD_NANOS) {
      finalSent = true;
      return true;
    }
    if (nowNanos - nextNanos >= 0) {
      nextNanos = nowNanos + intervalNanos;
      return true;
    }
    return false;
  }
}
