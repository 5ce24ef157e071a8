package io.listwatch.client.cache;

import io.listwatch.client.MetaAccessor;
import io.listwatch.client.WatchEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The initial events of a watch-list, gathered (as client-go's temporary store) until the
 * bookmark annotated {@code k8s.io/initial-events-end: "true"}; then they replace the
 * reflector's store in one go. Keyed by namespace/name, so a MODIFIED or DELETED among the
 * initial events updates or drops what an earlier ADDED brought.
 *
 * <p>Not thread-safe: confined to the reflector's thread.
 */
final class ReflectorInitialEvents<T> {

  private final MetaAccessor<T> accessor;
  private final KeyFunc<T> keyFunc;
  private final Map<String, T> objects = new LinkedHashMap<>();

  ReflectorInitialEvents(MetaAccessor<T> accessor) {
    this.accessor = accessor;
    this.keyFunc = KeyFunc.metaNamespace(accessor);
  }

  /** Takes one event; returns true for the bookmark that ends the initial events. */
  boolean add(WatchEvent<T> event) {
    T object = event.object();
    switch (event.type()) {
      case ADDED, MODIFIED -> objects.put(keyFunc.key(object), object);
      case DELETED -> objects.remove(keyFunc.key(object));
      case BOOKMARK -> {
        return "true".equals(
            accessor.annotations(object).get(WatchEvent.INITIAL_EVENTS_END_ANNOTATION));
      }
      case ERROR -> { }
    }
    return false;
  }

  /** The objects gathered, in the order they first arrived. */
  List<T> objects() {
    return new ArrayList<>(objects.values());
  }

}
