package io.listwatch.client.cache;

import io.listwatch.client.MetaAccessor;
import io.listwatch.client.WatchEvent;
import java.util.Map;

/**
 * The tiny object type of the reflector tests: metadata only. {@link #toString()} is
 * {@code name@resourceVersion}, so assertion messages read like the scripts.
 */
record ReflectorTestObject(String namespace, String name, String resourceVersion,
    Map<String, String> annotations) {

  static final MetaAccessor<ReflectorTestObject> ACCESSOR = new MetaAccessor<>() {
    @Override
    public String namespace(ReflectorTestObject object) {
      return object.namespace();
    }

    @Override
    public String name(ReflectorTestObject object) {
      return object.name();
    }

    @Override
    public String resourceVersion(ReflectorTestObject object) {
      return object.resourceVersion();
    }

    @Override
    public String uid(ReflectorTestObject object) {
      return "uid-" + object.name();
    }

    @Override
    public Map<String, String> labels(ReflectorTestObject object) {
      return Map.of();
    }

    @Override
    public Map<String, String> annotations(ReflectorTestObject object) {
      return object.annotations();
    }
  };

  /** An object in namespace {@code default}. */
  static ReflectorTestObject pod(String name, String resourceVersion) {
    return new ReflectorTestObject("default", name, resourceVersion, Map.of());
  }

  /** What a BOOKMARK carries: only a resourceVersion. */
  static ReflectorTestObject bookmark(String resourceVersion) {
    return new ReflectorTestObject("", "", resourceVersion, Map.of());
  }

  /** The bookmark that ends a watch-list's initial events. */
  static ReflectorTestObject initialEventsEnd(String resourceVersion) {
    return new ReflectorTestObject("", "", resourceVersion,
        Map.of(WatchEvent.INITIAL_EVENTS_END_ANNOTATION, "true"));
  }

  @Override
  public String toString() {
    return name + "@" + resourceVersion;
  }
}
