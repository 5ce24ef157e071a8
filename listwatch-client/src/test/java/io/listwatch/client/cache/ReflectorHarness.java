package io.listwatch.client.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Wires a reflector to a scripted server, a recording store and a fake clock, runs it on
 * its own thread and records what it tells its listener and error handler.
 */
final class ReflectorHarness implements AutoCloseable {

  final ReflectorTestClock clock = new ReflectorTestClock();
  final ScriptedListerWatcher server = new ScriptedListerWatcher();
  final ReflectorRecordingStore store = new ReflectorRecordingStore();
  /** "list rv reason", "listed rv n", "watch rv reason", in order. */
  final List<String> listenerCalls = new CopyOnWriteArrayList<>();
  final BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
  final CompletableFuture<Boolean> finished = new CompletableFuture<>();
  Reflector<ReflectorTestObject> reflector;
  private Thread thread;

  /** A builder wired to this harness, with client-go's defaults otherwise. */
  ReflectorBuilder<ReflectorTestObject> builder() {
    return Reflector.builder("pods", server, store, ReflectorTestObject.ACCESSOR)
        .clock(clock)
        .watchErrorHandler((name, error) -> {
          assertThat(name).isEqualTo("Reflector[pods]");
          errors.add(error);
        })
        .listener(new ReflectorListener() {
          @Override
          public void onList(String resourceVersion, String reason) {
            listenerCalls.add("list " + resourceVersion + " " + reason);
          }

          @Override
          public void onListed(String resourceVersion, int items) {
            listenerCalls.add("listed " + resourceVersion + " " + items);
          }

          @Override
          public void onWatch(String resourceVersion, String reason) {
            listenerCalls.add("watch " + resourceVersion + " " + reason);
          }
        });
  }

  void start() {
    start(builder());
  }

  /**
   * Builds and runs the reflector on thread {@code reflector-test}. {@link #finished}
   * completes with whether that thread's interrupt flag was set after run() returned.
   */
  void start(ReflectorBuilder<ReflectorTestObject> builder) {
    reflector = builder.build();
    thread = new Thread(() -> {
      try {
        reflector.run();
        finished.complete(Thread.currentThread().isInterrupted());
      } catch (Throwable t) {
        finished.completeExceptionally(t);
      }
    }, "reflector-test");
    thread.start();
  }

  /** Waits (bounded) for run() to return; returns whether the thread was left interrupted. */
  boolean awaitStopped() throws Exception {
    return finished.get(10, TimeUnit.SECONDS);
  }

  /** Waits (bounded) for the next reported error. */
  Throwable awaitError() throws InterruptedException {
    Throwable error = errors.poll(10, TimeUnit.SECONDS);
    assertThat(error).as("an error reported within 10s").isNotNull();
    return error;
  }

  /** Polls (bounded) until lastSyncResourceVersion() is {@code expected}. */
  void awaitLastSync(String expected) {
    Await.until("lastSyncResourceVersion is " + expected, Duration.ofSeconds(10),
        reflector::lastSyncResourceVersion, expected::equals);
    assertThat(reflector.lastSyncResourceVersion()).isEqualTo(expected);
  }

  /** Waits until the clock holds {@code tasks} pending tasks (e.g. the staleness check). */
  void awaitClockTasks(int tasks) throws InterruptedException {
    assertThat(clock.fake.awaitWaiters(tasks, Duration.ofSeconds(10)))
        .as("%d tasks scheduled on the clock", tasks).isTrue();
  }

  /**
   * Scripts a one-page list at {@code rv} and a watch; starts with the default builder;
   * returns the watch once the reflector reads it (its staleness check is scheduled).
   */
  ScriptedListerWatcher.Stream startWatching(String rv, ReflectorTestObject... items)
      throws InterruptedException {
    server.page(rv, "", items);
    ScriptedListerWatcher.Stream stream = server.watchOpens();
    start();
    server.awaitList();
    store.awaitCall();
    server.awaitWatch();
    awaitClockTasks(1);
    return stream;
  }

  @Override
  public void close() throws InterruptedException {
    if (reflector != null) {
      reflector.close();
    }
    if (thread != null) {
      thread.join(TimeUnit.SECONDS.toMillis(10));
      assertThat(thread.isAlive()).as("reflector thread ended").isFalse();
    }
  }
}
