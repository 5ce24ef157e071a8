package io.listwatch.apiserver.cacher;

import static io.listwatch.apiserver.cacher.TestObjects.added;
import static io.listwatch.apiserver.cacher.TestObjects.deleted;
import static io.listwatch.apiserver.cacher.TestObjects.key;
import static io.listwatch.apiserver.cacher.TestObjects.modified;
import static io.listwatch.apiserver.cacher.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.StatusException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class WatchCacheTest {

  private static final long NO_AGE_LIMIT = Long.MAX_VALUE;
  private static final String PODS = "/registry/core/pods/";

  private final WatchCache cache = new WatchCache(100, NO_AGE_LIMIT);

  private static List<String> names(WatchCache.Snapshot s) {
    return s.objects().stream().map(CachedObject::name).toList();
  }

  private static List<Long> rvs(List<WatchCacheEvent> events) {
    return events.stream().map(WatchCacheEvent::resourceVersion).toList();
  }

  @Test
  void replace_setsTheStateAndTheResourceVersion() {
    cache.replace(List.of(pod("b", 2), pod("a", 1)), 10);

    assertThat(cache.resourceVersion()).isEqualTo(10);
    assertThat(cache.size()).isEqualTo(2);
    assertThat(cache.current(key("default", "a")).resourceVersion()).isEqualTo(1);
    WatchCache.Snapshot all = cache.snapshot(PODS, null, o -> true);
    assertThat(names(all)).as("key order").containsExactly("a", "b");
    assertThat(all.resourceVersion()).isEqualTo(10);
  }

  @Test
  void replace_dropsWhatTheNewStateDoesNotHold() {
    cache.replace(List.of(pod("a", 1), pod("b", 2)), 2);

    cache.replace(List.of(pod("c", 3)), 3);

    assertThat(cache.current(key("default", "a"))).isNull();
    assertThat(names(cache.snapshot(PODS, null, o -> true))).containsExactly("c");
  }

  @Test
  void apply_addsModifiesAndDeletes_andAdvancesTheResourceVersion() {
    cache.replace(List.of(), 1);
    CachedObject a2 = pod("a", 2);
    cache.apply(added(a2), 0);
    cache.apply(added(pod("b", 3)), 0);
    CachedObject a4 = pod("default", "a", 4, Map.of("v", "2"));
    cache.apply(modified(a4, a2), 0);
    assertThat(cache.current(key("default", "a"))).isSameAs(a4);

    cache.apply(deleted(pod("b", 3), 5), 0);

    assertThat(cache.current(key("default", "b"))).isNull();
    assertThat(cache.size()).isEqualTo(1);
    assertThat(cache.resourceVersion()).isEqualTo(5);
    assertThat(rvs(cache.eventsSince(1))).containsExactly(2L, 3L, 4L, 5L);
  }

  @Test
  void snapshot_servesAKeyRange_fromInclusive_toExclusive() {
    cache.replace(List.of(pod("ns1", "a", 1, Map.of()), pod("ns1", "b", 2, Map.of()),
        pod("ns2", "c", 3, Map.of()), pod("ns3", "d", 4, Map.of())), 4);

    assertThat(names(cache.snapshot(PODS + "ns1/", PODS + "ns10", o -> true)))
        .containsExactly("a", "b");
    assertThat(names(cache.snapshot(key("ns1", "b"), PODS + "ns1" + (char) ('/' + 1), o -> true)))
        .as("from a key inside the range").containsExactly("b");
    assertThat(names(cache.snapshot(key("ns2", "c"), null, o -> true)))
        .as("open-ended").containsExactly("c", "d");
    assertThat(names(cache.snapshot(PODS + "zzz", null, o -> true))).isEmpty();
  }

  @Test
  void aPageOfTheRange_countsWhatFollowsItInTheRange_andNothingOutsideIt() {
    cache.replace(List.of(pod("ns1", "a", 1, Map.of()), pod("ns1", "b", 2, Map.of()),
        pod("ns1", "c", 3, Map.of()), pod("ns1", "d", 4, Map.of()), pod("ns2", "e", 5, Map.of())), 5);
    String ns1End = PODS + "ns1" + (char) ('/' + 1);

    WatchCache.Page first = cache.snapshot(PODS + "ns1/", ns1End, o -> true, 3, true);
    WatchCache.Page whole = cache.snapshot(PODS + "ns1/", ns1End, o -> true, Integer.MAX_VALUE, true);
    WatchCache.Page fromB = cache.snapshot(key("ns1", "b"), ns1End, o -> true, 1, true);
    WatchCache.Page empty = cache.snapshot(PODS + "ns0/", PODS + "ns0" + (char) ('/' + 1), o -> true, 3, true);

    assertThat(names(first.snapshot())).containsExactly("a", "b", "c");
    assertThat(first.rest()).isEqualTo(1);
    assertThat(names(whole.snapshot())).containsExactly("a", "b", "c", "d");
    assertThat(whole.rest()).isZero();
    assertThat(names(fromB.snapshot())).containsExactly("b");
    assertThat(fromB.rest()).isEqualTo(2);
    assertThat(names(empty.snapshot())).isEmpty();
    assertThat(empty.rest()).isZero();
  }

  @Test
  void snapshot_keepsOnlyWhatPassesTheFilter() {
    cache.replace(List.of(pod("default", "a", 1, Map.of("app", "web")),
        pod("default", "b", 2, Map.of("app", "db")),
        pod("default", "c", 3, Map.of("app", "web"))), 3);

    WatchCache.Snapshot web = cache.snapshot(PODS, null, o -> "web".equals(o.labels().get("app")));

    assertThat(names(web)).containsExactly("a", "c");
    assertThat(web.resourceVersion()).isEqualTo(3);
  }

  @Test
  void snapshot_isNotChangedByLaterEvents() {
    cache.replace(List.of(pod("a", 1)), 1);
    WatchCache.Snapshot before = cache.snapshot(PODS, null, o -> true);

    cache.apply(added(pod("b", 2)), 0);

    assertThat(names(before)).containsExactly("a");
    assertThat(before.resourceVersion()).isEqualTo(1);
  }

  @Test
  void waitUntil_aResourceVersionAlreadyReached_isDoneAtOnce_withTheCachesResourceVersion() {
    cache.replace(List.of(), 5);

    assertThat(cache.waitUntil(3)).isCompletedWithValue(5L);
    assertThat(cache.waitUntil(5)).isCompletedWithValue(5L);
  }

  @Test
  void waitUntil_completesOnlyOnceAnEventReachesTheResourceVersion() {
    cache.replace(List.of(), 1);
    CompletableFuture<Long> f = cache.waitUntil(3);
    assertThat(f).isNotDone();

    assertThat(cache.apply(added(pod("a", 2)), 0)).isEmpty();
    assertThat(f).isNotDone();

    List<CompletableFuture<Long>> ready = cache.apply(added(pod("b", 4)), 0);
    assertThat(ready).containsExactly(f);
    ready.forEach(r -> r.complete(4L)); // the caller completes them outside its locks
    assertThat(f).isCompletedWithValue(4L);
  }

  @Test
  void waitUntil_isReleasedByProgress_withoutAnEvent() {
    cache.replace(List.of(), 1);
    CompletableFuture<Long> f = cache.waitUntil(9);

    assertThat(cache.advanceTo(8, 0)).isEmpty();
    assertThat(cache.advanceTo(9, 0)).containsExactly(f);
    assertThat(cache.resourceVersion()).isEqualTo(9);
  }

  @Test
  void advanceTo_neverMovesTheResourceVersionBack() {
    cache.replace(List.of(), 10);

    cache.advanceTo(4, 0);

    assertThat(cache.resourceVersion()).isEqualTo(10);
  }

  @Test
  void waitUntil_isCompletedByReplace_whenTheRelistReachesIt() {
    cache.replace(List.of(), 1);
    CompletableFuture<Long> reached = cache.waitUntil(5);
    CompletableFuture<Long> beyond = cache.waitUntil(20);

    cache.replace(List.of(pod("a", 7)), 7);

    assertThat(reached).isCompletedWithValue(7L);
    assertThat(beyond).isNotDone();
  }

  @Test
  void waitUntil_releasesEveryWaiterAtOrBelowTheNewResourceVersion_andNoOther() {
    cache.replace(List.of(), 1);
    CompletableFuture<Long> w2 = cache.waitUntil(2);
    CompletableFuture<Long> w3a = cache.waitUntil(3);
    CompletableFuture<Long> w3b = cache.waitUntil(3);
    CompletableFuture<Long> w4 = cache.waitUntil(4);

    assertThat(cache.apply(added(pod("a", 3)), 0)).containsExactlyInAnyOrder(w2, w3a, w3b);
    assertThat(cache.apply(added(pod("b", 4)), 0)).containsExactly(w4);
  }

  @Test
  void waitUntil_aCancelledWaiterIsForgotten() {
    cache.replace(List.of(), 1);
    CompletableFuture<Long> f = cache.waitUntil(2);

    f.cancel(false);

    assertThat(cache.apply(added(pod("a", 2)), 0)).isEmpty();
  }

  @Test
  void eventsSince_returnsTheEventsAfterTheResourceVersion() {
    cache.replace(List.of(), 1);
    for (long rv = 2; rv <= 5; rv++) {
      cache.apply(added(pod("p" + rv, rv)), 0);
    }

    assertThat(rvs(cache.eventsSince(1))).containsExactly(2L, 3L, 4L, 5L);
    assertThat(rvs(cache.eventsSince(3))).containsExactly(4L, 5L);
    assertThat(cache.eventsSince(5)).isEmpty();
  }

  @Test
  void eventsSince_aResourceVersionOlderThanTheHistory_failsWith410Expired() {
    WatchCache small = new WatchCache(2, NO_AGE_LIMIT);
    small.replace(List.of(), 1);
    for (long rv = 2; rv <= 5; rv++) { // keeps 4 and 5: resumable from 3
      small.apply(added(pod("p" + rv, rv)), 0);
    }

    assertThat(rvs(small.eventsSince(3))).containsExactly(4L, 5L);
    assertThatThrownBy(() -> small.eventsSince(2))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(410);
          assertThat(e.reason()).isEqualTo("Expired");
        });
  }

  @Test
  void eventsSince_beforeTheLastReplace_failsWith410Expired() {
    cache.replace(List.of(pod("a", 3)), 10);

    assertThat(cache.eventsSince(10)).isEmpty();
    assertThatThrownBy(() -> cache.eventsSince(9))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(410));
  }
}
