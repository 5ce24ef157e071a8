package io.listwatch.client.testing;

import static io.listwatch.client.testing.Pods.POD;
import static io.listwatch.client.testing.Pods.pod;
import static io.listwatch.client.testing.Pods.rv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.listwatch.api.LabelSelector;
import io.listwatch.api.ListOptions;
import io.listwatch.api.ResourceVersionMatch;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.WatchEvent;
import io.listwatch.client.WatchStream;
import io.listwatch.api.clock.FakeClock;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class ObjectTrackerWatchTest {

  private final FakeClient client = FakeClient.create();
  private final ResourceClient<Pod> pods = client.resource(ResourceType.PODS, POD);

  @AfterEach
  void closeClient() {
    client.close();
  }

  @Test
  void watch_fromAResourceVersion_replaysExactlyTheLaterEventsInOrder_thenFollowsLiveWrites() throws IOException {
    pods.create(pod("default", "a"));
    Pod b = pods.create(pod("default", "b"));
    pods.mergePatch("default", "a", "{\"metadata\":{\"labels\":{\"x\":\"1\"}}}");
    client.resource(ResourceType.CONFIGMAPS, Pods.CONFIG_MAP).create(Pods.configMap("default", "cm"));
    pods.delete("default", "b");

    try (WatchStream<Pod> w = pods.watch("default", watchFrom(b.getMetadata().getResourceVersion()))) {
      pods.create(pod("default", "c"));

      assertThat(describe(next(w), next(w), next(w))).containsExactly("MODIFIED a 3", "DELETED b 5", "ADDED c 6");
    }
  }

  @Test
  void watch_fromACompactedResourceVersion_getsAnErrorEvent410_thenTheEnd() throws IOException {
    Pod a = pods.create(pod("default", "a"));
    pods.create(pod("default", "b"));
    client.tracker().compact();

    try (WatchStream<Pod> w = pods.watch("default", watchFrom(a.getMetadata().getResourceVersion()))) {
      WatchEvent<Pod> error = next(w);
      assertThat(error.type()).isEqualTo(WatchEvent.Type.ERROR);
      assertThat(error.status().code()).isEqualTo(410);
      assertThat(error.status().reason()).isEqualTo("Expired");
      assertThat(w.next()).isEmpty();
    }
  }

  @Test
  void watch_fromAResourceVersionOutOfTheBoundedHistory_getsAnErrorEvent410() throws IOException {
    FakeClient small = FakeClient.create(ObjectTracker.builder().historyLimit(3).build());
    ResourceClient<Pod> smallPods = small.resource(ResourceType.PODS, POD);
    for (String name : List.of("a", "b", "c", "d", "e")) {
      smallPods.create(pod("default", name));
    }

    try (WatchStream<Pod> tooOld = smallPods.watch("default", watchFrom("1"));
        WatchStream<Pod> oldest = smallPods.watch("default", watchFrom("2"))) {
      assertThat(next(tooOld).status().code()).isEqualTo(410);
      assertThat(describe(next(oldest), next(oldest), next(oldest))).containsExactly("ADDED c 3", "ADDED d 4",
          "ADDED e 5");
    }
  }

  @Test
  void watch_fromEmptyOrZero_startsWithSyntheticAddedEventsForTheCurrentState() throws IOException {
    pods.create(pod("default", "a"));
    pods.create(pod("default", "b"));
    pods.delete("default", "a");

    for (String rv : List.of("", "0")) {
      try (WatchStream<Pod> w = pods.watch("default", watchFrom(rv))) {
        assertThat(describe(next(w))).containsExactly("ADDED b 2");
      }
    }
    try (WatchStream<Pod> w = pods.watch("default", watchFrom(""))) {
      pods.create(pod("default", "c"));
      assertThat(describe(next(w), next(w))).containsExactly("ADDED b 2", "ADDED c 4");
    }
  }

  @Test
  void watch_withSendInitialEvents_endsTheInitialEventsWithAnAnnotatedBookmark() throws IOException {
    pods.create(pod("default", "a"));
    pods.create(pod("default", "b"));
    client.resource(ResourceType.CONFIGMAPS, Pods.CONFIG_MAP).create(Pods.configMap("default", "cm"));
    ListOptions watchList = ListOptions.builder().watch(true).allowWatchBookmarks(true).sendInitialEvents(true)
        .resourceVersionMatch(ResourceVersionMatch.NOT_OLDER_THAN).build();

    try (WatchStream<Pod> w = pods.watch("default", watchList)) {
      assertThat(describe(next(w), next(w))).containsExactly("ADDED a 1", "ADDED b 2");
      WatchEvent<Pod> bookmark = next(w);
      assertThat(bookmark.type()).isEqualTo(WatchEvent.Type.BOOKMARK);
      assertThat(bookmark.object().getMetadata().getResourceVersion()).isEqualTo("3");
      assertThat(bookmark.object().getMetadata().getAnnotations())
          .containsEntry(WatchEvent.INITIAL_EVENTS_END_ANNOTATION, "true");
      pods.delete("default", "a");
      assertThat(describe(next(w))).containsExactly("DELETED a 4");
    }
  }

  @Test
  void sendBookmarks_reachesOnlyWatchesThatAllowThem() throws IOException {
    pods.create(pod("default", "a"));
    try (WatchStream<Pod> withBookmarks = pods.watch("default", watchFrom("1").toBuilder()
        .allowWatchBookmarks(true).build());
        WatchStream<Pod> without = pods.watch("default", watchFrom("1"))) {
      client.tracker().sendBookmarks();
      pods.create(pod("default", "b"));

      WatchEvent<Pod> bookmark = next(withBookmarks);
      assertThat(bookmark.type()).isEqualTo(WatchEvent.Type.BOOKMARK);
      assertThat(bookmark.object().getMetadata().getResourceVersion()).isEqualTo("1");
      assertThat(bookmark.object().getMetadata().getAnnotations()).isNullOrEmpty();
      assertThat(describe(next(without))).containsExactly("ADDED b 2");
    }
  }

  @Test
  void watch_withALabelSelector_seesObjectsEnterAsAddedAndLeaveAsDeleted() throws IOException {
    pods.create(pod("default", "a", Map.of("app", "web")));
    try (WatchStream<Pod> w = pods.watch("default", watchFrom("1").toBuilder()
        .labelSelector(LabelSelector.parse("app=web")).build())) {
      pods.create(pod("default", "db", Map.of("app", "db")));
      pods.mergePatch("default", "a", "{\"metadata\":{\"labels\":{\"app\":\"other\"}}}");
      pods.mergePatch("default", "db", "{\"metadata\":{\"labels\":{\"app\":\"web\"}}}");

      List<WatchEvent<Pod>> events = List.of(next(w), next(w));
      assertThat(describe(events.get(0), events.get(1))).containsExactly("DELETED a 3", "ADDED db 4");
      assertThat(events.get(0).object().getMetadata().getLabels()).containsEntry("app", "web");
    }
  }

  @Test
  void watch_ofAllNamespaces_andOfOne() throws IOException {
    try (WatchStream<Pod> all = pods.watch(null, watchFrom("0"));
        WatchStream<Pod> one = pods.watch("b", watchFrom("0"))) {
      pods.create(pod("a", "x"));
      pods.create(pod("b", "y"));

      assertThat(describe(next(all), next(all))).containsExactly("ADDED x 1", "ADDED y 2");
      assertThat(describe(next(one))).containsExactly("ADDED y 2");
    }
  }

  /** As the server (kube's watch cache): the watch is accepted, and the 504 comes as its one ERROR event. */
  @Test
  void watch_fromAResourceVersionNewerThanAnyWrite_getsAnErrorEvent504_thenTheEnd() throws IOException {
    try (WatchStream<Pod> w = pods.watch("default", watchFrom("7"))) {
      WatchEvent<Pod> error = next(w);
      assertThat(error.type()).isEqualTo(WatchEvent.Type.ERROR);
      assertThat(error.status().code()).isEqualTo(504);
      assertThat(error.status().message()).contains("Too large resource version");
      assertThat(w.next()).isEmpty();
    }
  }

  @Test
  void closeAllWatches_endsEveryStream_afterWhatWasQueued() throws IOException {
    WatchStream<Pod> first = pods.watch("default", watchFrom("0"));
    WatchStream<Pod> second = pods.watch(null, watchFrom("0"));
    pods.create(pod("default", "a"));

    client.tracker().closeAllWatches();

    assertThat(describe(next(first))).containsExactly("ADDED a 1");
    assertThat(first.next()).isEmpty();
    assertThat(describe(next(second))).containsExactly("ADDED a 1");
    assertThat(second.next()).isEmpty();
    assertThat(client.tracker().watchCount(ResourceType.PODS)).isZero();
  }

  @Test
  void aWatcherThatFallsTooFarBehind_isEnded_likeTheServerDoes() throws IOException {
    FakeClient small = FakeClient.create(ObjectTracker.builder().watchBufferSize(2).build());
    ResourceClient<Pod> smallPods = small.resource(ResourceType.PODS, POD);
    try (WatchStream<Pod> w = smallPods.watch("default", watchFrom("0"))) {
      for (String name : List.of("a", "b", "c")) {
        smallPods.create(pod("default", name));
      }

      assertThat(describe(next(w), next(w))).containsExactly("ADDED a 1", "ADDED b 2");
      assertThat(w.next()).isEmpty();
    }
  }

  @Test
  void next_blockedOnAQuietWatch_returnsEmpty_whenTheStreamIsClosed() throws Exception {
    WatchStream<Pod> w = pods.watch("default", watchFrom("0"));
    CompletableFuture<Optional<WatchEvent<Pod>>> result = new CompletableFuture<>();
    Thread reader = Thread.ofPlatform().name("watch-reader").start(() -> {
      try {
        result.complete(w.next());
      } catch (Throwable t) {
        result.completeExceptionally(t);
      }
    });
    awaitWaiting(reader);

    w.close();

    assertThat(result.get(5, TimeUnit.SECONDS)).isEmpty();
  }

  @Test
  void closingTheClient_endsItsWatches_andRefusesFurtherCalls() throws Exception {
    WatchStream<Pod> w = pods.watch("default", watchFrom("0"));
    CompletableFuture<Optional<WatchEvent<Pod>>> result = new CompletableFuture<>();
    Thread reader = Thread.ofPlatform().name("watch-reader").start(() -> {
      try {
        result.complete(w.next());
      } catch (Throwable t) {
        result.completeExceptionally(t);
      }
    });
    awaitWaiting(reader);

    client.close();

    assertThat(result.get(5, TimeUnit.SECONDS)).isEmpty();
    assertThatThrownBy(() -> pods.get("default", "a")).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void watch_withTimeoutSeconds_endsWhenTheClockReachesIt() throws Exception {
    FakeClock clock = new FakeClock();
    FakeClient timed = FakeClient.create(ObjectTracker.builder().clock(clock).build());
    ResourceClient<Pod> timedPods = timed.resource(ResourceType.PODS, POD);
    try (WatchStream<Pod> w = timedPods.watch("default", watchFrom("0").toBuilder().timeoutSeconds(30L).build())) {
      timedPods.create(pod("default", "a"));
      clock.advance(Duration.ofSeconds(29));
      assertThat(timed.tracker().watchCount(ResourceType.PODS)).isEqualTo(1);

      clock.advance(Duration.ofSeconds(1));

      assertThat(describe(next(w))).containsExactly("ADDED a 1");
      assertThat(w.next()).isEmpty();
    }
  }

  @Test
  void awaitWatches_returnsOnceAWatchIsOpen() throws Exception {
    assertThat(client.tracker().awaitWatches(ResourceType.PODS, 1, Duration.ZERO)).isFalse();
    CompletableFuture<Boolean> awaited = CompletableFuture.supplyAsync(() -> {
      try {
        return client.tracker().awaitWatches(ResourceType.PODS, 1, Duration.ofSeconds(5));
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });

    try (WatchStream<Pod> w = pods.watch("default", watchFrom("0"))) {
      assertThat(awaited.get(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  // ---- helpers ------------------------------------------------------------------------

  private static ListOptions watchFrom(String rv) {
    return ListOptions.builder().watch(true).resourceVersion(rv).build();
  }

  /** The next event, which must come (the stream must not end). */
  private static WatchEvent<Pod> next(WatchStream<Pod> w) throws IOException {
    return w.next().orElseThrow(() -> new AssertionError("the watch ended"));
  }

  @SafeVarargs
  private static List<String> describe(WatchEvent<Pod>... events) {
    List<String> out = new ArrayList<>();
    for (WatchEvent<Pod> e : events) {
      out.add(e.type() + " " + e.object().getMetadata().getName() + " " + rv(e.object()));
    }
    return out;
  }

  /** Waits (bounded) until {@code t} is parked, i.e. blocked in next(). */
  private static void awaitWaiting(Thread t) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("reader did not block: " + t.getState());
      }
      Thread.onSpinWait();
    }
  }
}
