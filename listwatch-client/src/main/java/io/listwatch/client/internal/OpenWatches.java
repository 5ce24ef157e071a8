package io.listwatch.client.internal;

import io.listwatch.client.WatchStream;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The watches open over one {@link RestTransport}, so that closing the transport ends them: a
 * watch is added when its response starts and removed when it ends. Thread-safe.
 */
public final class OpenWatches {

  private final Set<WatchStream<?>> watches = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /** Tracks {@code watch}; after {@link #close()} it is ended at once instead. */
  public void add(WatchStream<?> watch) {
    watches.add(watch);
    if (closed) {
      watch.close();
    }
  }

  /** Forgets a watch that ended. */
  public void remove(WatchStream<?> watch) {
    watches.remove(watch);
  }

  /** Ends every open watch; watches started later stay open. */
  public void closeAll() {
    for (WatchStream<?> w : List.copyOf(watches)) {
      w.close();
    }
  }

  /** Ends every open watch, and every watch added from now on. Idempotent. */
  public void close() {
    closed = true;
    closeAll();
  }
}
