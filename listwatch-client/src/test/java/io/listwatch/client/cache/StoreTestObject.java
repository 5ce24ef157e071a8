package io.listwatch.client.cache;

import io.listwatch.client.MetaAccessor;
import java.util.List;
import java.util.Map;

/** A tiny object type for the cache's data-structure tests, with its {@link MetaAccessor}. */
record StoreTestObject(
    String namespace, String name, String resourceVersion, Map<String, String> labels) {

  static final MetaAccessor<StoreTestObject> META =
      new MetaAccessor<>() {
        @Override
        public String namespace(StoreTestObject o) {
          return o.namespace();
        }

        @Override
        public String name(StoreTestObject o) {
          return o.name();
        }

        @Override
        public String resourceVersion(StoreTestObject o) {
          return o.resourceVersion();
        }

        @Override
        public String uid(StoreTestObject o) {
          return "uid-" + o.namespace() + "-" + o.name();
        }

        @Override
        public Map<String, String> labels(StoreTestObject o) {
          return o.labels();
        }

        @Override
        public Map<String, String> annotations(StoreTestObject o) {
          return Map.of();
        }
      };

  static final KeyFunc<StoreTestObject> KEY = KeyFunc.metaNamespace(META);

  /** Indexes by the value of the {@code app} label (none when absent). */
  static final IndexFunc<StoreTestObject> BY_APP =
      o -> o.labels().containsKey("app") ? List.of(o.labels().get("app")) : List.of();

  StoreTestObject {
    labels = Map.copyOf(labels);
  }

  static StoreTestObject obj(String namespace, String name, String resourceVersion) {
    return new StoreTestObject(namespace, name, resourceVersion, Map.of());
  }

  static StoreTestObject obj(
      String namespace, String name, String resourceVersion, Map<String, String> labels) {
    return new StoreTestObject(namespace, name, resourceVersion, labels);
  }

  String key() {
    return KEY.key(this);
  }
}
