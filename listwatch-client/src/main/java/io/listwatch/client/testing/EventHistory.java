package io.listwatch.client.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.client.ResourceType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The tracker's recent changes, oldest first, bounded by a count (kube's watch cache ring
 * buffer, etcd's uncompacted revisions). Everything after {@link #floor()} is here, so a
 * watch from any resourceVersion at or above the floor can be replayed, and the state at
 * any such resourceVersion can be rebuilt by undoing later changes.
 *
 * <p>Not thread-safe: guarded by the owning {@link ObjectTracker}'s lock.
 */
final class EventHistory {

  private final int limit;
  /** Oldest first; resourceVersions strictly increasing. */
  private final ArrayDeque<StoredEvent> events = new ArrayDeque<>();
  /** The newest resourceVersion no longer covered: every event after it is kept. */
  private long floor;

  EventHistory(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("history limit must be positive, got " + limit);
    }
    this.limit = limit;
  }

  void append(StoredEvent event) {
    if (events.size() == limit) {
      floor = events.removeFirst().rv();
    }
    events.addLast(event);
  }

  /** The oldest resourceVersion a watch may start from or a list may be served at. */
  long floor() {
    return floor;
  }

  /** Forgets everything up to and including {@code rv} (etcd's compact). */
  void compact(long rv) {
    while (!events.isEmpty() && events.peekFirst().rv() <= rv) {
      events.removeFirst();
    }
    floor = Math.max(floor, rv);
  }

  /** The events after {@code rv}, oldest first. The caller checks {@code rv >= floor()}. */
  List<StoredEvent> since(long rv) {
    List<StoredEvent> newer = new ArrayList<>();
    Iterator<StoredEvent> it = events.descendingIterator();
    while (it.hasNext()) {
      StoredEvent e = it.next();
      if (e.rv() <= rv) {
        break;
      }
      newer.add(e);
    }
    return newer.reversed();
  }

  /**
   * The objects of {@code type} as they were at {@code rv}: {@code current} (not modified)
   * with every later change to them undone. The caller checks {@code rv >= floor()}.
   */
  NavigableMap<String, ObjectNode> rewind(ResourceType type, NavigableMap<String, ObjectNode> current, long rv) {
    TreeMap<String, ObjectNode> state = new TreeMap<>(current);
    for (StoredEvent e : since(rv).reversed()) {
      if (!e.resource().equals(type)) {
        continue;
      }
      if (e.prev() == null) {
        state.remove(e.key());
      } else {
        state.put(e.key(), e.prev());
      }
    }
    return state;
  }
}
