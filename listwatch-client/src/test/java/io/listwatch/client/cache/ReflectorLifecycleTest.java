package io.listwatch.client.cache;

import static io.listwatch.client.cache.ReflectorTestObject.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.client.cache.ReflectorRecordingStore.Call;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Resync, close() and the builder's checks. */
@Timeout(30)
class ReflectorLifecycleTest {

  private final ReflectorHarness h = new ReflectorHarness();

  @AfterEach
  void tearDown() throws InterruptedException {
    h.close();
  }

  @Test
  void resync_callsStoreResyncEveryPeriod_whenShouldResyncSaysSo() throws Exception {
    AtomicBoolean shouldResync = new AtomicBoolean(true);
    h.server.page("10", "", pod("a", "5"));
    h.server.watchOpens();
    h.start(h.builder()
        .resyncPeriod(Duration.ofSeconds(30), shouldResync::get)
        .bookmarkInterval(Duration.ZERO));
    h.store.awaitCall();
    h.awaitClockTasks(1);

    h.clock.fake.advance(Duration.ofSeconds(29));
    assertThat(h.store.calls()).hasSize(1);
    h.clock.fake.advance(Duration.ofSeconds(1));
    assertThat(h.store.awaitCall()).isEqualTo(Call.resync());
    shouldResync.set(false);
    h.clock.fake.advance(Duration.ofSeconds(30));
    shouldResync.set(true);
    h.clock.fake.advance(Duration.ofSeconds(30));
    assertThat(h.store.awaitCall()).isEqualTo(Call.resync());
    assertThat(h.store.calls()).filteredOn(c -> c.op().equals("resync")).hasSize(2);
  }

  @Test
  void close_stopsResync() throws Exception {
    h.server.page("10", "");
    h.server.watchOpens();
    h.start(h.builder().resyncPeriod(Duration.ofSeconds(30), () -> true)
        .bookmarkInterval(Duration.ZERO));
    h.server.awaitWatch();
    h.reflector.close();
    h.awaitStopped();

    assertThat(h.clock.fake.pendingTasks()).isZero();
    h.clock.fake.advance(Duration.ofMinutes(5));
    assertThat(h.store.calls()).extracting(Call::op).containsExactly("replace");
  }

  @Test
  void close_whileBlockedInAWatch_stopsRunPromptly_andClosesTheWatch() throws Exception {
    ScriptedListerWatcher.Stream watch = h.startWatching("10");
    h.reflector.close();

    assertThat(h.awaitStopped()).as("interrupt cleared").isFalse();
    assertThat(watch.isClosed()).isTrue();
    assertThat(h.server.watches()).hasSize(1);
    assertThat(h.server.lists()).hasSize(1);
    assertThat(h.errors).as("closing is not a failure").isEmpty();
    assertThat(h.clock.fake.pendingTasks()).as("staleness check cancelled").isZero();
  }

  @Test
  void close_whileBackingOff_stopsRunPromptly() throws Exception {
    h.server.listFails(new UncheckedIOException(new ConnectException("Connection refused")));
    h.start();
    h.clock.awaitSleep();
    h.reflector.close();

    assertThat(h.awaitStopped()).as("interrupt cleared").isFalse();
    assertThat(h.server.lists()).hasSize(1);
  }

  @Test
  void close_whileWaitingForAList_stopsRunPromptly() throws Exception {
    h.start();
    h.server.awaitList();
    h.reflector.close();

    assertThat(h.awaitStopped()).isFalse();
    assertThat(h.errors).isEmpty();
    assertThat(h.store.calls()).isEmpty();
  }

  @Test
  void close_beforeRun_makesRunReturnAtOnce_andCloseIsIdempotent() {
    Reflector<ReflectorTestObject> reflector = h.builder().build();
    reflector.close();
    reflector.close();
    reflector.run();

    assertThat(h.server.lists()).isEmpty();
    assertThat(reflector.lastSyncResourceVersion()).isEmpty();
  }

  @Test
  void run_secondCall_isRejected() throws Exception {
    h.startWatching("10");
    assertThatThrownBy(() -> h.reflector.run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Reflector[pods]");
  }

  @Test
  void builder_rejectsNonsense() {
    assertThatThrownBy(() -> h.builder().pageSize(-1).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pageSize");
    assertThatThrownBy(() -> h.builder().minWatchTimeout(Duration.ofMillis(10)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minWatchTimeout");
    assertThatThrownBy(() -> h.builder().backoff(Duration.ofSeconds(10), Duration.ofSeconds(1))
        .build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max backoff");
    assertThatThrownBy(() -> h.builder().resyncPeriod(Duration.ofSeconds(-1), () -> true).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("resyncPeriod");
  }
}
