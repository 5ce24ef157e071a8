package io.listwatch.bench.informer.jmh;

import io.listwatch.api.ListOptions;
import io.listwatch.bench.JmhBenchmark;
import io.listwatch.client.MetaAccessor;
import io.listwatch.client.ObjectList;
import io.listwatch.client.WatchEvent;
import io.listwatch.client.WatchStream;
import io.listwatch.client.cache.ListerWatcher;
import io.listwatch.client.cache.ResourceEventHandler;
import io.listwatch.client.cache.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Event throughput of our informer without a network: watch events go from an in-memory
 * {@link WatchStream} through the Reflector, the DeltaFIFO, the indexer and the processor to
 * 1 or 10 handlers (each on its own thread, as the informer runs them). One operation is one
 * MODIFIED event of one of {@value #KEYS} objects delivered to every handler; an invocation
 * queues {@value #BATCH} events and returns when every handler has seen all of them.
 *
 * <p>Run with {@code ./listwatch bench informer-jmh}. JMH confines the benchmark method to
 * its thread; the informer's threads are its own.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "-XX:+UseG1GC"})
public class InformerDispatchBenchmark extends JmhBenchmark {

  static final int KEYS = 1_000;
  static final int BATCH = 10_000;

  /** Handlers registered on the informer. */
  @Param({"1", "10"})
  public int handlers;

  private QueueListerWatcher source;
  private SharedIndexInformer<Obj> informer;
  private Counter[] counters;
  private long sent;
  private long version = 1_000;
  private final String[] names = new String[KEYS];

  /** A minimal object: the metadata the cache needs and nothing else. */
  record Obj(String namespace, String name, String resourceVersion) {
  }

  /** Reads an {@link Obj}'s metadata. Stateless. */
  static final class ObjMeta implements MetaAccessor<Obj> {
    @Override public String namespace(Obj o) { return o.namespace(); }
    @Override public String name(Obj o) { return o.name(); }
    @Override public String resourceVersion(Obj o) { return o.resourceVersion(); }
    @Override public String uid(Obj o) { return o.name(); }
    @Override public Map<String, String> labels(Obj o) { return Map.of(); }
    @Override public Map<String, String> annotations(Obj o) { return Map.of(); }
  }

  /** Counts what one handler received; written by the handler's thread only. */
  static final class Counter implements ResourceEventHandler<Obj> {
    volatile long seen;

    @Override
    public void onAdd(Obj object, boolean isInInitialList) {
      seen++;
    }

    @Override
    public void onUpdate(Obj oldObject, Obj newObject) {
      seen++;
    }
  }

  /**
   * Lists {@value #KEYS} objects once, then serves one watch fed from a queue. Thread-safe.
   */
  static final class QueueListerWatcher implements ListerWatcher<Obj> {
    private static final WatchEvent<Obj> END = new WatchEvent<>(WatchEvent.Type.BOOKMARK, new Obj("", "", "0"), null);
    final LinkedBlockingQueue<WatchEvent<Obj>> events = new LinkedBlockingQueue<>();

    @Override
    public ObjectList<Obj> list(ListOptions options) {
      List<Obj> items = new ArrayList<>(KEYS);
      for (int i = 0; i < KEYS; i++) {
        items.add(new Obj("default", "obj-" + i, "1"));
      }
      return new ObjectList<>(items, "1", "", OptionalLong.empty());
    }

    @Override
    public WatchStream<Obj> watch(ListOptions options) {
      return new WatchStream<>() {
        @Override
        public Optional<WatchEvent<Obj>> next() {
          try {
            WatchEvent<Obj> e = events.take();
            return e == END ? Optional.empty() : Optional.of(e);
          } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return Optional.empty();
          }
        }

        @Override
        public void close() {
          events.add(END);
        }
      };
    }
  }

  @Setup(Level.Trial)
  public void setUp() {
    for (int i = 0; i < KEYS; i++) {
      names[i] = "obj-" + i;
    }
    source = new QueueListerWatcher();
    informer = SharedIndexInformer.builder(source, new ObjMeta()).name("jmh").build();
    counters = new Counter[handlers];
    for (int i = 0; i < handlers; i++) {
      counters[i] = new Counter();
      informer.addEventHandler(counters[i]);
    }
    informer.start();
    sent = KEYS; // the initial list's adds
    awaitDelivered();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    informer.close();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void modifiedEvents() {
    for (int i = 0; i < BATCH; i++) {
      String rv = Long.toString(++version);
      source.events.add(new WatchEvent<>(WatchEvent.Type.MODIFIED,
          new Obj("default", names[i % KEYS], rv), null));
    }
    sent += BATCH;
    awaitDelivered();
  }

  private void awaitDelivered() {
    for (Counter c : counters) {
      while (c.seen < sent) {
        LockSupport.parkNanos(20_000);
      }
    }
  }
}
