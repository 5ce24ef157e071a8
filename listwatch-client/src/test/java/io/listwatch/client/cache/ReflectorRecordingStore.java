package io.listwatch.client.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A store that records every call the reflector makes, in order, so a test can wait for the
 * next one. Thread-safe (resyncs arrive on the clock's thread).
 */
final class ReflectorRecordingStore implements Store<ReflectorTestObject> {

  /** One call: {@code op} is add, update, delete, replace or resync. */
  record Call(String op, List<ReflectorTestObject> objects, String resourceVersion) {
    static Call add(ReflectorTestObject o) {
      return new Call("add", List.of(o), "");
    }

    static Call update(ReflectorTestObject o) {
      return new Call("update", List.of(o), "");
    }

    static Call delete(ReflectorTestObject o) {
      return new Call("delete", List.of(o), "");
    }

    static Call replace(String resourceVersion, ReflectorTestObject... objects) {
      return new Call("replace", List.of(objects), resourceVersion);
    }

    static Call resync() {
      return new Call("resync", List.of(), "");
    }
  }

  private final BlockingQueue<Call> pending = new LinkedBlockingQueue<>();
  private final List<Call> calls = new CopyOnWriteArrayList<>();
  private final Map<String, ReflectorTestObject> objects = new ConcurrentHashMap<>();
  private final AtomicReference<RuntimeException> failNext = new AtomicReference<>();

  /** The next add, update, delete or replace throws {@code error} instead of recording. */
  void failNextWrite(RuntimeException error) {
    failNext.set(error);
  }

  private void maybeFail() {
    RuntimeException error = failNext.getAndSet(null);
    if (error != null) {
      throw error;
    }
  }

  /** Waits (bounded) for the next call not yet awaited. */
  Call awaitCall() throws InterruptedException {
    Call call = pending.poll(10, TimeUnit.SECONDS);
    assertThat(call).as("a store call within 10s").isNotNull();
    return call;
  }

  /** Every call so far. */
  List<Call> calls() {
    return List.copyOf(calls);
  }

  private void record(Call call) {
    calls.add(call);
    pending.add(call);
  }

  private static String key(ReflectorTestObject o) {
    return o.namespace() + "/" + o.name();
  }

  @Override
  public void add(ReflectorTestObject object) {
    maybeFail();
    objects.put(key(object), object);
    record(Call.add(object));
  }

  @Override
  public void update(ReflectorTestObject object) {
    maybeFail();
    objects.put(key(object), object);
    record(Call.update(object));
  }

  @Override
  public void delete(ReflectorTestObject object) {
    maybeFail();
    objects.remove(key(object));
    record(Call.delete(object));
  }

  @Override
  public List<ReflectorTestObject> list() {
    return new ArrayList<>(objects.values());
  }

  @Override
  public List<String> listKeys() {
    return new ArrayList<>(objects.keySet());
  }

  @Override
  public Optional<ReflectorTestObject> get(ReflectorTestObject object) {
    return getByKey(key(object));
  }

  @Override
  public Optional<ReflectorTestObject> getByKey(String key) {
    return Optional.ofNullable(objects.get(key));
  }

  @Override
  public void replace(List<ReflectorTestObject> list, String resourceVersion) {
    maybeFail();
    objects.clear();
    list.forEach(o -> objects.put(key(o), o));
    record(new Call("replace", List.copyOf(list), resourceVersion));
  }

  @Override
  public void resync() {
    record(Call.resync());
  }
}
