package io.listwatch.bench.server;

import java.io.IOException;

/**
 * Many watches of one benchmark point, read by as few client threads as the transport
 * allows, so that on a 2-core machine the client leaves the CPU to the server. Each
 * implementation counts events and records write-to-receive latencies in a
 * {@link WatchTally}.
 *
 * <p>Thread-safe for the benchmark's main thread: {@link #open} and {@link #close} are
 * called by it; the counters may be read at any time; the latencies once closed.
 */
interface WatchFleet extends AutoCloseable {

  /** Opens {@code count} watches of {@code pathAndQuery}; returns once every request is sent. */
  void open(String pathAndQuery, int count) throws IOException, InterruptedException;

  /** The counters and latencies of the watches. */
  WatchTally tally();

  /** Closes every watch and stops the reader threads; afterwards the latencies may be read. */
  @Override
  void close();
}
