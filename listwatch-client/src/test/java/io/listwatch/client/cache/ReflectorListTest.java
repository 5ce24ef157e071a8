package io.listwatch.client.cache;

import static io.listwatch.client.cache.ReflectorTestObject.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.ListOptions;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.client.cache.ReflectorRecordingStore.Call;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The reflector's lists: paging, the resourceVersion each list asks for, retries. */
@Timeout(30)
class ReflectorListTest {

  private final ReflectorHarness h = new ReflectorHarness();

  @AfterEach
  void tearDown() throws InterruptedException {
    h.close();
  }

  @Test
  void initialList_asksForResourceVersionZeroWithLimit_andFollowsContinueTokens() throws Exception {
    h.server.page("10", "token-1", pod("a", "5"), pod("b", "6"));
    h.server.page("10", "token-2", pod("c", "7"));
    h.server.page("10", "", pod("d", "8"));
    h.server.watchOpens();
    h.start();

    ListOptions first = h.server.awaitList();
    assertThat(first.resourceVersion()).isEqualTo("0");
    assertThat(first.limit()).isEqualTo(500);
    assertThat(first.continueToken()).isEmpty();
    assertThat(first.watch()).isFalse();
    ListOptions second = h.server.awaitList();
    assertThat(second.continueToken()).isEqualTo("token-1");
    assertThat(second.limit()).isEqualTo(500);
    assertThat(second.resourceVersion()).as("the pager clears it after page one").isEmpty();
    assertThat(h.server.awaitList().continueToken()).isEqualTo("token-2");

    assertThat(h.store.awaitCall()).isEqualTo(
        Call.replace("10", pod("a", "5"), pod("b", "6"), pod("c", "7"), pod("d", "8")));
    assertThat(h.server.awaitWatch().resourceVersion()).isEqualTo("10");
    assertThat(h.reflector.lastSyncResourceVersion()).isEqualTo("10");
    assertThat(h.listenerCalls).containsExactly("list 0 initial", "listed 10 4", "watch 10 listed");
    assertThat(h.server.lists()).hasSize(3);
  }

  @Test
  void initialList_takesEverythingInOnePage_whenTheServerIgnoresTheLimit() throws Exception {
    h.server.page("10", "", pod("a", "5"), pod("b", "6"), pod("c", "7"));
    h.server.watchOpens();
    h.start();

    assertThat(h.server.awaitList().limit()).isEqualTo(500);
    assertThat(h.store.awaitCall())
        .isEqualTo(Call.replace("10", pod("a", "5"), pod("b", "6"), pod("c", "7")));
    h.server.awaitWatch();
    assertThat(h.server.lists()).hasSize(1);
  }

  @Test
  void pageSizeZero_listsWithoutLimit() throws Exception {
    h.server.page("10", "", pod("a", "5"));
    h.server.watchOpens();
    h.start(h.builder().pageSize(0));

    assertThat(h.server.awaitList().limit()).isZero();
  }

  @Test
  void expiredWatch_relistsFromLastSyncedVersion_thenConsistentlyWhenThatIsGoneToo()
      throws Exception {
    ScriptedListerWatcher.Stream watch = h.startWatching("10", pod("a", "5"));
    watch.modified(pod("a", "12"));
    assertThat(h.store.awaitCall()).isEqualTo(Call.update(pod("a", "12")));
    watch.error(StatusException.expired("too old resource version: 12 (20)").status());

    assertThat(h.awaitError()).isInstanceOf(StatusException.class);
    watch.awaitClosed();
    h.server.listFails(StatusException.expired("too old resource version: 12 (20)"));
    h.clock.awaitSleepAndWake();
    assertThat(h.server.awaitList().resourceVersion())
        .as("served from the watch cache").isEqualTo("12");

    h.server.page("21", "", pod("a", "13"));
    h.server.watchOpens();
    h.clock.awaitSleepAndWake();
    ListOptions consistent = h.server.awaitList();
    assertThat(consistent.resourceVersion()).as("a consistent read").isEmpty();
    assertThat(consistent.limit()).isEqualTo(500);
    assertThat(h.store.awaitCall()).isEqualTo(Call.replace("21", pod("a", "13")));
    assertThat(h.server.awaitWatch().resourceVersion()).isEqualTo("21");
    assertThat(h.listenerCalls).containsSubsequence(
        "list 12 410 Expired", "list  410 Expired", "listed 21 1", "watch 21 listed");
    assertThat(h.reflector.metrics().relists()).isEqualTo(2);
  }

