package io.listwatch.client.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.Await;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Many workers and producers on one queue: no item is lost, doubled or processed twice at once. */
@Timeout(60)
class WorkQueueConcurrencyTest {

  private static final int WORKERS = 8;

  private final WorkQueue<Integer> queue = WorkQueue.<Integer>builder().name("stress").build();
  /** Items some worker is processing right now. */
  private final Set<Integer> inFlight = ConcurrentHashMap.newKeySet();
  private final AtomicInteger overlaps = new AtomicInteger();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  /** Starts workers that run {@code process} on every item they get, until shutdown. */
  private List<Thread> startWorkers(IntConsumer process) {
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < WORKERS; i++) {
      Thread worker = new Thread(() -> {
        try {
          Optional<Integer> next;
          while ((next = queue.get()).isPresent()) {
            int item = next.get();
            if (!inFlight.add(item)) {
              overlaps.incrementAndGet();
            }
            try {
              process.accept(item);
              if (ThreadLocalRandom.current().nextInt(4) == 0) {
                Thread.yield();
              }
            } finally {
              inFlight.remove(item);
              queue.done(item);
            }
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "stress-worker-" + i);
      worker.start();
      workers.add(worker);
    }
    return workers;
  }

  private void joinAll(List<Thread> threads) throws InterruptedException {
    for (Thread thread : threads) {
      thread.join(TimeUnit.SECONDS.toMillis(30));
      assertThat(thread.isAlive()).as(thread.getName() + " ended").isFalse();
    }
  }

  @Test
  void manyWorkers_processEveryItemExactlyOncePerBurst_neverTwoAtOnce() throws Exception {
    int items = 2_000;
    int bursts = 5;
    AtomicLongArray processed = new AtomicLongArray(items);
    AtomicLong total = new AtomicLong();
    List<Thread> workers = startWorkers(item -> {
      processed.incrementAndGet(item);
      total.incrementAndGet();
    });

    for (int burst = 1; burst <= bursts; burst++) {
      List<Thread> producers = new ArrayList<>();
      for (int p = 0; p < 2; p++) {
        int first = p;
        Thread producer = new Thread(() -> {
          for (int item = first; item < items; item += 2) {
            queue.add(item);
          }
        }, "stress-producer-" + p);
        producer.start();
        producers.add(producer);
      }
      joinAll(producers);
      long expected = (long) items * burst;
      Await.until("burst " + burst + " processed", Waits.TIMEOUT, () -> total.get() >= expected);
    }
    queue.shutDown();
    joinAll(workers);

    assertThat(failure.get()).isNull();
    assertThat(overlaps.get()).as("items processed by two workers at once").isZero();
    assertThat(total.get()).isEqualTo((long) items * bursts);
    for (int item = 0; item < items; item++) {
      assertThat(processed.get(item)).as("times item %d was processed", item).isEqualTo(bursts);
    }
  }

  @Test
  void addsRacingWithProcessing_areNeverLost() throws Exception {
    int items = 200;
    int addsPerProducer = 20_000;
    AtomicLong clock = new AtomicLong();
    // Per item: the logical time of its last add, and of the last time a worker started it.
    AtomicLongArray lastAdded = new AtomicLongArray(items);
    AtomicLongArray lastStarted = new AtomicLongArray(items);
    AtomicReferenceArray<Boolean> everAdded = new AtomicReferenceArray<>(items);
    List<Thread> workers =
        startWorkers(item -> lastStarted.accumulateAndGet(item, clock.incrementAndGet(), Math::max));

    List<Thread> producers = new ArrayList<>();
    for (int p = 0; p < 4; p++) {
      Thread producer = new Thread(() -> {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < addsPerProducer; i++) {
          int item = random.nextInt(items);
          everAdded.set(item, true);
          lastAdded.accumulateAndGet(item, clock.incrementAndGet(), Math::max);
          queue.add(item);
        }
      }, "stress-producer-" + p);
      producer.start();
      producers.add(producer);
    }
    joinAll(producers);
    queue.shutDown(); // workers still take what is queued or re-queued, then exit
    joinAll(workers);

    assertThat(failure.get()).isNull();
    assertThat(overlaps.get()).as("items processed by two workers at once").isZero();
    for (int item = 0; item < items; item++) {
      if (everAdded.get(item) != null) {
        assertThat(lastStarted.get(item))
            .as("item %d was processed after its last add", item)
            .isGreaterThan(lastAdded.get(item));
      }
    }
    assertThat(queue.len()).isZero();
  }
}
