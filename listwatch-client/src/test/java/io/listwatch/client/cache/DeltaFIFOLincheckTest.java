package io.listwatch.client.cache;

import static io.listwatch.client.cache.StoreTestObject.KEY;
import static io.listwatch.client.cache.StoreTestObject.obj;

import io.listwatch.testsupport.ModelChecks;
import java.util.ArrayList;
import java.util.List;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * Lincheck's model checker on {@link DeltaFIFO} between a reflector (the producers: add,
 * update, delete, replace, resync) and an informer's loop (the consumer: pop, applying each
 * popped batch to its {@code knownObjects} store as the informer does). The contract checked:
 * any number of producers and consumers, and every interleaving gives the deltas, pops and
 * inferred deletions some one-at-a-time order gives (linearizability against the queue
 * itself, run sequentially). That covers the gap the class comment names: while a key is
 * being processed outside the queue lock it is neither queued nor yet in
 * {@code knownObjects}, and a relist, delete or resync arriving then must still see it.
 *
 * <p>Pops run on one thread ({@code nonParallelGroup}), as the informer's loop does, so a pop
 * only runs when something is queued and never blocks.
 */
@Param(name = "name", gen = IntGen.class, conf = "0:1")
@Param(name = "rv", gen = IntGen.class, conf = "1:2")
@Param(name = "mask", gen = IntGen.class, conf = "0:3")
public class DeltaFIFOLincheckTest {

  private static final String[] NAMES = {"a", "b"};

  private final ThreadSafeStore<StoreTestObject> known = new ThreadSafeStore<>(KEY);
  private final DeltaFIFO<StoreTestObject> fifo = new DeltaFIFO<>(KEY, known);

  private static StoreTestObject object(int name, int rv) {
    return obj("ns", NAMES[name], Integer.toString(rv));
  }

  private static String describe(List<Delta<StoreTestObject>> deltas) {
    List<String> out = new ArrayList<>();
    for (Delta<StoreTestObject> d : deltas) {
      out.add(d.type() + " " + d.object().resourceVersion() + (d.deletedFinalStateUnknown() ? " (unknown)" : ""));
    }
    return out.toString();
  }

  @Operation(params = {"name", "rv"})
  public void add(int name, int rv) {
    fifo.add(object(name, rv));
  }

  @Operation(params = {"name", "rv"})
  public void update(int name, int rv) {
    fifo.update(object(name, rv));
  }

  @Operation(params = {"name", "rv"})
  public void delete(int name, int rv) {
    fifo.delete(object(name, rv));
  }

  /** A relist holding the objects named by the bits of {@code mask}, all at {@code rv}. */
  @Operation(params = {"mask", "rv"})
  public void replace(int mask, int rv) {
    List<StoreTestObject> objects = new ArrayList<>();
    for (int name = 0; name < NAMES.length; name++) {
      if ((mask & (1 << name)) != 0) {
        objects.add(object(name, rv));
      }
    }
    fifo.replace(objects, "");
  }

  @Operation
  public void resync() {
    fifo.resync();
  }

  /** Pops one key and applies its deltas to {@code known}, as the informer's loop does. */
  @Operation(nonParallelGroup = "consumer")
  public String pop() throws InterruptedException {
    if (fifo.size() == 0) {
      return "nothing queued";
    }
    StringBuilder popped = new StringBuilder();
    fifo.popKeyed((key, deltas, initial) -> {
      for (Delta<StoreTestObject> d : deltas) {
        if (d.type() == DeltaType.DELETED) {
          known.delete(d.object());
        } else {
          known.update(d.object());
        }
      }
      popped.append(key).append(' ').append(describe(deltas)).append(initial ? " initial" : "");
    });
    return popped.toString();
  }

  @Operation(params = "name")
  public String deltas(int name) {
    return describe(fifo.deltas("ns/" + NAMES[name]));
  }

  @Operation
  public List<String> queuedKeys() {
    return fifo.listKeys();
  }

  @Operation
  public boolean hasSynced() {
    return fifo.hasSynced();
  }

  @Test
  void modelChecking_producersAndTheConsumerAreLinearizable() {
    ModelChecks.options(2, 60, 2)
        // a relist while the only key is being processed
        .addCustomScenario(ModelChecks.scenario(getClass(), "add(0, 1)",
            "pop() | replace(0, 2) deltas(0)", "pop()"))
        // a delete and a resync while the key is being processed
        .addCustomScenario(ModelChecks.scenario(getClass(), "add(0, 1)",
            "pop() | delete(0, 1) resync()", "pop()"))
        .check(getClass());
  }
}
