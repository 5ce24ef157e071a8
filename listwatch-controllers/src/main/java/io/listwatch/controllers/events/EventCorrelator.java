package io.listwatch.controllers.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Decides whether an event is new or a repeat of one already written, as client-go's
 * {@code EventCorrelator} (its {@code eventLogger}) does: two events are the same when their
 * source, involved object (kind, namespace, name, fieldPath, uid, apiVersion), type, reason and
 * message are. A repeat is written as a PATCH of the first one's {@code count},
 * {@code lastTimestamp} and {@code message}; a new one as a create.
 *
 * <p>The memory of written events is an LRU cache of {@value #DEFAULT_CAPACITY} entries
 * (client-go's {@code maxLruCacheEntries}); an event evicted from it is created afresh when it
 * recurs. Not implemented from client-go: the aggregation of similar events with different
 * messages ("combined from similar events") and the per-object spam filter.
 *
 * <p>Not thread-safe: confined to the recorder's writer thread.
 */
final class EventCorrelator {

  static final int DEFAULT_CAPACITY = 4096;

  /** What the writer should do with an event. */
  sealed interface Correlation permits Create, Patch {
    /** The correlation key the written result is remembered under. */
    String key();
  }

  /** Create {@code event} (count 1). */
  record Create(String key, ObjectNode event) implements Correlation {}

  /**
   * Patch the event {@code name} in {@code namespace} to {@code count} with {@code patch};
   * {@code event} is the full object to create instead if it no longer exists.
   */
  record Patch(String key, String namespace, String name, long count, String patch, ObjectNode event)
      implements Correlation {}

  /** An event as last written: its name, count and first timestamp. */
  private record Written(String name, long count, String firstTimestamp) {}

  /** Access-ordered: the eldest entry is the least recently used. */
  private final Map<String, Written> written;

  EventCorrelator(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive: " + capacity);
    }
    this.written = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Written> eldest) {
        return size() > capacity;
      }
    };
  }

  /** The correlation key of a core/v1 Event object (client-go's {@code getEventKey}). */
  static String key(ObjectNode event) {
    ObjectNode ref = (ObjectNode) event.path("involvedObject");
    return String.join("\u0000",
        event.path("source").path("component").asText(""),
        event.path("source").path("host").asText(""),
        ref.path("kind").asText(""), ref.path("namespace").asText(""), ref.path("name").asText(""),
        ref.path("fieldPath").asText(""), ref.path("uid").asText(""), ref.path("apiVersion").asText(""),
        event.path("type").asText(""), event.path("reason").asText(""), event.path("message").asText(""));
  }

  /** Whether {@code event} (count 1, as built by the recorder) is new or a repeat. */
  Correlation correlate(ObjectNode event) {
    Objects.requireNonNull(event, "event");
    String key = key(event);
    Written last = written.get(key);
    if (last == null) {
      return new Create(key, event);
    }
    long count = last.count() + 1;
    String lastTimestamp = event.path("lastTimestamp").asText();
    ObjectNode repeat = event.deepCopy();
    ((ObjectNode) repeat.path("metadata")).put("name", last.name());
    repeat.put("count", count);
    repeat.put("firstTimestamp", last.firstTimestamp());
    ObjectNode patch = event.objectNode();
    patch.put("count", count);
    patch.put("lastTimestamp", lastTimestamp);
    patch.put("message", event.path("message").asText());
    return new Patch(key, event.path("metadata").path("namespace").asText(), last.name(), count,
        patch.toString(), repeat);
  }

  /** Remembers what was written for {@code key}: the stored event. */
  void written(String key, ObjectNode stored) {
    written.put(key, new Written(stored.path("metadata").path("name").asText(),
        stored.path("count").asLong(1), stored.path("firstTimestamp").asText()));
  }

  /** How many events are remembered. */
  int size() {
    return written.size();
  }
}
