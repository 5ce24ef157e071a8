package io.listwatch.client.cache;

import static io.listwatch.client.cache.ReflectorTestObject.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.ListOptions;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.client.cache.ReflectorRecordingStore.Call;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The reflector's watches: options, events, and what each way of ending leads to. */
@Timeout(30)
class ReflectorWatchTest {

  private final ReflectorHarness h = new ReflectorHarness();

  @AfterEach
  void tearDown() throws InterruptedException {
    h.close();
  }

  @Test
  void watch_startsFromTheListVersion_withBookmarksAndATimeoutOfFiveToTenMinutes()
      throws Exception {
    h.server.page("10", "", pod("a", "5"));
    h.server.watchOpens();
    h.start();

    ListOptions watch = h.server.awaitWatch();
    assertThat(watch.watch()).isTrue();
    assertThat(watch.resourceVersion()).isEqualTo("10");
    assertThat(watch.allowWatchBookmarks()).isTrue();
    assertThat(watch.sendInitialEvents()).isNull();
    assertThat(watch.timeoutSeconds()).isBetween(300L, 599L);
  }

  @Test
  void watchTimeouts_areSpreadOverTheRange() throws Exception {
    ScriptedListerWatcher.Stream watch = h.startWatching("10");
    for (int i = 0; i < 20; i++) {
      watch.added(pod("a" + i, Integer.toString(11 + i)));
      watch.end();
      watch = h.server.watchOpens();
      h.server.awaitWatch();
    }
    List<Long> timeouts = h.server.watches().stream().map(ListOptions::timeoutSeconds).toList();
    assertThat(timeouts).hasSize(21).allMatch(t -> t >= 300 && t < 600);
    assertThat(new HashSet<>(timeouts)).as("random, not one fixed value").hasSizeGreaterThan(1);
  }

  @Test
  void events_goToTheStore_andAdvanceLastSyncResourceVersion() throws Exception {
    ScriptedListerWatcher.Stream watch = h.startWatching("10", pod("b", "9"));
    watch.added(pod("a", "11")).modified(pod("a", "12")).deleted(pod("b", "13"));

    assertThat(h.store.awaitCall()).isEqualTo(Call.add(pod("a", "11")));
    assertThat(h.store.awaitCall()).isEqualTo(Call.update(pod("a", "12")));
    assertThat(h.store.awaitCall()).isEqualTo(Call.delete(pod("b", "13")));
    h.awaitLastSync("13");
    assertThat(h.reflector.metrics().events()).isEqualTo(3);
    assertThat(h.reflector.metrics().lastEventTime()).contains(h.clock.now());
  }

  @Test
  void bookmark_advancesLastSyncResourceVersion_withoutTouchingTheStore() throws Exception {
    ScriptedListerWatcher.Stream watch = h.startWatching("10", pod("a", "5"));
    watch.bookmark(ReflectorTestObject.bookmark("15"));
    h.awaitLastSync("15");
    watch.added(pod("c", "16"));

    assertThat(h.store.awaitCall()).as("the next store call after the list's replace")
        .isEqualTo(Call.add(pod("c", "16")));
  }

  @Test
  void serverEndingTheWatch_watchesAgainFromLastVersion_atOnceAndWithoutListing()
      throws Exception {
    ScriptedListerWatcher.Stream watch = h.startWatching("10");
    watch.added(pod("a", "11"));
    watch.end();
    h.server.watchOpens();

    assertThat(h.server.awaitWatch().resourceVersion()).isEqualTo("11");
    assertThat(h.server.lists()).hasSize(1);
    assertThat(h.clock.unawaitedSleeps()).as("no backoff").isZero();
    assertThat(h.listenerCalls).endsWith("watch 11 watch ended");
    assertThat(h.errors).isEmpty();
  }

