package io.listwatch.client.e2e;

import io.listwatch.client.MetaAccessor;
import io.listwatch.client.cache.ResourceEventHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A handler that records every notification, per object key and in arrival order, and lets
 * a test wait (with a bound) until a condition on the record holds. Thread-safe.
 */
final class Recorder<T> implements ResourceEventHandler<T> {

  /** One notification: ADD, UPDATE or DELETE, with the object's resourceVersion. */
  record Event(String type, String key, String resourceVersion, boolean initial,
      boolean deletedFinalStateUnknown) {
    long rv() {
      return Long.parseLong(resourceVersion);
    }
  }

  private final MetaAccessor<T> meta;
  private final List<Event> events = new ArrayList<>();

  Recorder(MetaAccessor<T> meta) {
    this.meta = meta;
  }

  private String key(T o) {
    return meta.namespace(o) + "/" + meta.name(o);
  }

  @Override
  public synchronized void onAdd(T object, boolean isInInitialList) {
    events.add(new Event("ADD", key(object), meta.resourceVersion(object), isInInitialList, false));
    notifyAll();
  }

  @Override
  public synchronized void onUpdate(T oldObject, T newObject) {
    events.add(new Event("UPDATE", key(newObject), meta.resourceVersion(newObject), false, false));
    notifyAll();
  }

  @Override
  public synchronized void onDelete(T object, boolean deletedFinalStateUnknown) {
    events.add(new Event("DELETE", key(object), meta.resourceVersion(object), false,
        deletedFinalStateUnknown));
    notifyAll();
  }

  synchronized List<Event> events() {
    return List.copyOf(events);
  }

  /** Events grouped by key, each key's in arrival order. */
  synchronized Map<String, List<Event>> byKey() {
    Map<String, List<Event>> out = new LinkedHashMap<>();
    for (Event e : events) {
      out.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e);
    }
    return out;
  }

  /** Waits until {@code condition} holds on the events; false if it did not within {@code timeout}. */
  synchronized boolean await(Predicate<List<Event>> condition, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.test(events)) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return true;
  }

  /** Waits until {@code count} events matching {@code filter} have arrived. */
  boolean awaitCount(Predicate<Event> filter, int count, Duration timeout) throws InterruptedException {
    return await(list -> list.stream().filter(filter).count() >= count, timeout);
  }
}
