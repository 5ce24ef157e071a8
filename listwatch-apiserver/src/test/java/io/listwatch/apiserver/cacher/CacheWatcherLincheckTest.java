package io.listwatch.apiserver.cacher;

import static io.listwatch.apiserver.cacher.TestObjects.added;
import static io.listwatch.apiserver.cacher.TestObjects.pod;

import io.listwatch.testsupport.ModelChecks;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.BooleanGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * Lincheck's model checker on a {@link CacheWatcher}'s bounded queue (two frames here), between
 * the cacher's dispatch thread (offer, end, terminate) and the connection's event loop
 * (draining, writability, the client going away), each on its own thread as the class comment
 * says. Checked: every explored interleaving gives results some one-at-a-time order gives
 * (linearizability against the watcher itself, run sequentially): an offer is refused exactly
 * when the queue is full or the watch is over, and a drain writes what was queued, in order.
 * After each run: the client got a prefix of the accepted events, in order, each once, and
 * an ended watch wrote every event it accepted, and was not also aborted; the watcher was
 * closed at most once.
 */
@Param(name = "writable", gen = BooleanGen.class)
public class CacheWatcherLincheckTest {

  /** The pods every run offers, by resourceVersion: built once, since JSON is costly to check through. */
  private static final CachedObject[] PODS = new CachedObject[12];

  static {
    for (int rv = 1; rv < PODS.length; rv++) {
      PODS[rv] = pod("default", "p" + rv, rv, Map.of());
    }
  }

  private final ManualEventExecutor loop = new ManualEventExecutor();
  private final FakeWatchSink sink = new FakeWatchSink(loop);
  private final AtomicInteger closed = new AtomicInteger();
  private final CacheWatcher watcher = new CacheWatcher(WatchFilter.EVERYTHING, sink, 2, 0, null, closed::incrementAndGet);
  /** The resourceVersions of the events the watcher accepted, in order; the dispatch thread's. */
  private final StringBuilder accepted = new StringBuilder();
  private int offered;

  // ---- the dispatch thread

  @Operation(nonParallelGroup = "dispatch")
  public CacheWatcher.Delivery offer() {
    int rv = ++offered;
    CacheWatcher.Delivery delivery = watcher.deliver(added(PODS[rv]));
    if (delivery == CacheWatcher.Delivery.QUEUED) {
      accepted.append("p").append(rv).append(' ');
    }
    return delivery;
  }

  @Operation(nonParallelGroup = "dispatch")
  public void end() {
    watcher.end();
  }

  /** The cacher gives up on the watcher (it fell behind). */
  @Operation(nonParallelGroup = "dispatch")
  public void terminate() {
    watcher.terminate();
  }

  // ---- the event loop

  /** Runs the loop's pending tasks; returns how many events they wrote. */
  @Operation(nonParallelGroup = "loop")
  public int runLoop() {
    int before = sink.lines().size();
    loop.runPending();
    return sink.lines().size() - before;
  }

  @Operation(params = "writable", nonParallelGroup = "loop")
  public void setWritable(boolean writable) {
    sink.setWritable(writable);
    if (writable) {
      loop.execute(watcher::drain); // as the transport does when the channel turns writable
    }
  }

  @Operation(nonParallelGroup = "loop")
  public void clientGoesAway() {
    watcher.onSinkClosed();
  }

  @Validate
  public void theClientGotAPrefixOfTheAcceptedEvents_andAnEndAfterAllOfThem() {
    loop.runPending();
    StringBuilder written = new StringBuilder();
    for (String line : sink.lines()) {
      int name = line.indexOf("\"name\":\"") + 8;
      written.append(line, name, line.indexOf('"', name)).append(' ');
    }
    String all = accepted.toString();
    if (!all.startsWith(written.toString())) {
      throw new AssertionError("accepted " + all + "but the client got " + written);
    }
    if (sink.ended() && (sink.aborted() || !written.toString().equals(all))) {
      throw new AssertionError("ended after " + written + "of " + all + (sink.aborted() ? ", and aborted" : ""));
    }
    if (closed.get() > 1) {
      throw new AssertionError("closed " + closed.get() + " times");
    }
  }

  @Test
  void modelChecking_dispatchAndTheEventLoopAreLinearizable_andTheClientMissesNothing() {
    ModelChecks.options(2, 40, 2)
        // an end while the loop drains
        .addCustomScenario(ModelChecks.scenario(getClass(), "offer()",
            "offer() end() | runLoop() runLoop()", "runLoop()"))
        // a full queue while the connection is not writable
        .addCustomScenario(ModelChecks.scenario(getClass(), "offer() offer()",
            "offer() offer() | setWritable(false) runLoop()", "setWritable(true)"))
        // an event arriving after the watch was asked to end
        .addCustomScenario(ModelChecks.scenario(getClass(), "offer()",
            "end() offer() | runLoop()", "runLoop()"))
        // the cacher and the client giving up at once
        .addCustomScenario(ModelChecks.scenario(getClass(), "offer()",
            "terminate() | runLoop() clientGoesAway()", "runLoop()"))
        .check(getClass());
  }
}
