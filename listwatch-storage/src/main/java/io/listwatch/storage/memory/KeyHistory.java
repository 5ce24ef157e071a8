package io.listwatch.storage.memory;

import io.listwatch.storage.KeyValue;
import java.util.ArrayList;
import java.util.List;

/**
 * The retained versions of one key, oldest first (etcd's {@code keyIndex}). A deletion is
 * kept as a tombstone: the DELETE event's {@code kv}, with an empty value and version 0
 * (a live version is at least 1), so that a read at a revision after the deletion finds the
 * key absent.
 *
 * <p>Invariants: mod revisions strictly increase; a tombstone is never followed by anything
 * but a version 1 (a new incarnation). Guarded by the lock of the {@link MemoryData} that
 * holds it; not thread-safe by itself.
 */
final class KeyHistory {

  private final List<KeyValue> versions = new ArrayList<>(2);

  /** The current version, or null when the key is deleted. */
  KeyValue latest() {
    if (versions.isEmpty()) {
      return null;
    }
    KeyValue last = versions.getLast();
    return isTombstone(last) ? null : last;
  }

  /** The version as of {@code revision}, or null when the key did not exist then. */
  KeyValue at(long revision) {
    int i = lastAtOrBefore(revision);
    if (i < 0) {
      return null;
    }
    KeyValue kv = versions.get(i);
    return isTombstone(kv) ? null : kv;
  }

  /** Appends a newer version or a tombstone. */
  void add(KeyValue kv) {
    assert versions.isEmpty() || versions.getLast().modRevision() < kv.modRevision();
    versions.add(kv);
  }

  /**
   * Drops what no read at or after {@code revision} can see: every version older than the
   * newest one at or below {@code revision}, and that one too if it is a tombstone.
   *
   * @return true when nothing is left, so the key can leave the index
   */
  boolean compact(long revision) {
    int i = lastAtOrBefore(revision);
    if (i >= 0) {
      int drop = isTombstone(versions.get(i)) ? i + 1 : i;
      versions.subList(0, drop).clear();
    }
    return versions.isEmpty();
  }

  /** The index of the newest version with a mod revision at or below {@code revision}, or -1. */
  private int lastAtOrBefore(long revision) {
    int lo = 0;
    int hi = versions.size() - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (versions.get(mid).modRevision() <= revision) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  static boolean isTombstone(KeyValue kv) {
    return kv.version() == 0;
  }
}
