package io.listwatch.apiserver.cacher;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BookmarkTimerTest {

  private static final long S = 1_000_000_000L;
  private static final long NO_DEADLINE = Long.MAX_VALUE;

  @Test
  void bookmarkDue_firstOneIntervalAfterTheStart() {
    BookmarkTimer t = new BookmarkTimer(true, 100 * S, 60 * S, NO_DEADLINE);

    assertThat(t.bookmarkDue(100 * S)).isFalse();
    assertThat(t.bookmarkDue(160 * S - 1)).isFalse();
    assertThat(t.bookmarkDue(160 * S)).isTrue();
  }

  @Test
  void bookmarkDue_thenOneIntervalAfterEachBookmarkSent() {
    BookmarkTimer t = new BookmarkTimer(true, 0, 60 * S, NO_DEADLINE);

    assertThat(t.bookmarkDue(65 * S)).as("late tick").isTrue();
    assertThat(t.bookmarkDue(65 * S)).as("not twice for one tick").isFalse();
    assertThat(t.bookmarkDue(124 * S)).isFalse();
    assertThat(t.bookmarkDue(125 * S)).isTrue();
  }

  @Test
  void bookmarkDue_neverWhenTheClientDidNotAllowBookmarks() {
    BookmarkTimer t = new BookmarkTimer(false, 0, S, 10 * S);

    for (long now = 0; now <= 12 * S; now += S / 2) {
      assertThat(t.bookmarkDue(now)).as("at %d ns", now).isFalse();
    }
  }

  @Test
  void bookmarkDue_onceWithinTwoSecondsOfTheDeadline_evenBetweenIntervals() {
    BookmarkTimer t = new BookmarkTimer(true, 0, 60 * S, 30 * S);

    assertThat(t.bookmarkDue(28 * S - 1)).isFalse();
    assertThat(t.bookmarkDue(28 * S)).isTrue();
    assertThat(t.bookmarkDue(29 * S)).as("the final bookmark is sent once").isFalse();
    assertThat(t.bookmarkDue(30 * S - 1)).isFalse();
  }

  @Test
  void bookmarkDue_finalBookmark_whenTheFirstTickIsAlreadyInsideTheLead() {
    BookmarkTimer t = new BookmarkTimer(true, 0, 60 * S, S);

    assertThat(t.bookmarkDue(0)).isTrue();
    assertThat(t.bookmarkDue(S / 2)).isFalse();
  }

  @Test
  void bookmarkDue_withoutDeadline_hasNoFinalBookmark() {
    BookmarkTimer t = new BookmarkTimer(true, 0, 60 * S, NO_DEADLINE);

    assertThat(t.bookmarkDue(NO_DEADLINE - S)).as("an interval bookmark").isTrue();
    assertThat(t.bookmarkDue(NO_DEADLINE - S / 2)).isFalse();
  }

  @Test
  void deadlineReached_atAndAfterTheDeadline() {
    BookmarkTimer t = new BookmarkTimer(true, 0, 60 * S, 30 * S);

    assertThat(t.deadlineReached(30 * S - 1)).isFalse();
    assertThat(t.deadlineReached(30 * S)).isTrue();
    assertThat(t.deadlineReached(31 * S)).isTrue();
  }

  @Test
  void deadlineReached_comparesNanoTimesOverflowSafely() {
    long start = Long.MAX_VALUE - 5 * S; // System.nanoTime() may be anywhere, and may wrap
    BookmarkTimer t = new BookmarkTimer(true, start, 60 * S, start + 10 * S);

    assertThat(t.deadlineReached(start + 9 * S)).isFalse();
    assertThat(t.deadlineReached(start + 10 * S)).isTrue();
  }

  @Test
  void deadlineReached_neverWithoutADeadline_whateverTheClockReads() {
    BookmarkTimer t = new BookmarkTimer(true, 0, 60 * S, NO_DEADLINE);

    assertThat(t.deadlineReached(0)).isFalse();
    assertThat(t.deadlineReached(Long.MAX_VALUE / 2)).isFalse();
    // System.nanoTime()'s origin is arbitrary: it may be negative.
    assertThat(t.deadlineReached(-S)).isFalse();
  }
}