  @Test
  void expiredContinueToken_restartsTheListAsAConsistentRead() throws Exception {
    h.server.page("10", "token-1", pod("a", "5"));
    h.server.listFails(StatusException.expired("The provided continue parameter is too old"));
    h.server.page("30", "", pod("b", "29"));
    h.server.watchOpens();
    h.start();
    h.server.awaitList();
    assertThat(h.server.awaitList().continueToken()).isEqualTo("token-1");

    h.clock.awaitSleepAndWake();
    ListOptions restart = h.server.awaitList();
    assertThat(restart.resourceVersion()).isEmpty();
    assertThat(restart.continueToken()).isEmpty();
    assertThat(h.store.awaitCall()).as("nothing from the abandoned list")
        .isEqualTo(Call.replace("30", pod("b", "29")));
  }

  @Test
  void tooLargeResourceVersion_onRelist_waitsRetryAfter_andListsConsistently() throws Exception {
    ScriptedListerWatcher.Stream watch = h.startWatching("10");
    watch.bookmark(ReflectorTestObject.bookmark("15"));
    h.awaitLastSync("15");
    watch.error(StatusException.expired("too old").status());
    h.server.listFails(StatusException.tooLargeResourceVersion(15, 12));
    h.clock.awaitSleepAndWake();
    assertThat(h.server.awaitList().resourceVersion()).isEqualTo("15");

    h.server.page("16", "");
    assertThat(h.clock.awaitSleepAndWake()).as("the server's Retry-After")
        .isEqualTo(Duration.ofSeconds(1));
    assertThat(h.server.awaitList().resourceVersion()).isEmpty();
  }

  @Test
  void failedList_isRetriedAfterBackoff_withTheSameResourceVersion() throws Exception {
    UncheckedIOException refused =
        new UncheckedIOException(new ConnectException("Connection refused"));
    h.server.listFails(refused);
    h.server.page("10", "", pod("a", "5"));
    h.server.watchOpens();
    h.start();
    h.server.awaitList();

    assertThat(h.awaitError()).isSameAs(refused);
    Duration backoff = h.clock.awaitSleepAndWake();
    assertThat(backoff).isBetween(Duration.ofMillis(800), Duration.ofMillis(1600));
    assertThat(h.server.awaitList().resourceVersion()).isEqualTo("0");
    assertThat(h.store.awaitCall()).isEqualTo(Call.replace("10", pod("a", "5")));
    assertThat(h.listenerCalls)
        .startsWith("list 0 initial", "list 0 connection error: Connection refused");
    assertThat(h.reflector.metrics().relists()).as("the store was never filled before").isZero();
  }

  @Test
  void serverError_onList_isRetried() throws Exception {
    h.server.listFails(new StatusException(
        Status.failure(500, "InternalError", "etcd leader changed", null)));
    h.server.page("10", "");
    h.server.watchOpens();
    h.start();
    h.server.awaitList();
    h.clock.awaitSleepAndWake();
    h.server.awaitList();
    h.server.awaitWatch();
    assertThat(h.listenerCalls).contains("list 0 500 InternalError");
  }

  @Test
  void storeFailingOnReplace_isReported_andTheListRetriedAfterBackoff() throws Exception {
    IllegalStateException broken = new IllegalStateException("store broken");
    h.store.failNextWrite(broken);
    h.server.page("10", "", pod("a", "5"));
    h.server.page("11", "", pod("a", "6"));
    h.server.watchOpens();
    h.start();

    assertThat(h.awaitError()).isSameAs(broken);
    assertThat(h.reflector.lastSyncResourceVersion()).as("not synced by a failed replace").isEmpty();
    h.clock.awaitSleepAndWake();
    assertThat(h.server.awaitList().resourceVersion()).isEqualTo("0");
    assertThat(h.server.awaitList().resourceVersion()).isEqualTo("0");
    assertThat(h.store.awaitCall()).isEqualTo(Call.replace("11", pod("a", "6")));
    assertThat(h.server.awaitWatch().resourceVersion()).isEqualTo("11");
  }
}
