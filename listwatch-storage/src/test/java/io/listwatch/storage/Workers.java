package io.listwatch.storage;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Worker threads of the contract suite, started together on virtual threads;
 * {@link #awaitDone()} fails if any worker failed. Created and awaited by the test thread;
 * failures are collected in a synchronized list.
 */
public final class Workers {

  /** The body of one concurrent worker; {@code index} tells the workers apart. */
  @FunctionalInterface
  public interface Task {
    void run(int index) throws Exception;
  }

  private final List<Thread> threads = new ArrayList<>();
  private final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());

  Workers(int count, String name, Task task) {
    CountDownLatch go = new CountDownLatch(1);
    for (int i = 0; i < count; i++) {
      int index = i;
      threads.add(Thread.ofVirtual().name(name + "-" + i).start(() -> {
        try {
          go.await();
          task.run(index);
        } catch (Throwable t) {
          failures.add(t);
        }
      }));
    }
    go.countDown();
  }

  /** Waits (bounded by {@link StorageContract#TIMEOUT} in all) for every worker; rethrows failures. */
  public void awaitDone() {
    long deadline = System.nanoTime() + StorageContract.TIMEOUT.toNanos() * 2;
    try {
      for (Thread thread : threads) {
        long left = Math.max(1, deadline - System.nanoTime());
        if (!thread.join(Duration.ofNanos(left))) {
          threads.forEach(Thread::interrupt);
          fail("worker %s did not finish within %s", thread.getName(), StorageContract.TIMEOUT.multipliedBy(2));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
    if (!failures.isEmpty()) {
      AssertionError error = new AssertionError(
          failures.size() + " worker(s) failed; first: " + failures.get(0), failures.get(0));
      failures.stream().skip(1).limit(5).forEach(error::addSuppressed);
      throw error;
    }
  }
}
