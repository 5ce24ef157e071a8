package io.listwatch.client;

import io.listwatch.api.Status;
import java.util.Objects;

/**
 * One event of a watch stream.
 *
 * <p>For {@link Type#ERROR} {@code object} is null and {@code status} carries the server's
 * Status (410 Expired when the requested resourceVersion is too old). For every other type
 * {@code object} is set and {@code status} is null. A {@link Type#BOOKMARK}'s object carries
 * only {@code metadata.resourceVersion} (and, ending a watch-list's initial events, the
 * {@code k8s.io/initial-events-end} annotation).
 *
 * @param type the event type
 * @param object the object, null for ERROR
 * @param status the error Status, null unless ERROR
 * @param <T> the object type
 */
public record WatchEvent<T>(Type type, T object, Status status) {

  /** The annotation on the bookmark that ends a watch-list's initial events. */
  public static final String INITIAL_EVENTS_END_ANNOTATION = "k8s.io/initial-events-end";

  public WatchEvent {
    Objects.requireNonNull(type, "type");
    if (type == Type.ERROR) {
      Objects.requireNonNull(status, "status");
    } else {
      Objects.requireNonNull(object, "object");
    }
  }

  /** Watch event types, as on the wire. */
  public enum Type {
    ADDED, MODIFIED, DELETED, BOOKMARK, ERROR
  }
}
