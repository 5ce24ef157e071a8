package io.listwatch.apiserver.cacher;

import static io.listwatch.apiserver.cacher.TestObjects.added;
import static io.listwatch.apiserver.cacher.TestObjects.deleted;
import static io.listwatch.apiserver.cacher.TestObjects.modified;
import static io.listwatch.apiserver.cacher.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.FieldSelector;
import io.listwatch.api.LabelSelector;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CacheWatcherTest {

  private static final WatchFilter WEB =
      new WatchFilter("", LabelSelector.parse("app=web"), FieldSelector.everything());
  private static final Map<String, String> IS_WEB = Map.of("app", "web");
  private static final Map<String, String> IS_DB = Map.of("app", "db");
  private static final long SECOND = 1_000_000_000L;

  private final ManualEventExecutor loop = new ManualEventExecutor();
  private final FakeWatchSink sink = new FakeWatchSink(loop);
  private final AtomicInteger closedCalls = new AtomicInteger();

  private CacheWatcher watcher(WatchFilter filter, int capacity, long startResourceVersion) {
    return new CacheWatcher(filter, sink, capacity, startResourceVersion, null, closedCalls::incrementAndGet);
  }

  private CacheWatcher watcher(WatchFilter filter, int capacity, long startResourceVersion, BookmarkTimer timer) {
    return new CacheWatcher(filter, sink, capacity, startResourceVersion, timer, closedCalls::incrementAndGet);
  }

  private static List<String> types(List<FakeWatchSink.Line> lines) {
    return lines.stream().map(FakeWatchSink.Line::type).toList();
  }

  private static List<String> typesAndNames(List<FakeWatchSink.Line> lines) {
    return lines.stream().map(l -> l.type() + " " + l.name()).toList();
  }

  private static int lineCount(String write) {
    return (int) write.chars().filter(c -> c == '\n').count();
  }

  @Test
  void aWriteThatFails_endsTheWatch_neverGoingOnPastTheEventsItLost() {
    CacheWatcher w = watcher(WEB, 10, 0);
    w.offer(modified(pod("default", "a", 2, IS_WEB), pod("default", "a", 1, IS_WEB)));
    loop.runPending();
    sink.failNextWrite();
    w.offer(modified(pod("default", "a", 3, IS_WEB), pod("default", "a", 2, IS_WEB)));
    loop.runPending();

    assertThat(w.offer(modified(pod("default", "a", 4, IS_WEB), pod("default", "a", 3, IS_WEB))))
        .as("a later event would skip the lost one").isFalse();
    loop.runPending();
    assertThat(sink.events()).extracting(FakeWatchSink.Line::resourceVersion).containsExactly(2L);
    assertThat(sink.aborted()).isTrue();
    assertThat(closedCalls).hasValue(1);
    assertThat(w.ended()).isCompleted();
  }

  // ---- which form an event takes ----------------------------------------------------------

  @Test
  void offer_whenTheObjectMatchesBeforeAndAfter_sendsModified() {
    CacheWatcher w = watcher(WEB, 10, 0);

    assertThat(w.offer(modified(pod("default", "a", 2, IS_WEB), pod("default", "a", 1, IS_WEB)))).isTrue();
    loop.runPending();

    assertThat(sink.events()).singleElement().satisfies(l -> {
      assertThat(l.type()).isEqualTo("MODIFIED");
      assertThat(l.name()).isEqualTo("a");
      assertThat(l.resourceVersion()).isEqualTo(2);
    });
  }

  @Test
  void offer_whenTheObjectStartsMatching_sendsAdded() {
    CacheWatcher w = watcher(WEB, 10, 0);

    w.offer(modified(pod("default", "a", 2, IS_WEB), pod("default", "a", 1, IS_DB)));
    loop.runPending();

    assertThat(sink.events()).singleElement().satisfies(l -> {
      assertThat(l.type()).isEqualTo("ADDED");
      assertThat(l.resourceVersion()).isEqualTo(2);
    });
  }

  @Test
  void offer_whenTheObjectStopsMatching_sendsDeleted_atTheEventsResourceVersion() {
    CacheWatcher w = watcher(WEB, 10, 0);

    w.offer(modified(pod("default", "a", 2, IS_DB), pod("default", "a", 1, IS_WEB)));
    loop.runPending();

    assertThat(sink.events()).singleElement().satisfies(l -> {
      assertThat(l.type()).isEqualTo("DELETED");
      assertThat(l.name()).isEqualTo("a");
      assertThat(l.resourceVersion()).isEqualTo(2);
    });
  }

  /**
   * kube's cacheWatcher.convertToWatchEvent: "return a delete event with the previous object
   * content, but with the event's resource version", so a selector-filtered watch never sees
   * an object that does not match its selector.
   */
  @Test
  void offer_whenTheObjectStopsMatching_theDeletedObjectIsItsLastMatchingState() {
    CacheWatcher w = watcher(WEB, 10, 0);

    w.offer(modified(pod("default", "a", 2, IS_DB), pod("default", "a", 1, IS_WEB)));
    loop.runPending();

    assertThat(sink.events()).singleElement().satisfies(l -> {
      assertThat(l.type()).isEqualTo("DELETED");
      assertThat(l.object().at("/metadata/labels/app").asText()).isEqualTo("web");
      assertThat(l.resourceVersion()).isEqualTo(2);
    });
  }

  @Test
  void offer_whenTheObjectMatchesNeitherBeforeNorAfter_sendsNothing() {
    CacheWatcher w = watcher(WEB, 10, 0);

    assertThat(w.offer(modified(pod("default", "a", 2, IS_DB), pod("default", "a", 1, IS_DB)))).isTrue();
    assertThat(w.offer(added(pod("default", "b", 3, IS_DB)))).isTrue();
    assertThat(w.offer(deleted(pod("default", "b", 3, IS_DB), 4))).isTrue();

    assertThat(w.queued()).isZero();
    assertThat(loop.pending()).as("no drain scheduled").isZero();
  }

  @Test
  void offer_creationAndDeletionOfAMatchingObject_sendAddedAndDeleted() {
    CacheWatcher w = watcher(WEB, 10, 0);
    CachedObject a = pod("default", "a", 1, IS_WEB);

    w.offer(added(a));
    w.offer(deleted(a, 2));
    loop.runPending();

    assertThat(typesAndNames(sink.events())).containsExactly("ADDED a", "DELETED a");
    assertThat(sink.events().get(1).resourceVersion()).isEqualTo(2);
  }

  @Test
  void offer_skipsEventsAtOrBelowTheStartResourceVersion() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 5);

    for (long rv = 3; rv <= 7; rv++) {
      assertThat(w.offer(added(pod("p" + rv, rv)))).isTrue();
    }
    loop.runPending();

    assertThat(sink.events()).extracting(FakeWatchSink.Line::resourceVersion).containsExactly(6L, 7L);
  }

  @Test
  void offer_sharesOneFramePerForm_acrossWatchers() {
    WatchCacheEvent e = modified(pod("default", "a", 2, IS_WEB), pod("default", "a", 1, IS_WEB));

    assertThat(e.frame(WatchCacheEvent.Type.MODIFIED, WatchEncoding.JSON)).isSameAs(e.frame(WatchCacheEvent.Type.MODIFIED, WatchEncoding.JSON));
    assertThat(new String(join(e.frame(WatchCacheEvent.Type.MODIFIED, WatchEncoding.JSON)), StandardCharsets.UTF_8))
        .startsWith("{\"type\":\"MODIFIED\",\"object\":{").endsWith("}\n");
  }

  @Test
  void frames_areBuiltOncePerEncoding_andProtobufOnesAreLengthPrefixedWatchEvents() throws Exception {
    WatchCacheEvent e = modified(pod("default", "a", 2, IS_WEB), pod("default", "a", 1, IS_WEB));

    byte[][] protobuf = e.frame(WatchCacheEvent.Type.MODIFIED, WatchEncoding.PROTOBUF);

    assertThat(e.frame(WatchCacheEvent.Type.MODIFIED, WatchEncoding.PROTOBUF)).isSameAs(protobuf);
    assertThat(e.frame(WatchCacheEvent.Type.MODIFIED, WatchEncoding.JSON)).isNotSameAs(protobuf);
    assertThat(java.nio.ByteBuffer.wrap(protobuf[0]).getInt()).isEqualTo(protobuf[1].length);
    io.kubernetes.client.proto.Meta.WatchEvent event = io.kubernetes.client.proto.Meta.WatchEvent.parseFrom(protobuf[1]);
    assertThat(event.getType()).isEqualTo("MODIFIED");
    io.listwatch.apiserver.protobuf.Envelope object =
        io.listwatch.apiserver.protobuf.Envelope.unwrap(event.getObject().getRaw().toByteArray());
    assertThat(io.kubernetes.client.proto.V1.Pod.parseFrom(object.raw()).getMetadata().getResourceVersion())
        .isEqualTo("2");
  }

  // ---- draining -------------------------------------------------------------------------

  @Test
  void drain_writesInitialEventsFirst_thenTheAfterInitialFrame_thenQueuedEvents() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 5);
    w.setInitial(List.of(pod("a", 1), pod("b", 4)), Frames.bookmark("v1", "Pod", 5, true));

    w.offer(added(pod("c", 6)));
    w.offer(added(pod("d", 7)));
    loop.runPending();

    List<FakeWatchSink.Line> lines = sink.events();
    assertThat(typesAndNames(lines)).containsExactly("ADDED a", "ADDED b", "BOOKMARK ", "ADDED c", "ADDED d");
    assertThat(lines.get(2).resourceVersion()).isEqualTo(5);
    assertThat(lines.get(2).object().at("/metadata/annotations/k8s.io~1initial-events-end").asText())
        .isEqualTo("true");
    assertThat(lines.get(2).object().get("kind").asText()).isEqualTo("Pod");
  }

  @Test
  void drain_withNothingQueued_stillWritesTheInitialEvents() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 5);
    w.setInitial(List.of(pod("a", 1)), null);

    w.drain();

    assertThat(typesAndNames(sink.events())).containsExactly("ADDED a");
    assertThat(sink.flushes()).isEqualTo(1);
  }

  @Test
  void drain_initialEventsDoNotOccupyTheQueue() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 2, 100);
    w.setInitial(IntStream.range(0, 50).mapToObj(i -> pod("p" + i, 1 + i)).toList(), null);

    assertThat(w.offer(added(pod("x", 101)))).isTrue();
    assertThat(w.offer(added(pod("y", 102)))).isTrue();
    loop.runPending();

    assertThat(sink.events()).hasSize(52);
  }

  @Test
  void drain_replaysTheHistoryFirst_inTheFormThisWatcherSees_thenQueuedEvents() {
    CacheWatcher w = watcher(WEB, 10, 1);
    CachedObject a2 = pod("default", "a", 2, IS_WEB);
    w.setHistory(List.of(
        added(pod("default", "old", 1, IS_WEB)), // at the start resourceVersion: skipped
        added(a2),
        added(pod("default", "db", 3, IS_DB)), // never matches: skipped
        modified(pod("default", "a", 4, IS_DB), a2)));

    w.offer(added(pod("default", "b", 5, IS_WEB)));
    loop.runPending();

    assertThat(typesAndNames(sink.events())).containsExactly("ADDED a", "DELETED a", "ADDED b");
  }

  @Test
  void drain_historyLongerThanTheQueue_isWrittenInFull() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 2, 0);
    w.setHistory(IntStream.rangeClosed(1, 100).mapToObj(i -> added(pod("p" + i, i))).toList());

    assertThat(w.offer(added(pod("x", 101)))).isTrue();
    assertThat(w.offer(added(pod("y", 102)))).isTrue();
    loop.runPending();

    assertThat(sink.events()).extracting(FakeWatchSink.Line::resourceVersion)
        .containsExactlyElementsOf(IntStream.rangeClosed(1, 102).mapToObj(i -> (long) i).toList());
    assertThat(sink.writes()).extracting(CacheWatcherTest::lineCount).containsExactly(64, 36, 2);
    assertThat(sink.flushes()).isEqualTo(1);
  }

  @Test
  void drain_batchesInitialEvents_inWritesOfAtMost64Events() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 1000);
    w.setInitial(IntStream.range(0, 130).mapToObj(i -> pod("p" + i, 1 + i)).toList(),
        Frames.bookmark("v1", "Pod", 1000, true));

    w.drain();

    assertThat(sink.writes()).extracting(CacheWatcherTest::lineCount).containsExactly(64, 64, 3);
    assertThat(sink.flushes()).isEqualTo(1);
    assertThat(types(sink.events())).last().isEqualTo("BOOKMARK");
  }

  @Test
  void drain_ofManyInitialEvents_writesABoundedTurn_andGoesOnInTheSinksNextTurn() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 10_000);
    w.setInitial(IntStream.range(0, 5_000).mapToObj(i -> pod("p" + i, 1 + i)).toList(),
        Frames.bookmark("v1", "Pod", 10_000, true));

    w.drain();

    int firstTurn = sink.writes().stream().mapToInt(String::length).sum();
    assertThat(firstTurn).isBetween(CacheWatcher.TURN_BYTES, CacheWatcher.TURN_BYTES + 64 * 1_000);
    assertThat(sink.flushes()).as("the turn's writes are flushed").isEqualTo(1);
    assertThat(loop.pending()).as("the next turn").isEqualTo(1);

    loop.runPending(); // the turns that follow, each scheduling the next

    assertThat(sink.flushes()).as("one flush per turn").isGreaterThan(2);
    List<FakeWatchSink.Line> events = sink.events();
    assertThat(events).hasSize(5_001);
    assertThat(events.subList(0, 5_000)).extracting(FakeWatchSink.Line::name)
        .containsExactlyElementsOf(IntStream.range(0, 5_000).mapToObj(i -> "p" + i).toList());
    assertThat(types(events)).last().isEqualTo("BOOKMARK");
  }

  @Test
  void drain_coalescesManyQueuedFrames_intoWritesOfAtMost64_andOneFlush() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 1000, 0);
    for (long rv = 1; rv <= 150; rv++) {
      assertThat(w.offer(added(pod("p" + rv, rv)))).isTrue();
    }
    assertThat(loop.pending()).as("one drain scheduled for all offers").isEqualTo(1);

    loop.runPending();

    assertThat(sink.writes()).extracting(CacheWatcherTest::lineCount).containsExactly(64, 64, 22);
    assertThat(sink.flushes()).isEqualTo(1);
    assertThat(sink.events()).extracting(FakeWatchSink.Line::resourceVersion)
        .containsExactlyElementsOf(IntStream.rangeClosed(1, 150).mapToObj(i -> (long) i).toList());
    assertThat(w.queued()).isZero();
  }

  @Test
  void drain_afterADrain_theNextOfferSchedulesAnother() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 0);
    w.offer(added(pod("a", 1)));
    loop.runPending();

    w.offer(added(pod("b", 2)));
    assertThat(loop.pending()).isEqualTo(1);
    loop.runPending();

    assertThat(typesAndNames(sink.events())).containsExactly("ADDED a", "ADDED b");
    assertThat(sink.flushes()).isEqualTo(2);
  }

  @Test
  void drain_whileNotWritable_writesNothing_untilWritableAgain() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 0);
    sink.setWritable(false);
    w.offer(added(pod("a", 1)));
    w.offer(added(pod("b", 2)));

    loop.runPending();
    assertThat(sink.writes()).isEmpty();
    assertThat(sink.flushes()).isZero();
    assertThat(w.queued()).isEqualTo(2);

    sink.setWritable(true);
    w.drain(); // what the transport does when the channel becomes writable
    assertThat(typesAndNames(sink.events())).containsExactly("ADDED a", "ADDED b");
  }

  @Test
  void offer_whenTheQueueIsFullBecauseTheSinkIsNotWritable_returnsFalse() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 3, 0);
    sink.setWritable(false);
    for (long rv = 1; rv <= 3; rv++) {
      assertThat(w.offer(added(pod("p" + rv, rv)))).isTrue();
      loop.runPending();
    }

    assertThat(w.offer(added(pod("p4", 4)))).isFalse();
    assertThat(w.offerFrame(Frames.bookmark("v1", "Pod", 4, false))).isFalse();
    assertThat(w.queued()).isEqualTo(3);
    assertThat(sink.writes()).isEmpty();
  }

  // ---- ending --------------------------------------------------------------------------

  @Test
  void end_writesWhatIsQueued_thenEndsTheSink_andReportsClosedOnce() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 0);
    w.offer(added(pod("a", 1)));
    w.offer(added(pod("b", 2)));

    w.end();
    assertThat(w.offer(added(pod("c", 3)))).as("accepted but dropped while ending").isTrue();
    loop.runPending();

    assertThat(typesAndNames(sink.events())).containsExactly("ADDED a", "ADDED b");
    assertThat(sink.ended()).isTrue();
    assertThat(sink.aborted()).isFalse();
    assertThat(w.isClosed()).isTrue();
    assertThat(closedCalls).hasValue(1);

    w.end();
    w.terminate();
    loop.runPending();
    assertThat(closedCalls).hasValue(1);
    assertThat(sink.aborted()).isFalse();
  }

  /**
   * Found by {@link CacheWatcherLincheckTest}: an event offered after {@code end()} was
   * reported QUEUED (and counted as dispatched by the cacher) though it is never written.
   */
  @Test
  void deliver_afterEnd_isSkipped_notQueued_andTheWatchStillEnds() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 0);
    assertThat(w.deliver(added(pod("a", 1)))).isEqualTo(CacheWatcher.Delivery.QUEUED);

    w.end();

    assertThat(w.deliver(added(pod("b", 2)))).isEqualTo(CacheWatcher.Delivery.SKIPPED);
    loop.runPending();
    assertThat(typesAndNames(sink.events())).containsExactly("ADDED a");
    assertThat(sink.ended()).isTrue();
    assertThat(w.deliver(added(pod("c", 3)))).as("closed").isEqualTo(CacheWatcher.Delivery.REFUSED);
  }

  @Test
  void end_whileNotWritable_endsOnlyAfterTheQueueIsWritten() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 0);
    sink.setWritable(false);
    w.offer(added(pod("a", 1)));
    w.end();
    loop.runPending();
    assertThat(sink.ended()).isFalse();
    assertThat(w.isClosed()).isFalse();

    sink.setWritable(true);
    w.drain();

    assertThat(typesAndNames(sink.events())).containsExactly("ADDED a");
    assertThat(sink.ended()).isTrue();
  }

  @Test
  void end_writesTheInitialEventsFirst() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 5);
    w.setInitial(List.of(pod("a", 1)), null);

    w.end();
    loop.runPending();

    assertThat(typesAndNames(sink.events())).containsExactly("ADDED a");
    assertThat(sink.ended()).isTrue();
  }

  @Test
  void terminate_abortsTheSink_dropsWhatIsQueued_andReportsClosedOnce() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 0);
    w.offer(added(pod("a", 1)));
    w.offer(added(pod("b", 2)));

    w.terminate();
    w.terminate();
    loop.runPending();

    assertThat(sink.writes()).isEmpty();
    assertThat(sink.aborted()).isTrue();
    assertThat(sink.ended()).isFalse();
    assertThat(w.isClosed()).isTrue();
    assertThat(w.queued()).isZero();
    assertThat(closedCalls).hasValue(1);
    assertThat(w.offer(added(pod("c", 3)))).isFalse();
  }

  @Test
  void onSinkClosed_closesTheWatcher_withoutTouchingTheSink() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 0);
    w.offer(added(pod("a", 1)));

    w.onSinkClosed();
    w.onSinkClosed();
    loop.runPending();

    assertThat(closedCalls).hasValue(1);
    assertThat(sink.writes()).isEmpty();
    assertThat(sink.aborted()).isFalse();
    assertThat(sink.ended()).isFalse();
    assertThat(w.offer(added(pod("b", 2)))).isFalse();
  }

  // ---- bookmarks and deadline ---------------------------------------------------------------

  @Test
  void tick_whenABookmarkIsDue_queuesABookmarkAtTheCachesResourceVersion() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 5,
        new BookmarkTimer(true, 0, 60 * SECOND, Long.MAX_VALUE));

    w.tick(59 * SECOND, 8, "v1", "Pod");
    loop.runPending();
    assertThat(sink.writes()).isEmpty();

    w.tick(60 * SECOND, 8, "v1", "Pod");
    loop.runPending();

    assertThat(sink.events()).singleElement().satisfies(l -> {
      assertThat(l.type()).isEqualTo("BOOKMARK");
      assertThat(l.resourceVersion()).isEqualTo(8);
      assertThat(l.object().get("apiVersion").asText()).isEqualTo("v1");
      assertThat(l.object().has("metadata")).isTrue();
      assertThat(l.object().at("/metadata/annotations").isMissingNode()).isTrue();
    });
  }

  @Test
  void tick_withoutBookmarksAllowed_sendsNone() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 5,
        new BookmarkTimer(false, 0, SECOND, 100 * SECOND));

    for (long t = 0; t < 100; t++) {
      w.tick(t * SECOND, 8, "v1", "Pod");
    }
    loop.runPending();

    assertThat(sink.writes()).isEmpty();
    assertThat(sink.ended()).isFalse();
  }

  @Test
  void tick_atTheDeadline_endsTheWatch_afterWhatIsQueued() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 0,
        new BookmarkTimer(false, 0, SECOND, 10 * SECOND));
    w.offer(added(pod("a", 1)));

    w.tick(10 * SECOND, 1, "v1", "Pod");
    loop.runPending();

    assertThat(typesAndNames(sink.events())).containsExactly("ADDED a");
    assertThat(sink.ended()).isTrue();
    assertThat(closedCalls).hasValue(1);
  }

  @Test
  void tick_sendsTheFinalBookmarkBeforeTheDeadline() {
    CacheWatcher w = watcher(WatchFilter.EVERYTHING, 10, 0,
        new BookmarkTimer(true, 0, 60 * SECOND, 30 * SECOND));

    w.tick(27 * SECOND, 3, "v1", "Pod");
    loop.runPending();
    assertThat(sink.writes()).isEmpty();

    w.tick(28 * SECOND, 3, "v1", "Pod");
    loop.runPending();

    assertThat(types(sink.events())).containsExactly("BOOKMARK");
    assertThat(sink.ended()).isFalse();
  }

  private static byte[] join(byte[][] parts) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
