package io.listwatch.bench.chaos;

import java.util.List;

/**
 * One watch connection of a watcher: the resourceVersion it started from, every event it
 * received in order, and how it ended. A watcher whose connection breaks opens the next
 * segment from the last resourceVersion it saw; one that gets 410 Gone lists again and
 * starts from the list's.
 *
 * @param watcher the watcher's process number
 * @param server the server it was opened on
 * @param startRv the {@code resourceVersion} of the watch request
 * @param events what it received, in order
 * @param end how it ended
 *
 * <p>Immutable; thread-safe.
 */
record WatchSegment(int watcher, int server, long startRv, List<Event> events, End end) {

  /** One event: ADDED, MODIFIED or DELETED, the object it carried, when it arrived. */
  record Event(String type, Version version, long at) {
    boolean deleted() {
      return type.equals("DELETED");
    }

    @Override
    public String toString() {
      return type + " " + version + " at " + Operation.ms(at) + " ms";
    }
  }

  /** How a segment ended. */
  enum End {
    /** The server answered 410 Gone: the watcher must list again. */
    GONE,
    /** The connection broke, timed out or was refused. */
    BROKEN,
    /** Still open when the run ended, after the watchers were given time to catch up. */
    LIVE_AT_END
  }

  WatchSegment {
    events = List.copyOf(events);
  }

  /** The last resourceVersion this segment saw: its last event's, or where it started. */
  long lastRv() {
    return events.isEmpty() ? startRv : events.getLast().version().rv();
  }

  @Override
  public String toString() {
    return "watcher " + watcher + " on server " + server + " from rv " + startRv + " (" + events.size()
        + " events, " + end + ")";
  }
}
