package io.listwatch.client.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.ListOptions;
import io.listwatch.api.Status;
import io.listwatch.client.ObjectList;
import io.listwatch.client.WatchEvent;
import io.listwatch.client.WatchStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A ListerWatcher that answers from a script: each list() takes the next scripted page or
 * error, each watch() the next scripted {@link Stream} or error, blocking until the test
 * scripts one (an interrupt ends the wait with an UncheckedIOException, as an interrupted
 * HTTP call would). Every call's ListOptions is recorded. Thread-safe.
 */
final class ScriptedListerWatcher implements ListerWatcher<ReflectorTestObject> {

  private final BlockingQueue<Object> listAnswers = new LinkedBlockingQueue<>();
  private final BlockingQueue<Object> watchAnswers = new LinkedBlockingQueue<>();
  private final BlockingQueue<ListOptions> pendingLists = new LinkedBlockingQueue<>();
  private final BlockingQueue<ListOptions> pendingWatches = new LinkedBlockingQueue<>();
  private final List<ListOptions> lists = new CopyOnWriteArrayList<>();
  private final List<ListOptions> watches = new CopyOnWriteArrayList<>();

  // ---- scripting ----

  /** The next list() returns this page. */
  ScriptedListerWatcher page(String resourceVersion, String continueToken,
      ReflectorTestObject... items) {
    listAnswers.add(new ObjectList<>(List.of(items), resourceVersion, continueToken,
        OptionalLong.empty()));
    return this;
  }

  /** The next list() throws {@code error}. */
  ScriptedListerWatcher listFails(RuntimeException error) {
    listAnswers.add(error);
    return this;
  }

  /** The next watch() opens a new stream, returned for the test to feed. */
  Stream watchOpens() {
    Stream stream = new Stream();
    watchAnswers.add(stream);
    return stream;
  }

  /** The next watch() throws {@code error}. */
  void watchFails(RuntimeException error) {
    watchAnswers.add(error);
  }

  // ---- observing ----

  /** Waits (bounded) for the next list() call not yet awaited. */
  ListOptions awaitList() throws InterruptedException {
    ListOptions options = pendingLists.poll(10, TimeUnit.SECONDS);
    assertThat(options).as("a list call within 10s").isNotNull();
    return options;
  }

  /** Waits (bounded) for the next watch() call not yet awaited. */
  ListOptions awaitWatch() throws InterruptedException {
    ListOptions options = pendingWatches.poll(10, TimeUnit.SECONDS);
    assertThat(options).as("a watch call within 10s").isNotNull();
    return options;
  }

  /** Every list() call so far. */
  List<ListOptions> lists() {
    return List.copyOf(lists);
  }

  /** Every watch() call so far. */
  List<ListOptions> watches() {
    return List.copyOf(watches);
  }

  // ---- ListerWatcher ----

  @Override
  @SuppressWarnings("unchecked")
  public ObjectList<ReflectorTestObject> list(ListOptions options) {
    lists.add(options);
    pendingLists.add(options);
    Object answer = take(listAnswers);
    if (answer instanceof RuntimeException e) {
      throw e;
    }
    return (ObjectList<ReflectorTestObject>) answer;
  }

  @Override
  public WatchStream<ReflectorTestObject> watch(ListOptions options) {
    watches.add(options);
    pendingWatches.add(options);
    Object answer = take(watchAnswers);
    if (answer instanceof RuntimeException e) {
      throw e;
    }
    return (Stream) answer;
  }

  private static Object take(BlockingQueue<Object> answers) {
    try {
      return answers.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new InterruptedIOException("interrupted"));
    }
  }

  /**
   * A watch stream fed by the test. next() blocks until something is fed or the stream is
   * closed; after close() it returns empty. Thread-safe.
   */
  static final class Stream implements WatchStream<ReflectorTestObject> {
    private static final Object END = new Object();

    private final BlockingQueue<Object> items = new LinkedBlockingQueue<>();
    private final CountDownLatch closedLatch = new CountDownLatch(1);
    private volatile boolean closed;

    Stream added(ReflectorTestObject o) {
      return event(WatchEvent.Type.ADDED, o);
    }

    Stream modified(ReflectorTestObject o) {
      return event(WatchEvent.Type.MODIFIED, o);
    }

    Stream deleted(ReflectorTestObject o) {
      return event(WatchEvent.Type.DELETED, o);
    }

    Stream bookmark(ReflectorTestObject o) {
      return event(WatchEvent.Type.BOOKMARK, o);
    }

    Stream error(Status status) {
      items.add(new WatchEvent<ReflectorTestObject>(WatchEvent.Type.ERROR, null, status));
      return this;
    }

    /** The server ends the stream normally. */
    void end() {
      items.add(END);
    }

    /** The connection breaks: next() throws {@code error}. */
    void fail(IOException error) {
      items.add(error);
    }

    private Stream event(WatchEvent.Type type, ReflectorTestObject o) {
      items.add(new WatchEvent<>(type, o, null));
      return this;
    }

    boolean isClosed() {
      return closed;
    }

    void awaitClosed() throws InterruptedException {
      assertThat(closedLatch.await(10, TimeUnit.SECONDS)).as("stream closed within 10s").isTrue();
    }

    @Override
    @SuppressWarnings("unchecked")
    public Optional<WatchEvent<ReflectorTestObject>> next() throws IOException {
      if (closed) {
        return Optional.empty();
      }
      Object item;
      try {
        item = items.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted");
      }
      if (item == END || closed) {
        return Optional.empty();
      }
      if (item instanceof IOException e) {
        throw e;
      }
      return Optional.of((WatchEvent<ReflectorTestObject>) item);
    }

    @Override
    public void close() {
      closed = true;
      items.add(END);
      closedLatch.countDown();
    }
  }
}
