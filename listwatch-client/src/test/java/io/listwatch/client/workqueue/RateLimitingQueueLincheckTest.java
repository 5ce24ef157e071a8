package io.listwatch.client.workqueue;

import io.listwatch.api.clock.FakeClock;
import io.listwatch.testsupport.ModelChecks;
import java.time.Duration;
import java.util.Optional;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * Lincheck's model checker on the rate-limiting queue (a {@link DefaultRateLimitingQueue} over
 * a {@link DefaultDelayingQueue} over a {@link DefaultWorkQueue}), with per-item exponential
 * backoff (1 s, 2 s, 4 s) and a {@link FakeClock} that a thread advances as an operation, so
 * timers fire on that thread while the others add, get and finish. The contract checked:
 * everything {@link WorkQueue} promises, plus an item waits at most once and is added when
 * its ready time comes; every explored interleaving gives results some one-at-a-time order
 * gives (linearizability against the queue itself, run sequentially).
 */
@Param(name = "item", gen = IntGen.class, conf = "1:2")
@Param(name = "seconds", gen = IntGen.class, conf = "0:2")
public class RateLimitingQueueLincheckTest {

  private final FakeClock clock = new FakeClock();
  private final DefaultWorkQueue<Integer> base = new DefaultWorkQueue<>("lincheck", clock);
  private final RateLimitingQueue<Integer> queue = new DefaultRateLimitingQueue<>(
      new DefaultDelayingQueue<>(base, clock),
      RateLimiters.itemExponentialFailure(Duration.ofSeconds(1), Duration.ofSeconds(4)));

  @Operation(params = "item")
  public void add(int item) {
    queue.add(item);
  }

  @Operation(params = "item")
  public void addRateLimited(int item) {
    queue.addRateLimited(item);
  }

  @Operation(params = {"item", "seconds"})
  public void addAfter(int item, int seconds) {
    queue.addAfter(item, Duration.ofSeconds(seconds));
  }

  @Operation(params = "item")
  public void forget(int item) {
    queue.forget(item);
  }

  @Operation(params = "item")
  public int numRequeues(int item) {
    return queue.numRequeues(item);
  }

  @Operation
  public Optional<Integer> get() {
    return base.poll();
  }

  @Operation(params = "item")
  public void done(int item) {
    queue.done(item);
  }

  @Operation
  public int len() {
    return queue.len();
  }

  /** Time passes; the timers that come due fire on this thread. */
  @Operation(params = "seconds")
  public void advance(int seconds) {
    clock.advance(Duration.ofSeconds(seconds));
  }

  @Test
  void modelChecking_delaysAndWorkersAreLinearizable() {
    ModelChecks.options(2, 60, 2)
        // a timer firing while the item is re-added
        .addCustomScenario(ModelChecks.scenario(getClass(), "addRateLimited(1)",
            "addAfter(1, 1) get() | advance(1) add(1)", "len()"))
        // a delayed add of an item being processed
        .addCustomScenario(ModelChecks.scenario(getClass(), "add(1) get()",
            "addAfter(1, 1) done(1) | advance(2) get()", "get()"))
        // two failures of one item at once
        .addCustomScenario(ModelChecks.scenario(getClass(), "",
            "addRateLimited(1) | addRateLimited(1)", "numRequeues(1)"))
        .check(getClass());
  }
}
