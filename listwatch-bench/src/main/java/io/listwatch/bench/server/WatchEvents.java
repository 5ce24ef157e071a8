package io.listwatch.bench.server;

import java.nio.ByteBuffer;

/**
 * Splits a watch stream's body into events as its bytes arrive and hands each event's first
 * bytes to a {@link WatchTally}: {@link EventLines} for JSON (newline-delimited events),
 * {@link LengthPrefixedEvents} for kube's protobuf (each event preceded by its length).
 *
 * <p>Not thread-safe: confined to the thread that reads the stream.
 */
interface WatchEvents {

  /** Body bytes [from, to) of {@code b} (absolute indexes), received at {@code now}. */
  void data(ByteBuffer b, int from, int to, long now);

  /** The record of the writes this stream's events carried. */
  SeenWrites watch();
}
