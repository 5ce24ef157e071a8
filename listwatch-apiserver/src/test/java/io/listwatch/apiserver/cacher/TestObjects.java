package io.listwatch.apiserver.cacher;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/** Builds cached pods and watch cache events for the tests of this package. */
final class TestObjects {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private TestObjects() {
  }

  static String key(String namespace, String name) {
    return "/registry/core/pods/" + namespace + "/" + name;
  }

  /** A pod as the cache keeps it, with its resourceVersion already in the JSON. */
  static CachedObject pod(String namespace, String name, long resourceVersion, Map<String, String> labels) {
    ObjectNode tree = MAPPER.createObjectNode();
    tree.put("apiVersion", "v1");
    tree.put("kind", "Pod");
    ObjectNode meta = tree.putObject("metadata");
    meta.put("name", name);
    meta.put("namespace", namespace);
    meta.put("resourceVersion", Long.toString(resourceVersion));
    ObjectNode l = meta.putObject("labels");
    labels.forEach(l::put);
    try {
      return new CachedObject(key(namespace, name), namespace, name, resourceVersion,
          MAPPER.writeValueAsBytes(tree), Map.copyOf(labels),
          Map.of("metadata.name", name, "metadata.namespace", namespace));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static CachedObject pod(String name, long resourceVersion) {
    return pod("default", name, resourceVersion, Map.of());
  }

  static WatchCacheEvent added(CachedObject o) {
    return new WatchCacheEvent(WatchCacheEvent.Type.ADDED, o, null, 0);
  }

  static WatchCacheEvent added(CachedObject o, long recordedAtNanos) {
    return new WatchCacheEvent(WatchCacheEvent.Type.ADDED, o, null, recordedAtNanos);
  }

  /** A change of {@code prev} into {@code o}; like the Cacher, it can give prev at o's resourceVersion. */
  static WatchCacheEvent modified(CachedObject o, CachedObject prev) {
    return new WatchCacheEvent(WatchCacheEvent.Type.MODIFIED, o, prev, 0,
        () -> pod(prev.namespace(), prev.name(), o.resourceVersion(), prev.labels()).json());
  }

  /** The deletion at {@code resourceVersion} of {@code prev}: its last state, re-stamped. */
  static WatchCacheEvent deleted(CachedObject prev, long resourceVersion) {
    CachedObject last = pod(prev.namespace(), prev.name(), resourceVersion, prev.labels());
    return new WatchCacheEvent(WatchCacheEvent.Type.DELETED, last, prev, 0);
  }
}
