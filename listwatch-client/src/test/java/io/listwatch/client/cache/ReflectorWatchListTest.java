package io.listwatch.client.cache;

import static io.listwatch.client.cache.ReflectorTestObject.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.ListOptions;
import io.listwatch.api.ResourceVersionMatch;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.client.cache.ReflectorRecordingStore.Call;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The reflector's watch-list (sendInitialEvents) and its fallback to paged lists. */
@Timeout(30)
class ReflectorWatchListTest {

  private final ReflectorHarness h = new ReflectorHarness();

  @AfterEach
  void tearDown() throws InterruptedException {
    h.close();
  }

  @Test
  void watchList_replacesTheStoreOnceAtTheInitialEventsBookmark_thenGoesOnAsAWatch()
      throws Exception {
    ScriptedListerWatcher.Stream stream = h.server.watchOpens();
    h.start(h.builder().useWatchList(true));

    ListOptions options = h.server.awaitWatch();
    assertThat(options.watch()).isTrue();
    assertThat(options.sendInitialEvents()).isTrue();
    assertThat(options.resourceVersionMatch()).isEqualTo(ResourceVersionMatch.NOT_OLDER_THAN);
    assertThat(options.resourceVersion()).isEmpty();
    assertThat(options.allowWatchBookmarks()).isTrue();
    assertThat(options.timeoutSeconds()).isBetween(300L, 599L);

    stream.added(pod("a", "5")).added(pod("b", "6")).added(pod("c", "7"))
        .bookmark(ReflectorTestObject.bookmark("7"))
        .deleted(pod("c", "8"))
        .bookmark(ReflectorTestObject.initialEventsEnd("9"))
        .modified(pod("a", "10"));

    assertThat(h.store.awaitCall()).isEqualTo(Call.replace("9", pod("a", "5"), pod("b", "6")));
    assertThat(h.store.awaitCall()).isEqualTo(Call.update(pod("a", "10")));
    h.awaitLastSync("10");
    assertThat(h.server.lists()).isEmpty();
    assertThat(h.server.watches()).hasSize(1);
    assertThat(h.listenerCalls).containsExactly("list  initial", "listed 9 2");
  }

  @Test
  void watchList_afterExpiry_asksAgainFromTheLastSyncedVersion() throws Exception {
    ScriptedListerWatcher.Stream stream = h.server.watchOpens();
    h.start(h.builder().useWatchList(true));
    h.server.awaitWatch();
    stream.added(pod("a", "5")).bookmark(ReflectorTestObject.initialEventsEnd("9"))
        .modified(pod("a", "10"));
    h.awaitLastSync("10");
    stream.error(StatusException.expired("too old").status());

    h.server.watchOpens();
    h.clock.awaitSleepAndWake();
    ListOptions again = h.server.awaitWatch();
    assertThat(again.sendInitialEvents()).isTrue();
    assertThat(again.resourceVersion()).isEqualTo("10");
  }

  @Test
  void watchList_rejected_fallsBackToPagedLists_nowAndOnLaterRelists() throws Exception {
    StatusException rejected = StatusException.invalid("meta.k8s.io", "ListOptions", "",
        List.of(new Status.Cause("FieldValueForbidden",
            "Forbidden: sendInitialEvents is forbidden for watch", "sendInitialEvents")));
    h.server.watchFails(rejected);
    h.server.page("10", "", pod("a", "5"));
    ScriptedListerWatcher.Stream watch = h.server.watchOpens();
    h.start(h.builder().useWatchList(true));
    h.server.awaitWatch();

    ListOptions list = h.server.awaitList();
    assertThat(list.resourceVersion()).isEqualTo("0");
    assertThat(list.limit()).isEqualTo(500);
    assertThat(h.clock.unawaitedSleeps()).as("falling back is not a backoff").isZero();
    assertThat(h.awaitError()).isSameAs(rejected);
    assertThat(h.listenerCalls).startsWith("list  initial",
        "list 0 watch-list not supported: 422 Invalid");
    assertThat(h.store.awaitCall()).isEqualTo(Call.replace("10", pod("a", "5")));
    assertThat(h.server.awaitWatch().sendInitialEvents()).as("a plain watch").isNull();

    watch.error(StatusException.expired("too old").status());
    h.server.page("20", "");
    h.clock.awaitSleepAndWake();
    assertThat(h.server.awaitList().resourceVersion()).as("a paged relist").isEqualTo("10");
    assertThat(h.server.watches()).filteredOn(w -> w.sendInitialEvents() != null).hasSize(1);
  }

  @Test
  void watchList_endingBeforeItsBookmark_fallsBackToPagedLists() throws Exception {
    ScriptedListerWatcher.Stream stream = h.server.watchOpens();
    h.server.page("10", "", pod("b", "9"));
    h.server.watchOpens();
    h.start(h.builder().useWatchList(true));
    h.server.awaitWatch();
    stream.added(pod("a", "5"));
    stream.end();

    assertThat(h.server.awaitList().resourceVersion()).isEqualTo("0");
    assertThat(h.store.awaitCall()).as("nothing from the unfinished watch-list")
        .isEqualTo(Call.replace("10", pod("b", "9")));
    assertThat(h.listenerCalls).contains(
        "list 0 watch-list not supported: stream ended before the initial-events-end bookmark");
  }

  @Test
  void watchList_connectionError_retriesTheWatchListAfterBackoff() throws Exception {
    ScriptedListerWatcher.Stream stream = h.server.watchOpens();
    h.start(h.builder().useWatchList(true));
    h.server.awaitWatch();
    stream.added(pod("a", "5"));
    stream.fail(new IOException("Connection reset"));

    h.server.watchOpens();
    h.clock.awaitSleepAndWake();
    assertThat(h.server.awaitWatch().sendInitialEvents()).isTrue();
    assertThat(h.server.lists()).isEmpty();
  }
}
