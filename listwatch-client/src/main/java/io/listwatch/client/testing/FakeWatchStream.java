package io.listwatch.client.testing;

import io.listwatch.client.ObjectCodec;
import io.listwatch.client.WatchEvent;
import io.listwatch.client.WatchStream;
import java.io.InterruptedIOException;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A {@link WatchStream} over a {@link TrackerWatch}: decodes each event into a new
 * {@code T} on the reading thread. Thread-safety as {@link WatchStream}: one reader;
 * {@link #close()} from any thread.
 */
final class FakeWatchStream<T> implements WatchStream<T> {

  private final TrackerWatch watch;
  private final ObjectCodec<T> codec;
  private final Consumer<WatchStream<?>> onClose;

  /** {@code onClose} is told when this stream closes (the client forgets it). */
  FakeWatchStream(TrackerWatch watch, ObjectCodec<T> codec, Consumer<WatchStream<?>> onClose) {
    this.watch = watch;
    this.codec = codec;
    this.onClose = onClose;
  }

  @Override
  public Optional<WatchEvent<T>> next() throws InterruptedIOException {
    TrackerWatch.TreeEvent e;
    try {
      e = watch.next();
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for a watch event");
    }
    if (e == null) {
      return Optional.empty();
    }
    if (e.type() == WatchEvent.Type.ERROR) {
      return Optional.of(new WatchEvent<>(WatchEvent.Type.ERROR, null, e.status()));
    }
    return Optional.of(new WatchEvent<>(e.type(), Trees.decode(codec, e.object()), null));
  }

  @Override
  public void close() {
    watch.close();
    onClose.accept(this);
  }
}
