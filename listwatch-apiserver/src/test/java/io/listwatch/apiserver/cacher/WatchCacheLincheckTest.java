package io.listwatch.apiserver.cacher;

import static io.listwatch.apiserver.cacher.TestObjects.key;
import static io.listwatch.apiserver.cacher.TestObjects.pod;

import io.listwatch.testsupport.ModelChecks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jetbrains.lincheck.datastructures.BooleanGen;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * Lincheck's model checker on {@link WatchCache} and its ring buffer ({@link EventHistory},
 * three events and two seconds here, so both bounds evict). Its contract: writes (apply,
 * progress, relist) come from the cacher's one dispatch thread, reads from anywhere, and the
 * state and the history always agree. Checked: with the writes on one thread
 * ({@code nonParallelGroup}) and reads and waits on the other, every explored interleaving
 * gives results some one-at-a-time order gives (linearizability against the cache itself, run
 * sequentially): a watch resuming from a resourceVersion gets every later event once, in
 * order, or 410 once the buffer has dropped what it needs; a list is the state at the
 * resourceVersion it names. After each run, every wait for a resourceVersion the cache has
 * reached is completed, and no other.
 */
@Param(name = "name", gen = IntGen.class, conf = "0:1")
@Param(name = "rv", gen = IntGen.class, conf = "0:4")
@Param(name = "delete", gen = BooleanGen.class)
public class WatchCacheLincheckTest {

  private static final String[] NAMES = {"a", "b"};
  private static final long SECOND = 1_000_000_000L;
  /** The pods every run uses, by name and resourceVersion: built once, since JSON is costly to check through. */
  private static final CachedObject[][] PODS = new CachedObject[NAMES.length][12];

  static {
    for (int name = 0; name < NAMES.length; name++) {
      for (int rv = 1; rv < PODS[name].length; rv++) {
        PODS[name][rv] = pod("default", NAMES[name], rv, Map.of());
      }
    }
  }

  private final WatchCache cache = new WatchCache(3, 2 * SECOND);
  /** The last resourceVersion written; the dispatch thread's. */
  private long written;
  /** Every wait registered: its resourceVersion and future. */
  private final ConcurrentLinkedQueue<Waiter> waiters = new ConcurrentLinkedQueue<>();

  private record Waiter(long resourceVersion, CompletableFuture<Long> future) {
  }

  private static String describe(WatchCacheEvent e) {
    return e.type() + " " + e.object().name() + " " + e.resourceVersion();
  }

  // ---- the dispatch thread

  /** One change to {@code name}: added if absent, else modified, or deleted when {@code delete}. */
  @Operation(params = {"name", "delete"}, nonParallelGroup = "dispatch")
  public void change(int name, boolean delete) {
    long rv = ++written;
    CachedObject prev = cache.current(key("default", NAMES[name]));
    WatchCacheEvent event;
    if (prev == null) {
      event = new WatchCacheEvent(WatchCacheEvent.Type.ADDED, PODS[name][(int) rv], null, rv * SECOND);
    } else if (delete) {
      event = new WatchCacheEvent(WatchCacheEvent.Type.DELETED, PODS[name][(int) rv], prev, rv * SECOND);
    } else {
      event = new WatchCacheEvent(WatchCacheEvent.Type.MODIFIED, PODS[name][(int) rv], prev, rv * SECOND);
    }
    cache.apply(event, rv * SECOND).forEach(f -> f.complete(rv));
  }

  /** Storage's progress notification: everything up to a new resourceVersion was delivered. */
  @Operation(nonParallelGroup = "dispatch")
  public void progress() {
    long rv = ++written;
    cache.advanceTo(rv, rv * SECOND).forEach(f -> f.complete(rv));
  }

  /** A relist: the state is {@code name}'s pod alone, at a new resourceVersion. */
  @Operation(params = "name", nonParallelGroup = "dispatch")
  public void relist(int name) {
    long rv = ++written;
    cache.replace(List.of(PODS[name][(int) rv]), rv);
  }

  // ---- any thread

  /** What a watch resuming from {@code rv} is sent; 410 (a StatusException) once dropped. */
  @Operation(params = "rv")
  public List<String> eventsSince(int rv) {
    List<String> out = new ArrayList<>();
    for (WatchCacheEvent e : cache.eventsSince(rv)) {
      out.add(describe(e));
    }
    return out;
  }

  /** A list: the objects and the resourceVersion they are the state at. */
  @Operation
  public List<String> list() {
    WatchCache.Snapshot snapshot = cache.snapshot("/registry/core/pods/", null, o -> true);
    List<String> out = new ArrayList<>();
    for (CachedObject o : snapshot.objects()) {
      out.add(o.name() + " " + o.resourceVersion());
    }
    out.add("at " + snapshot.resourceVersion());
    return out;
  }

  @Operation(params = "rv")
  public void waitUntil(int rv) {
    waiters.add(new Waiter(rv, cache.waitUntil(rv)));
  }

  /** Every wait for a resourceVersion the cache reached is completed, with one at or past it; no other is. */
  @Validate
  public void waitsEndExactlyWhenTheCacheGetsThere() {
    long reached = cache.resourceVersion();
    for (Waiter w : waiters) {
      boolean due = w.resourceVersion() <= reached;
      if (w.future().isDone() != due) {
        throw new AssertionError("a wait for " + w.resourceVersion() + " is " + (due ? "not " : "")
            + "done with the cache at " + reached);
      }
      if (due && w.future().join() < w.resourceVersion()) {
        throw new AssertionError("a wait for " + w.resourceVersion() + " completed at " + w.future().join());
      }
    }
  }

  @Test
  void modelChecking_oneWriterAndReadersAreLinearizable_andWaitsEnd() {
    ModelChecks.options(2, 40, 2)
        // resuming watches while the buffer evicts
        .addCustomScenario(ModelChecks.scenario(getClass(), "change(0, false) change(1, false) change(0, false)",
            "change(1, true) progress() | eventsSince(1) list()", "eventsSince(2)"))
        // waits ended by changes and progress
        .addCustomScenario(ModelChecks.scenario(getClass(), "change(0, false)",
            "change(1, false) progress() | waitUntil(2) waitUntil(4)", "list()"))
        // a relist while a watch resumes
        .addCustomScenario(ModelChecks.scenario(getClass(), "change(0, false)",
            "relist(1) | eventsSince(1) waitUntil(2)", "list()"))
        .check(getClass());
  }
}
