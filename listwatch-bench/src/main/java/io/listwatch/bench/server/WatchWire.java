package io.listwatch.bench.server;

/**
 * The encoding a fleet asks its watches in: the Accept header, how the stream splits into
 * events, and what precedes the send time ({@link Pods#SENT}) inside an event.
 */
enum WatchWire {
  /** JSON, one event per line; the send time follows {@code "bench.listwatch.io/sent":"}. */
  JSON("application/json", Pods.MARKER),
  /**
   * kube's protobuf, length-prefixed WatchEvents; the send time is the value of the
   * annotation's map entry: the key, then the value's tag (field 2, length-delimited: 0x12)
   * and its one-byte length.
   */
  PROTOBUF("application/vnd.kubernetes.protobuf", Pods.SENT + "\u0012");

  final String accept;
  final String marker;

  WatchWire(String accept, String marker) {
    this.accept = accept;
    this.marker = marker;
  }

  /** The tally for a fleet of this encoding. */
  WatchTally tally() {
    return new WatchTally(marker, this == PROTOBUF ? 1 : 0);
  }

  /** The event splitter of one watch stream. */
  WatchEvents events(WatchTally tally) {
    return this == JSON ? new EventLines(tally) : new LengthPrefixedEvents(tally);
  }
}
