package io.listwatch.client.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A handler that records every call, for the informer tests; {@link #next()} waits (bounded)
 * for the next one. Also notes if calls ever overlap, and on which thread they run.
 */
class InformerTestHandler implements ResourceEventHandler<InformerTestObject> {

  /** One recorded call: {@code add}, {@code update}, {@code delete}. */
  record Call(String kind, InformerTestObject oldObject, InformerTestObject object,
      boolean flag) {
    String key() {
      return object.key();
    }

    String rv() {
      return object.resourceVersion();
    }

    /** e.g. {@code add ns/a@3 initial}, {@code update ns/a@3->4}, {@code delete ns/a@4 unknown}. */
    @Override
    public String toString() {
      return switch (kind) {
        case "add" -> "add " + key() + "@" + rv() + (flag ? " initial" : "");
        case "update" -> "update " + key() + "@" + oldObject.resourceVersion() + "->" + rv();
        default -> "delete " + key() + "@" + rv() + (flag ? " unknown" : "");
      };
    }
  }

  final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();
  final AtomicInteger inFlight = new AtomicInteger();
  volatile boolean overlapped;
  volatile Thread thread;

  @Override
  public void onAdd(InformerTestObject object, boolean isInInitialList) {
    record(new Call("add", null, object, isInInitialList));
  }

  @Override
  public void onUpdate(InformerTestObject oldObject, InformerTestObject newObject) {
    record(new Call("update", oldObject, newObject, false));
  }

  @Override
  public void onDelete(InformerTestObject object, boolean deletedFinalStateUnknown) {
    record(new Call("delete", null, object, deletedFinalStateUnknown));
  }

  /** Runs before a call is recorded, on the handler's thread; for subclasses. */
  void beforeRecord(Call call) {}

  private void record(Call call) {
    if (inFlight.incrementAndGet() > 1) {
      overlapped = true;
    }
    thread = Thread.currentThread();
    try {
      beforeRecord(call);
      calls.add(call);
    } finally {
      inFlight.decrementAndGet();
    }
  }

  /** The next call, waiting up to 10 s; fails if none comes. */
  Call next() throws InterruptedException {
    Call call = calls.poll(10, TimeUnit.SECONDS);
    assertThat(call).as("a handler call within 10 s").isNotNull();
    return call;
  }

  /** The next {@code n} calls, as strings. */
  List<String> next(int n) throws InterruptedException {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(next().toString());
    }
    return out;
  }
}
