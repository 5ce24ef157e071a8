package io.listwatch.apiserver.cacher;

import static io.listwatch.apiserver.cacher.TestObjects.added;
import static io.listwatch.apiserver.cacher.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class EventHistoryTest {

  private static final long NO_AGE_LIMIT = Long.MAX_VALUE;

  private static WatchCacheEvent event(long rv) {
    return added(pod("p" + rv, rv));
  }

  private static WatchCacheEvent eventAt(long rv, long recordedAtNanos) {
    return added(pod("p" + rv, rv), recordedAtNanos);
  }

  private static List<Long> rvs(List<WatchCacheEvent> events) {
    return events.stream().map(WatchCacheEvent::resourceVersion).toList();
  }

  @Test
  void constructor_rejectsACapacityBelowOne() {
    assertThatThrownBy(() -> new EventHistory(0, NO_AGE_LIMIT, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void newHistory_isEmpty_andResumableFromItsStartResourceVersion() {
    EventHistory h = new EventHistory(4, NO_AGE_LIMIT, 7);

    assertThat(h.size()).isZero();
    assertThat(h.oldestResumable()).isEqualTo(7);
    assertThat(h.since(7)).isEmpty();
  }

  @Test
  void append_belowCapacity_keepsEveryEvent() {
    EventHistory h = new EventHistory(4, NO_AGE_LIMIT, 0);
    for (long rv = 1; rv <= 4; rv++) {
      h.append(event(rv), 0);
    }

    assertThat(h.size()).isEqualTo(4);
    assertThat(h.oldestResumable()).isZero();
    assertThat(rvs(h.since(0))).containsExactly(1L, 2L, 3L, 4L);
  }

  @Test
  void append_atCapacity_evictsTheOldest_andAdvancesOldestResumableToIt() {
    EventHistory h = new EventHistory(3, NO_AGE_LIMIT, 0);
    for (long rv = 1; rv <= 5; rv++) {
      h.append(event(rv), 0);
    }

    assertThat(h.size()).isEqualTo(3);
    assertThat(h.oldestResumable()).isEqualTo(2);
    assertThat(rvs(h.since(2))).containsExactly(3L, 4L, 5L);
  }

  @Test
  void append_manyTimesAroundTheRing_keepsTheLatestInOrder() {
    EventHistory h = new EventHistory(3, NO_AGE_LIMIT, 0);
    for (long rv = 1; rv <= 100; rv++) {
      h.append(event(rv * 10), 0);
    }

    assertThat(h.oldestResumable()).isEqualTo(970);
    assertThat(rvs(h.since(0))).containsExactly(980L, 990L, 1000L);
  }

  @Test
  void append_evictsEventsOlderThanTheMaxAge() {
    EventHistory h = new EventHistory(10, 100, 0);
    h.append(eventAt(1, 0), 0);
    h.append(eventAt(2, 50), 50);
    h.append(eventAt(3, 120), 120); // event 1 is 120 old: out; event 2 is 70 old: kept

    assertThat(rvs(h.since(0))).containsExactly(2L, 3L);
    assertThat(h.oldestResumable()).isEqualTo(1);
  }

  @Test
  void evictOlderThan_keepsAnEventExactlyAtTheMaxAge() {
    EventHistory h = new EventHistory(10, 100, 0);
    h.append(eventAt(1, 0), 0);
    h.append(eventAt(2, 10), 10);

    h.evictOlderThan(100);

    assertThat(rvs(h.since(0))).containsExactly(1L, 2L);
    assertThat(h.oldestResumable()).isZero();
  }

  @Test
  void evictOlderThan_keepsTheNewestEvent_evenWhenItIsTooOld() {
    EventHistory h = new EventHistory(10, 100, 0);
    h.append(eventAt(1, 0), 0);
    h.append(eventAt(2, 10), 10);
    h.append(eventAt(3, 20), 20);

    h.evictOlderThan(1_000);

    assertThat(rvs(h.since(0))).containsExactly(3L);
    assertThat(h.oldestResumable()).isEqualTo(2);
  }

  @Test
  void since_returnsTheEventsStrictlyAfterTheGivenResourceVersion() {
    EventHistory h = new EventHistory(8, NO_AGE_LIMIT, 5);
    for (long rv : new long[] {10, 20, 30, 40}) {
      h.append(event(rv), 0);
    }

    assertThat(rvs(h.since(5))).as("before every event").containsExactly(10L, 20L, 30L, 40L);
    assertThat(rvs(h.since(9))).containsExactly(10L, 20L, 30L, 40L);
    assertThat(rvs(h.since(10))).as("exactly the first").containsExactly(20L, 30L, 40L);
    assertThat(rvs(h.since(25))).as("between two").containsExactly(30L, 40L);
    assertThat(rvs(h.since(39))).containsExactly(40L);
    assertThat(h.since(40)).as("exactly the last").isEmpty();
    assertThat(h.since(1_000)).as("after the last").isEmpty();
  }

  @Test
  void since_findsTheRightEvents_whenTheRingHasWrapped() {
    EventHistory h = new EventHistory(4, NO_AGE_LIMIT, 0);
    for (long rv = 1; rv <= 6; rv++) { // ring slots now hold 5, 6, 3, 4
      h.append(event(rv), 0);
    }

    assertThat(rvs(h.since(2))).containsExactly(3L, 4L, 5L, 6L);
    assertThat(rvs(h.since(4))).containsExactly(5L, 6L);
    assertThat(rvs(h.since(5))).containsExactly(6L);
    assertThat(h.since(6)).isEmpty();
  }

  @Test
  void since_withASingleEvent() {
    EventHistory h = new EventHistory(1, NO_AGE_LIMIT, 0);
    h.append(event(1), 0);
    h.append(event(2), 0);

    assertThat(h.oldestResumable()).isEqualTo(1);
    assertThat(rvs(h.since(1))).containsExactly(2L);
    assertThat(h.since(2)).isEmpty();
  }

  @Test
  void reset_forgetsEveryEvent_andResumesFromTheGivenResourceVersion() {
    EventHistory h = new EventHistory(3, NO_AGE_LIMIT, 0);
    for (long rv = 1; rv <= 5; rv++) {
      h.append(event(rv), 0);
    }

    h.reset(50);

    assertThat(h.size()).isZero();
    assertThat(h.oldestResumable()).isEqualTo(50);
    assertThat(h.since(0)).isEmpty();

    h.append(event(51), 0);
    h.append(event(52), 0);
    assertThat(rvs(h.since(50))).containsExactly(51L, 52L);
    assertThat(h.oldestResumable()).isEqualTo(50);
  }
}
