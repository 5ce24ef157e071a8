package io.listwatch.server.cacher;

import java.util.Map;

/**
 * One object as the watch cache keeps it: its JSON (with {@code metadata.resourceVersion}
 * already inside, so it is never re-serialized for list or watch) and the few attributes
 * selectors need. Immutable; the byte array is shared and must never be mutated.
 *
 * @param key the storage key
 * @param namespace the namespace, "" for cluster-scoped objects
 * @param name the name
 * @param resourceVersion the revision of this version of the object
 * @param json the serialized object
 * @param labels the object's labels (immutable)
 * @param fields the selectable fields' values, including metadata.name and
 *     metadata.namespace (immutable)
 */
public record CachedObject(String key, String namespace, String name, long resourceVersion,
    byte[] json, Map<String, String> labels, Map<String, String> fields) {

  /** Approximate heap this object holds, for metrics and the memory benchmark. */
  public long approximateBytes() {
    return 16L + json.length + 64L * (labels.size() + fields.size()) + 2L * key.length() + 96;
  }
}
