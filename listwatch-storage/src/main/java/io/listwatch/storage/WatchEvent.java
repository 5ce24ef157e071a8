package io.listwatch.storage;

import java.util.Objects;

/**
 * One committed change, as delivered by {@link Storage#watch}.
 *
 * <p>For a {@link Type#PUT}, {@code kv} is the new version and {@code prevKv} the version it
 * replaced, or {@code null} when the put created the key. For a {@link Type#DELETE},
 * {@code kv} carries the key, an empty value, the deleted incarnation's create revision and
 * the revision of the deletion as {@code modRevision}; {@code prevKv} is the last version
 * before the deletion (never null). Values are shared and must not be mutated.
 *
 * @param type put or delete
 * @param kv the state after the change
 * @param prevKv the state before the change, or {@code null} for a create
 */
public record WatchEvent(Type type, KeyValue kv, KeyValue prevKv) {

  /** What kind of change. */
  public enum Type { PUT, DELETE }

  public WatchEvent {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(kv, "kv");
    if (type == Type.DELETE) {
      Objects.requireNonNull(prevKv, "a DELETE event carries the deleted state");
    }
  }

  /** The revision at which this change was committed. */
  public long revision() {
    return kv.modRevision();
  }

  /** True for a put that created the key. */
  public boolean isCreate() {
    return type == Type.PUT && prevKv == null;
  }
}
