package io.listwatch.client.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.ListOptions;
import io.listwatch.api.StatusException;
import io.listwatch.client.ObjectList;
import io.listwatch.client.WatchEvent;
import io.listwatch.client.WatchStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A scripted server for the informer tests: lists answer with what {@link #setList} set
 * (or never, after {@link #neverAnswerLists}), every watch is a {@link FakeWatch} the test
 * feeds with events. Records every request and the thread that made it. Thread-safe.
 */
final class InformerTestListerWatcher implements ListerWatcher<InformerTestObject> {

  final BlockingQueue<ListOptions> listRequests = new LinkedBlockingQueue<>();
  final BlockingQueue<FakeWatch> watches = new LinkedBlockingQueue<>();
  private volatile ObjectList<InformerTestObject> listResult =
      new ObjectList<>(List.of(), "1", "", OptionalLong.empty());
  private volatile boolean neverAnswer;
  /** The thread of the last request (the informer's reflector thread). */
  volatile Thread requestThread;

  /** What the next lists return: {@code items} at {@code resourceVersion}. */
  void setList(long resourceVersion, InformerTestObject... items) {
    listResult = new ObjectList<>(List.of(items), Long.toString(resourceVersion), "",
        OptionalLong.empty());
  }

  /** Lists block until the calling thread is interrupted (a server that never answers). */
  void neverAnswerLists() {
    neverAnswer = true;
  }

  @Override
  public ObjectList<InformerTestObject> list(ListOptions options) {
    requestThread = Thread.currentThread();
    listRequests.add(options);
    if (neverAnswer) {
      try {
        new CountDownLatch(1).await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UncheckedIOException(new InterruptedIOException("list interrupted"));
      }
    }
    return listResult;
  }

  @Override
  public WatchStream<InformerTestObject> watch(ListOptions options) {
    requestThread = Thread.currentThread();
    FakeWatch watch = new FakeWatch(options);
    watches.add(watch);
    return watch;
  }

  /** The next watch opened, waiting up to 10 s. */
  FakeWatch awaitWatch() throws InterruptedException {
    FakeWatch watch = watches.poll(10, TimeUnit.SECONDS);
    assertThat(watch).as("a watch opened within 10 s").isNotNull();
    return watch;
  }

  /** The next list request, waiting up to 10 s. */
  ListOptions awaitList() throws InterruptedException {
    ListOptions options = listRequests.poll(10, TimeUnit.SECONDS);
    assertThat(options).as("a list within 10 s").isNotNull();
    return options;
  }

  /** One open watch, fed by the test. */
  static final class FakeWatch implements WatchStream<InformerTestObject> {
    private static final Object END = new Object();

    final ListOptions options;
    private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
    private volatile boolean closed;

    FakeWatch(ListOptions options) {
      this.options = options;
    }

    FakeWatch added(InformerTestObject object) {
      return send(new WatchEvent<>(WatchEvent.Type.ADDED, object, null));
    }

    FakeWatch modified(InformerTestObject object) {
      return send(new WatchEvent<>(WatchEvent.Type.MODIFIED, object, null));
    }

    FakeWatch deleted(InformerTestObject object) {
      return send(new WatchEvent<>(WatchEvent.Type.DELETED, object, null));
    }

    /** An in-stream 410 Expired: the reflector relists (after a backoff). */
    FakeWatch expired() {
      return send(new WatchEvent<>(WatchEvent.Type.ERROR, null,
          StatusException.expired("too old resource version").status()));
    }

    private FakeWatch send(WatchEvent<InformerTestObject> event) {
      events.add(event);
      return this;
    }

    boolean isClosed() {
      return closed;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Optional<WatchEvent<InformerTestObject>> next() {
      try {
        Object next = events.take();
        if (next == END) {
          events.add(END); // stays ended
          return Optional.empty();
        }
        return Optional.of((WatchEvent<InformerTestObject>) next);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.empty();
      }
    }

    @Override
    public void close() {
      closed = true;
      events.add(END);
    }
  }
}
