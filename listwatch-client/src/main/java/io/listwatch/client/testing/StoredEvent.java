package io.listwatch.client.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.client.ResourceType;
import io.listwatch.client.WatchEvent;

/**
 * One committed change, as the {@link ObjectTracker} keeps it in its history (an etcd
 * revision with its previous value). Immutable; the trees are never mutated.
 *
 * @param rv the resourceVersion the change was committed at
 * @param resource the resource of the object
 * @param key the object's key ({@code namespace/name} or {@code name})
 * @param type ADDED, MODIFIED or DELETED
 * @param object the object after the change; for DELETED its last state stamped with {@code rv}
 * @param prev the object before the change, null for ADDED
 */
record StoredEvent(long rv, ResourceType resource, String key, WatchEvent.Type type, ObjectNode object,
    ObjectNode prev) {

  /**
   * This change as a watcher with {@code filter} sees it, or null if it does not see it: an
   * object moving into the selection arrives as ADDED, one moving out as DELETED (its
   * previous state, stamped with this event's resourceVersion), as kube's cacher does.
   */
  TrackerWatch.TreeEvent project(Filter filter) {
    return switch (type) {
      case ADDED -> filter.matches(object) ? TrackerWatch.TreeEvent.of(WatchEvent.Type.ADDED, object) : null;
      case DELETED -> filter.matches(object) ? TrackerWatch.TreeEvent.of(WatchEvent.Type.DELETED, object) : null;
      case MODIFIED -> {
        boolean now = filter.matches(object);
        boolean before = filter.matches(prev);
        if (now) {
          yield TrackerWatch.TreeEvent.of(before ? WatchEvent.Type.MODIFIED : WatchEvent.Type.ADDED, object);
        }
        yield before ? TrackerWatch.TreeEvent.of(WatchEvent.Type.DELETED, Trees.restamp(prev, rv)) : null;
      }
      default -> throw new IllegalStateException("not a stored event type: " + type);
    };
  }
}
