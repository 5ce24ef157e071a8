package io.listwatch.server.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.cacher.CacheListener;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.cacher.WatchCacheEvent;
import io.listwatch.apiserver.controller.ControllerQueue;
import io.listwatch.apiserver.rest.DeleteOptions;
import io.listwatch.apiserver.rest.ResourceStore;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's {@code --event-ttl}: an Event is deleted once that long has passed since it
 * was last written. kube gets this from etcd, which attaches a lease of the TTL to every write of
 * an Event; here the server keeps, for every Event in its watch caches (core/v1 and
 * events.k8s.io/v1), when it expires: its last write as this server saw it, or, for the Events
 * it found at start, the latest time in their {@code managedFields} (else their
 * {@code creationTimestamp}), so a restart does not make them live longer. A pass every
 * {@link #passInterval} deletes the expired ones, each with its resourceVersion as a
 * precondition, so an Event written again meanwhile stays.
 *
 * <p>Without it Events pile up for good: a cluster that churns (every pod start, kill and
 * scheduling records some) grows without bound, as the demo-scale soak showed.
 *
 * <p>Runs only while the gate is open (the server leads its controllers). Time is the injected
 * {@link Clock}'s, so tests move it instead of waiting.
 *
 * <p>Thread-safe: the cache listeners update a concurrent map; the passes run on the clock's
 * task thread ({@link PeriodicPass}).
 */
public final class EventTtl implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EventTtl.class);
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON = io.listwatch.api.JsonLimits.mapper();
  /** kube's default {@code --event-ttl}. */
  public static final Duration DEFAULT_TTL = Duration.ofHours(1);

  private record Tracked(ResourceStore store, String namespace, String name, long resourceVersion, Instant expires) {
  }

  /** An Event of one store (stores compare by identity: the core/v1 and events.k8s.io/v1 ones hold the same keys). */
  private record Key(ResourceStore store, String key) {
  }

  private final List<ResourceStore> stores;
  private final Duration ttl;
  private final Clock clock;
  private final Map<Key, Tracked> events = new ConcurrentHashMap<>();
  private final PeriodicPass passes;

  /** Deletes the Events of {@code stores} {@code ttl} after their last write, while {@code gate} is open. */
  public EventTtl(List<ResourceStore> stores, Duration ttl, ControllerQueue.Gate gate, Clock clock) {
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("the event TTL must be positive: " + ttl);
    }
    this.stores = List.copyOf(stores);
    this.ttl = ttl;
    Duration passInterval = ttl.compareTo(Duration.ofMinutes(10)) >= 0 ? Duration.ofMinutes(1)
        : ttl.dividedBy(10).compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : ttl.dividedBy(10);
    this.passes = new PeriodicPass("delete expired Events", passInterval, gate, clock, this::deleteExpired);
    this.clock = clock;
  }

  /** Follows the stores' watch caches and schedules the first pass. */
  public void start() {
    for (ResourceStore store : stores) {
      store.cacher().addListener(CacheListener.of(
          objects -> objects.forEach(o -> track(store, o, lastWrite(o))),
          event -> {
            if (event.type() == WatchCacheEvent.Type.DELETED) {
              events.remove(key(store, event.object()));
            } else {
              track(store, event.object(), clock.now());
            }
          }));
    }
    passes.start(passes.interval());
  }

  private void track(ResourceStore store, CachedObject o, Instant written) {
    events.put(key(store, o), new Tracked(store, o.namespace(), o.name(), o.resourceVersion(), written.plus(ttl)));
  }

  private static Key key(ResourceStore store, CachedObject o) {
    return new Key(store, o.key());
  }

  /** The latest {@code managedFields} time of a stored Event, else its creation, else now. */
  private Instant lastWrite(CachedObject o) {
    try {
      JsonNode obj = JSON.readTree(o.json());
      Instant latest = null;
      for (JsonNode entry : obj.path("metadata").path("managedFields")) {
        Instant t = parse(entry.path("time").asText(""));
        if (t != null && (latest == null || t.isAfter(latest))) {
          latest = t;
        }
      }
      if (latest == null) {
        latest = parse(obj.path("metadata").path("creationTimestamp").asText(""));
      }
      return latest == null ? clock.now() : latest;
    } catch (IOException e) {
      return clock.now();
    }
  }

  private static Instant parse(String time) {
    try {
      return time.isEmpty() ? null : Instant.parse(time);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** One pass: deletes every Event whose TTL has passed; returns how many it deleted. */
  int deleteExpired() {
    Instant now = clock.now();
    int deleted = 0;
    for (Tracked t : List.copyOf(events.values())) {
      if (t.expires().isAfter(now)) {
        continue;
      }
      try {
        t.store().deleteInternal(t.namespace(), t.name(),
            new DeleteOptions("", Long.toString(t.resourceVersion()), false, 0L, null, false)).join();
        deleted++;
      } catch (CompletionException e) {
        // written again (409: its new write is tracked) or gone already (404)
        if (!(e.getCause() instanceof StatusException se && (se.code() == 404 || se.code() == 409))) {
          LOG.warn("cannot delete expired Event {}/{}: {}", t.namespace(), t.name(), e.getCause().toString());
        }
      }
    }
    if (deleted > 0) {
      LOG.debug("deleted {} Events older than {}", deleted, ttl);
    }
    return deleted;
  }

  /** Events tracked now (for tests and diagnostics). */
  int tracked() {
    return events.size();
  }

  @Override
  public void close() {
    passes.close();
  }
}
