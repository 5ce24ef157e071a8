package io.listwatch.bench.server;

import java.nio.ByteBuffer;

/**
 * The parser of one watch connection's bytes for {@link RawWatchFleet}: it counts the watch's
 * start, events and end in a tally. Confined to the fleet's reader thread.
 */
interface WatchResponse {

  /**
   * Bytes [from, to) of {@code b} (absolute indexes), received at {@code now}. Returns false
   * once the watch has ended; the caller then closes the connection.
   */
  boolean read(ByteBuffer b, int from, int to, long now);

  /** The connection ended ({@code failure} null) or broke. */
  void connectionClosed(String failure);
}
