package io.listwatch.client.cache;

import java.util.Objects;

/**
 * One change to one object, as queued by a {@link DeltaFIFO}.
 *
 * <p>{@code deletedFinalStateUnknown} is client-go's {@code DeletedFinalStateUnknown}: a
 * {@link DeltaType#DELETED} that a relist inferred (the key was known but is missing from the
 * new list), so {@code object} is the last state this client saw, which may be stale.
 *
 * @param type what happened
 * @param object the object after the change (for a delete, its last known state)
 * @param deletedFinalStateUnknown whether this delete was inferred by a relist
 * @param <T> the object type
 */
public record Delta<T>(DeltaType type, T object, boolean deletedFinalStateUnknown) {

  public Delta {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(object, "object");
    if (deletedFinalStateUnknown && type != DeltaType.DELETED) {
      throw new IllegalArgumentException("only a DELETED delta can be DeletedFinalStateUnknown");
    }
  }

  /** A delta of an observed change. */
  public static <T> Delta<T> of(DeltaType type, T object) {
    return new Delta<>(type, object, false);
  }
}
