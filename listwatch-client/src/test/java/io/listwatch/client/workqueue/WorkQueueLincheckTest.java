package io.listwatch.client.workqueue;

import io.listwatch.api.clock.FakeClock;
import io.listwatch.testsupport.ModelChecks;
import java.util.Optional;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * Lincheck's model checker on {@link DefaultWorkQueue}: every interleaving it explores of
 * two threads adding, getting, finishing and shutting down must give results some
 * one-at-a-time order of the same calls gives (linearizability against the queue itself, run
 * sequentially). That covers {@link WorkQueue}'s contract as a worker sees it: an item is
 * never handed to a second worker before {@code done}, an add during processing is handed
 * out again after {@code done}, a queued item is not queued twice, and {@code done} of an
 * item not being processed fails.
 *
 * <p>{@code get} is {@link DefaultWorkQueue#poll} here (the model checker's operations must
 * not block); waiting in {@code get} is {@link WorkQueueTest}'s.
 */
@Param(name = "item", gen = IntGen.class, conf = "1:2")
public class WorkQueueLincheckTest {

  private final DefaultWorkQueue<Integer> queue = new DefaultWorkQueue<>("lincheck", new FakeClock());

  @Operation(params = "item")
  public void add(int item) {
    queue.add(item);
  }

  @Operation
  public Optional<Integer> get() {
    return queue.poll();
  }

  @Operation(params = "item")
  public void done(int item) {
    queue.done(item);
  }

  @Operation
  public int len() {
    return queue.len();
  }

  @Operation(runOnce = true)
  public void shutDown() {
    queue.shutDown();
  }

  @Test
  void modelChecking_everyInterleavingIsLinearizable() {
    ModelChecks.options(2, 60, 2)
        // an add while processing, then done
        .addCustomScenario(ModelChecks.scenario(getClass(), "add(1) get()",
            "add(1) get() | done(1) get()", "len()"))
        // two workers after one item
        .addCustomScenario(ModelChecks.scenario(getClass(), "add(1)",
            "get() done(1) | get() add(1)", "get()"))
        .check(getClass());
  }
}
