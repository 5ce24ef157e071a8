package io.listwatch.controllers.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Decides what to write for an event, as client-go's {@code EventCorrelator} does, in three
 * steps:
 * <ol>
 *   <li><b>Aggregation of similar events</b> ({@code EventAggregator}): events that differ only
 *       in their message (same source, involved object, type and reason) are written as they
 *       are until {@value #MAX_SIMILAR} distinct messages were seen within
 *       {@link #SIMILAR_INTERVAL} of each other; from then on each one is written as one
 *       combined event, message {@code (combined from similar events): <message>}.
 *   <li><b>Repeats</b> ({@code eventLogger}): an event equal to one written before (same source,
 *       involved object (kind, namespace, name, fieldPath, uid, apiVersion), type, reason and
 *       message, or the same combined event) is a PATCH of that event's {@code count},
 *       {@code lastTimestamp} and {@code message}; otherwise a create.
 *   <li><b>Spam filter</b> ({@code EventSourceObjectSpamFilter}): per source and involved
 *       object, a token bucket of {@value #SPAM_BURST} events refilled by one every
 *       {@link #SPAM_REFILL}; an event finding the bucket empty is not written.
 * </ol>
 * Each memory is an LRU cache of {@value #DEFAULT_CAPACITY} entries (client-go's
 * {@code maxLruCacheEntries}).
 *
 * <p>Not thread-safe: confined to the recorder's writer thread.
 */
final class EventCorrelator {

  static final int DEFAULT_CAPACITY = 4096;
  static final int MAX_SIMILAR = 10;
  static final Duration SIMILAR_INTERVAL = Duration.ofMinutes(10);
  static final int SPAM_BURST = 25;
  static final Duration SPAM_REFILL = Duration.ofMinutes(5);
  static final String COMBINED_PREFIX = "(combined from similar events): ";

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

  /** The distinct messages of similar events, and when the last one was seen. */
  private static final class Similar {
    final Set<String> messages = new HashSet<>();
    long lastNanos;
  }

  /** A spam filter's bucket. */
  private static final class Bucket {
    double tokens = SPAM_BURST;
    long lastNanos;
  }

  private final Map<String, Written> written;
  private final Map<String, Similar> similar;
  private final Map<String, Bucket> buckets;
  private final LongSupplier nanoTime;

  /**
   * @param capacity entries of each LRU cache
   * @param nanoTime a monotonic clock reading, for the aggregation interval and the spam filter
   */
  EventCorrelator(int capacity, LongSupplier nanoTime) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive: " + capacity);
    }
    this.written = lru(capacity);
    this.similar = lru(capacity);
    this.buckets = lru(capacity);
    this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
  }

  /** An access-ordered map whose eldest (least recently used) entry goes beyond {@code capacity}. */
  private static <V> Map<String, V> lru(int capacity) {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > capacity;
      }
    };
  }

  private static String objectKey(ObjectNode event) {
    ObjectNode ref = (ObjectNode) event.path("involvedObject");
    return String.join("\u0000",
        event.path("source").path("component").asText(""),
        event.path("source").path("host").asText(""),
        ref.path("kind").asText(""), ref.path("namespace").asText(""), ref.path("name").asText(""),
        ref.path("uid").asText(""), ref.path("apiVersion").asText(""));
  }

  /** Source, object, type and reason: the key of similar events (client-go's {@code EventAggregatorByReasonFunc}). */
  private static String aggregateKey(ObjectNode event) {
    return String.join("\u0000", objectKey(event), event.path("type").asText(""), event.path("reason").asText(""),
        event.path("reportingComponent").asText(""), event.path("reportingInstance").asText(""));
  }

  /** The key of equal events (client-go's {@code getEventKey}). */
  static String key(ObjectNode event) {
    return String.join("\u0000", objectKey(event),
        event.path("involvedObject").path("fieldPath").asText(""),
        event.path("type").asText(""), event.path("reason").asText(""), event.path("message").asText(""));
  }

  /**
   * What to write for {@code event} (count 1, as the recorder builds it); empty when the spam
   * filter drops it.
   */
  Optional<Correlation> correlate(ObjectNode event) {
    Objects.requireNonNull(event, "event");
    long now = nanoTime.getAsLong();
    ObjectNode toWrite = event;
    String key = key(event);
    String aggregate = aggregateKey(event);
    Similar record = similar.get(aggregate);
    if (record == null || now - record.lastNanos > SIMILAR_INTERVAL.toNanos()) {
      record = new Similar();
      similar.put(aggregate, record);
    }
    record.messages.add(event.path("message").asText(""));
    record.lastNanos = now;
    if (record.messages.size() >= MAX_SIMILAR) {
      String any = record.messages.iterator().next();
      record.messages.remove(any);
      toWrite = event.deepCopy();
      toWrite.put("message", COMBINED_PREFIX + event.path("message").asText(""));
      key = aggregate;
    }
    if (!allow(objectKey(event), now)) {
      return Optional.empty();
    }
    Written last = written.get(key);
    if (last == null) {
      return Optional.of(new Create(key, toWrite));
    }
    long count = last.count() + 1;
    ObjectNode repeat = toWrite.deepCopy();
    ((ObjectNode) repeat.path("metadata")).put("name", last.name());
    repeat.put("count", count);
    repeat.put("firstTimestamp", last.firstTimestamp());
    ObjectNode patch = toWrite.objectNode();
    patch.put("count", count);
    patch.put("lastTimestamp", toWrite.path("lastTimestamp").asText());
    patch.put("message", toWrite.path("message").asText());
    return Optional.of(new Patch(key, toWrite.path("metadata").path("namespace").asText(), last.name(), count,
        patch.toString(), repeat));
  }

  /** Takes a token from the bucket of {@code objectKey}; false when it is empty. */
  private boolean allow(String objectKey, long now) {
    Bucket b = buckets.get(objectKey);
    if (b == null) {
      b = new Bucket();
      b.lastNanos = now;
      buckets.put(objectKey, b);
    }
    b.tokens = Math.min(SPAM_BURST, b.tokens + (double) (now - b.lastNanos) / SPAM_REFILL.toNanos());
    b.lastNanos = now;
    if (b.tokens < 1) {
      return false;
    }
    b.tokens -= 1;
    return true;
  }

  /** Remembers what was written for {@code key}: the stored event. */
  void written(String key, ObjectNode stored) {
    written.put(key, new Written(stored.path("metadata").path("name").asText(),
        stored.path("count").asLong(1), stored.path("firstTimestamp").asText()));
  }
}