  @Test
  void watchEndingAtOnceWithoutEvents_isAFailure_andBacksOff() throws Exception {
    ScriptedListerWatcher.Stream watch = h.startWatching("10");
    watch.end();

    assertThat(h.awaitError()).hasMessageContaining("very short watch");
    h.server.watchOpens();
    assertThat(h.clock.awaitSleepAndWake()).isBetween(Duration.ofMillis(800), Duration.ofMillis(1600));
    assertThat(h.server.awaitWatch().resourceVersion()).isEqualTo("10");
    assertThat(h.server.lists()).hasSize(1);
  }

  @Test
  void connectionError_backsOff_thenWatchesAgainFromLastVersion_withoutListing()
      throws Exception {
    ScriptedListerWatcher.Stream watch = h.startWatching("10");
    watch.added(pod("a", "11"));
    IOException reset = new IOException("Connection reset");
    watch.fail(reset);

    assertThat(h.awaitError()).isSameAs(reset);
    h.server.watchOpens();
    Duration backoff = h.clock.awaitSleep();
    assertThat(backoff).isBetween(Duration.ofMillis(800), Duration.ofMillis(1600));
    assertThat(watch.isClosed()).as("closed before the backoff").isTrue();
    h.clock.fake.advance(backoff);

    assertThat(h.server.awaitWatch().resourceVersion()).isEqualTo("11");
    assertThat(h.server.lists()).hasSize(1);
    assertThat(h.listenerCalls).endsWith("watch 11 connection error: Connection reset");
  }

  @Test
  void watchOpenFailures_backOffExponentially_andRewatchTheSameVersion() throws Exception {
    ScriptedListerWatcher.Stream watch = h.startWatching("10");
    watch.added(pod("a", "11"));
    h.awaitLastSync("11");
    UncheckedIOException refused =
        new UncheckedIOException(new ConnectException("Connection refused"));
    h.server.watchFails(refused);
    h.server.watchFails(refused);
    h.server.watchFails(refused);
    watch.fail(new IOException("Connection reset"));

    Duration[] delays = new Duration[4];
    for (int i = 0; i < 4; i++) {
      if (i == 3) {
        h.server.watchOpens();
      }
      delays[i] = h.clock.awaitSleepAndWake();
      assertThat(h.server.awaitWatch().resourceVersion()).isEqualTo("11");
    }
    assertThat(delays[0]).isBetween(Duration.ofMillis(800), Duration.ofMillis(1600));
    assertThat(delays[1]).isBetween(Duration.ofMillis(1600), Duration.ofMillis(3200));
    assertThat(delays[2]).isBetween(Duration.ofMillis(3200), Duration.ofMillis(6400));
    assertThat(delays[3]).isBetween(Duration.ofMillis(6400), Duration.ofMillis(12800));
    assertThat(h.server.lists()).hasSize(1);
  }

  @Test
  void tooManyRequests_waitsTheServersRetryAfter_thenWatchesAgain() throws Exception {
    ScriptedListerWatcher.Stream watch = h.startWatching("10");
    watch.added(pod("a", "11"));
    h.awaitLastSync("11");
    h.server.watchFails(new StatusException(Status.failure(429, Reasons.TOO_MANY_REQUESTS,
        "Too many requests, please try again later.",
        new Status.Details(null, null, null, null, null, 7))));
    watch.end();
    h.server.awaitWatch();

    assertThat(h.clock.awaitSleepAndWake()).isEqualTo(Duration.ofSeconds(7));
    h.server.watchOpens();
    assertThat(h.server.awaitWatch().resourceVersion()).isEqualTo("11");
    assertThat(h.listenerCalls).endsWith("watch 11 429 TooManyRequests");
    assertThat(h.server.lists()).hasSize(1);
  }

  @Test
  void errorEventOtherThanExpired_backsOff_andWatchesAgainWithoutListing() throws Exception {
    ScriptedListerWatcher.Stream watch = h.startWatching("10");
    watch.bookmark(ReflectorTestObject.bookmark("12"));
    watch.error(StatusException.internal("etcd unavailable").status());

    assertThat(h.awaitError()).isInstanceOf(StatusException.class)
        .extracting(e -> ((StatusException) e).code()).isEqualTo(500);
    h.server.watchOpens();
    h.clock.awaitSleepAndWake();
    assertThat(h.server.awaitWatch().resourceVersion()).isEqualTo("12");
    assertThat(h.server.lists()).hasSize(1);
  }

