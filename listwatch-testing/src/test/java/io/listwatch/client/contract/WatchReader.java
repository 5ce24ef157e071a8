package io.listwatch.client.contract;

import io.listwatch.client.DynamicObject;
import io.listwatch.client.WatchEvent;
import io.listwatch.client.WatchStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads one {@link WatchStream} on its own virtual thread into a queue, so a test waits for
 * the next event, or for the end of the stream, with a bound instead of blocking forever.
 *
 * <p>The reader thread ({@code contract-watch[<name>]}) is the stream's one consumer; the test
 * thread only takes from the queue. {@link #close()} closes the stream, which ends the reader.
 */
final class WatchReader implements AutoCloseable {

  /** What the reader thread hands over: an event, the end of the stream, or its failure. */
  private sealed interface Item {
  }

  private record Event(WatchEvent<DynamicObject> event) implements Item {
  }

  private record End() implements Item {
  }

  private record Failure(Exception error) implements Item {
  }

  private final WatchStream<DynamicObject> stream;
  private final Duration await;
  /** Filled by the reader thread; unbounded, as a test reads few events. */
  private final LinkedBlockingQueue<Item> items = new LinkedBlockingQueue<>();

  private WatchReader(WatchStream<DynamicObject> stream, Duration await) {
    this.stream = stream;
    this.await = await;
  }

  /** Starts reading {@code stream}; each wait is bounded by {@code await}. */
  static WatchReader start(WatchStream<DynamicObject> stream, String name, Duration await) {
    WatchReader reader = new WatchReader(stream, await);
    Thread.ofVirtual().name("contract-watch[" + name + "]").start(reader::readAll);
    return reader;
  }

  private void readAll() {
    try {
      for (Optional<WatchEvent<DynamicObject>> e = stream.next(); e.isPresent(); e = stream.next()) {
        items.add(new Event(e.get()));
      }
      items.add(new End());
    } catch (Exception e) {
      items.add(new Failure(e));
    }
  }

  /**
   * The next event.
   *
   * @throws AssertionError when none arrives within the bound, or the stream ends or fails first
   */
  WatchEvent<DynamicObject> next() throws InterruptedException {
    Item item = take("a watch event");
    return switch (item) {
      case Event e -> e.event();
      case End end -> throw new AssertionError("the watch ended while an event was expected");
      case Failure f -> throw new AssertionError("the watch failed while an event was expected", f.error());
    };
  }

  /** The next {@code count} events, in order (see {@link #next()}). */
  List<WatchEvent<DynamicObject>> next(int count) throws InterruptedException {
    List<WatchEvent<DynamicObject>> events = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      events.add(next());
    }
    return events;
  }

  /** The next event that is not a BOOKMARK (see {@link #next()}). */
  WatchEvent<DynamicObject> nextIgnoringBookmarks() throws InterruptedException {
    WatchEvent<DynamicObject> e = next();
    while (e.type() == WatchEvent.Type.BOOKMARK) {
      e = next();
    }
    return e;
  }

  /**
   * Waits for the stream to end normally.
   *
   * @throws AssertionError when an event comes first, the stream fails, or it does not end
   *     within the bound
   */
  void awaitEnd() throws InterruptedException {
    Item item = take("the end of the watch");
    switch (item) {
      case End end -> { }
      case Event e -> throw new AssertionError("expected the end of the watch, got " + e.event());
      case Failure f -> throw new AssertionError("the watch failed instead of ending", f.error());
    }
  }

  private Item take(String what) throws InterruptedException {
    Item item = items.poll(await.toMillis(), TimeUnit.MILLISECONDS);
    if (item == null) {
      throw new AssertionError("waited " + await + " for " + what + "; nothing came");
    }
    return item;
  }

  @Override
  public void close() {
    stream.close();
  }
}
