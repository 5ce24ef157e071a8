package io.listwatch.client.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.ListOptions;
import io.listwatch.api.ResourceVersionMatch;
import io.listwatch.api.StatusException;
import io.listwatch.client.ResourceType;
import io.listwatch.client.WatchEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.OptionalLong;

/**
 * kube's resourceVersion rules for reads, as the {@link ObjectTracker} applies them: which
 * revision a LIST serves and with what limit, the state at an older revision, and the events
 * a WATCH starts with (synthetic ADDED events, the initial-events-end bookmark, or a replay of
 * the history). Revisions newer than the current one get 504 Too large resource version;
 * revisions older than the history get 410 Expired. A WATCH is answered as kube's watch cache
 * answers it: accepted, with either error as an ERROR event that ends it.
 *
 * <p>Stateless: the tracker passes its state in, and calls these with its lock held.
 */
final class TrackerReads {

  private TrackerReads() {
  }

  /**
   * The page size a LIST is served with: its limit (0: no limit), except that a list at
   * resourceVersion "0" without a continue token ignores it. kube's watch cache serves "0"
   * whole, so an informer's first list ({@code resourceVersion=0&limit=500}) is one response
   * without a continue token, and the server does the same.
   */
  static long listLimit(ListOptions options) {
    OptionalLong rv = options.resourceVersionNumber();
    boolean anyVersion = rv.isPresent() && rv.getAsLong() == 0 && options.continueToken().isEmpty();
    return anyVersion ? 0 : options.limit();
  }

  /**
   * The revision a LIST without a continue token serves: {@code ""}, {@code "0"} and
   * NotOlderThan serve the current one; {@code Exact}, or a limit with a resourceVersion,
   * serves that exact revision.
   *
   * @throws StatusException 504 for a resourceVersion newer than {@code current}
   */
  static long listRevision(ListOptions options, long current) {
    OptionalLong rv = options.resourceVersionNumber();
    boolean exact = options.resourceVersionMatch() == ResourceVersionMatch.EXACT
        || (options.limit() > 0 && rv.isPresent() && rv.getAsLong() > 0
            && options.resourceVersionMatch() == ResourceVersionMatch.UNSET);
    if (rv.isPresent() && rv.getAsLong() > current) {
      throw StatusException.tooLargeResourceVersion(rv.getAsLong(), current);
    }
    return exact ? rv.getAsLong() : current;
  }

  /**
   * The objects of {@code type} as they were at {@code rv}, rebuilt from the history.
   *
   * @param objects the current objects of {@code type}, at revision {@code current}
   * @param continuing whether a continue token asked (its 410 has kube's own message)
   */
  static NavigableMap<String, ObjectNode> stateAt(ResourceType type, NavigableMap<String, ObjectNode> objects,
      EventHistory history, long current, long rv, boolean continuing) {
    if (rv == current) {
      return objects;
    }
    if (rv > current) {
      throw StatusException.tooLargeResourceVersion(rv, current);
    }
    if (rv < history.floor()) {
      throw StatusException.expired(continuing
          ? "The provided continue parameter is too old to display a consistent list result. You can start a"
              + " new list without the continue parameter."
          : "too old resource version: " + rv + " (" + history.floor() + ")");
    }
    return history.rewind(type, objects, rv);
  }

  /**
   * How a watch starts.
   *
   * @param events what it delivers before live events
   * @param failed whether {@code events} is one ERROR (410, 504) after which the watch ends
   */
  record WatchStart(List<TrackerWatch.TreeEvent> events, boolean failed) {

    static WatchStart failure(StatusException error) {
      return new WatchStart(List.of(TrackerWatch.TreeEvent.error(error.status())), true);
    }
  }

  /**
   * The events a WATCH starts with: from {@code ""} or {@code "0"}, synthetic ADDED events
   * for the matching objects; from N, the changes after N; with {@code sendInitialEvents=true},
   * the ADDED events then a BOOKMARK annotated {@code k8s.io/initial-events-end}. A watch from
   * a resourceVersion the server cannot serve is accepted and gets one ERROR, as from kube's
   * watch cache: 410 Expired when it is older than the history, 504 Too large resource
   * version when it is newer than {@code current} (the tracker has no cache to wait for, so
   * that is at once instead of after kube's 3 s).
   *
   * @param objects the current objects of {@code type} in the watch's namespace
   */
  static WatchStart watchStart(ResourceType type, Filter filter, ListOptions options,
      NavigableMap<String, ObjectNode> objects, EventHistory history, long current) {
    OptionalLong rv = options.resourceVersionNumber();
    if (rv.isPresent() && rv.getAsLong() > current) {
      return WatchStart.failure(StatusException.tooLargeResourceVersion(rv.getAsLong(), current));
    }
    boolean initialEvents = options.sendInitialEvents() != null
        ? options.sendInitialEvents()
        : rv.isEmpty() || rv.getAsLong() == 0;
    List<TrackerWatch.TreeEvent> events = new ArrayList<>();
    if (initialEvents) {
      for (ObjectNode o : objects.values()) {
        if (filter.matches(o)) {
          events.add(TrackerWatch.TreeEvent.of(WatchEvent.Type.ADDED, o));
        }
      }
      if (Boolean.TRUE.equals(options.sendInitialEvents())) {
        events.add(TrackerWatch.TreeEvent.of(WatchEvent.Type.BOOKMARK, bookmark(type, current, true)));
      }
      return new WatchStart(events, false);
    }
    long from = rv.isPresent() && rv.getAsLong() > 0 ? rv.getAsLong() : current;
    if (from < history.floor()) {
      return WatchStart.failure(
          StatusException.expired("too old resource version: " + from + " (" + history.floor() + ")"));
    }
    for (StoredEvent e : history.since(from)) {
      TrackerWatch.TreeEvent seen = e.resource().equals(type) ? e.project(filter) : null;
      if (seen != null) {
        events.add(seen);
      }
    }
    return new WatchStart(events, false);
  }

  /** A BOOKMARK object of {@code type} at {@code rv}, optionally marking the end of the initial events. */
  static ObjectNode bookmark(ResourceType type, long rv, boolean initialEventsEnd) {
    ObjectNode b = Trees.MAPPER.createObjectNode();
    b.put("apiVersion", type.apiVersion());
    b.put("kind", type.kind());
    ObjectNode meta = b.putObject("metadata");
    meta.put("resourceVersion", Long.toString(rv));
    if (initialEventsEnd) {
      meta.putObject("annotations").put(WatchEvent.INITIAL_EVENTS_END_ANNOTATION, "true");
    }
    return b;
  }
}
