package io.listwatch.client.cache;

import io.listwatch.api.ListOptions;
import io.listwatch.client.ObjectList;
import io.listwatch.client.WatchStream;

/**
 * Lists and watches one resource (client-go's {@code ListerWatcher}): what a
 * {@link Reflector} needs from the server. Errors are thrown as in
 * {@link io.listwatch.client.ResourceClient}: {@link io.listwatch.api.StatusException}
 * for API errors, {@link java.io.UncheckedIOException} for connection failures.
 *
 * <p>Implementations are thread-safe.
 *
 * @param <T> the object type
 */
public interface ListerWatcher<T> {

  /** One LIST request (one page when a limit is set). */
  ObjectList<T> list(ListOptions options);

  /** Opens a watch. */
  WatchStream<T> watch(ListOptions options);
}