  @Test
  void expiredOnWatchOpen_relistsFromTheLastSyncedVersion() throws Exception {
    ScriptedListerWatcher.Stream watch = h.startWatching("10");
    watch.bookmark(ReflectorTestObject.bookmark("12"));
    h.awaitLastSync("12");
    h.server.watchFails(StatusException.expired("too old resource version: 12 (40)"));
    watch.end();
    h.server.awaitWatch();

    h.server.page("41", "");
    h.clock.awaitSleepAndWake();
    assertThat(h.server.awaitList().resourceVersion()).isEqualTo("12");
    assertThat(h.listenerCalls).contains("list 12 410 Expired");
  }

  @Test
  void silentWatch_isReplaced_afterTwiceTheBookmarkInterval() throws Exception {
    ScriptedListerWatcher.Stream watch = h.startWatching("10");
    h.awaitClockTasks(1);

    h.clock.fake.advance(Duration.ofSeconds(119));
    assertThat(watch.isClosed()).isFalse();
    h.server.watchOpens();
    h.clock.fake.advance(Duration.ofSeconds(1));
    watch.awaitClosed();

    assertThat(h.server.awaitWatch().resourceVersion()).isEqualTo("10");
    assertThat(h.awaitError()).isInstanceOf(TimeoutException.class)
        .hasMessage("watch silent for 2m0s");
    assertThat(h.listenerCalls).endsWith("watch 10 watch silent for 2m0s");
    assertThat(h.server.lists()).hasSize(1);
    assertThat(h.clock.unawaitedSleeps()).as("no backoff").isZero();
  }

  @Test
  void events_keepAWatchFromBeingReplaced() throws Exception {
    ScriptedListerWatcher.Stream watch = h.startWatching("10");
    h.awaitClockTasks(1);
    h.clock.fake.advance(Duration.ofSeconds(90));
    watch.added(pod("a", "11"));
    h.store.awaitCall();

    h.clock.fake.advance(Duration.ofSeconds(90));
    assertThat(watch.isClosed()).as("30s after the last event").isFalse();
    h.clock.fake.advance(Duration.ofSeconds(29));
    assertThat(watch.isClosed()).isFalse();
    h.server.watchOpens();
    h.clock.fake.advance(Duration.ofSeconds(1));
    watch.awaitClosed();
    assertThat(h.server.awaitWatch().resourceVersion()).isEqualTo("11");
  }

  @Test
  void bookmarkIntervalZero_disablesTheStalenessCheck() throws Exception {
    h.server.page("10", "");
    ScriptedListerWatcher.Stream watch = h.server.watchOpens();
    h.start(h.builder().bookmarkInterval(Duration.ZERO));
    h.server.awaitWatch();
    watch.added(pod("a", "11"));
    h.store.awaitCall();
    h.store.awaitCall();

    h.clock.fake.advance(Duration.ofHours(1));
    assertThat(h.clock.fake.pendingTasks()).isZero();
    assertThat(watch.isClosed()).isFalse();
  }

  @Test
  void storeFailingOnAnEvent_isReported_andTheWatchGoesOn() throws Exception {
    ScriptedListerWatcher.Stream watch = h.startWatching("10");
    IllegalStateException broken = new IllegalStateException("store broken");
    h.store.failNextWrite(broken);
    watch.added(pod("a", "11")).added(pod("b", "12"));

    assertThat(h.awaitError()).isSameAs(broken);
    assertThat(h.store.awaitCall()).isEqualTo(Call.add(pod("b", "12")));
    h.awaitLastSync("12");
    assertThat(watch.isClosed()).isFalse();
  }
}
