package io.listwatch.testsupport;

import static org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt.forClasses;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import kotlin.Unit;
import kotlin.reflect.KFunction;
import kotlin.reflect.jvm.ReflectJvmMapping;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.DSLScenarioBuilder;
import org.jetbrains.lincheck.datastructures.DSLThreadScenario;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;

/**
 * The options every Lincheck model check starts from: two threads of a few operations each,
 * and few enough scenarios that a check takes seconds in the test command. A longer campaign
 * raises the counts without a rebuild:
 * {@code -Dlistwatch.modelcheck.iterations=200 -Dlistwatch.modelcheck.invocations=2000}.
 *
 * <p>A short run draws few random scenarios, so a check also names the interleavings its class
 * comment is about as {@link #scenario}s, which every run checks.
 *
 * <p>A module using this declares its own test-scope dependency on Lincheck (this module's is
 * optional) and opens the JDK packages Lincheck reads ({@code lincheck.jvmArgs} in the parent
 * pom).
 *
 * <p>Thread-safe: stateless.
 */
public final class ModelChecks {

  private static final String[] LOCK_SYNCS = {
      "java.util.concurrent.locks.ReentrantLock$Sync",
      "java.util.concurrent.locks.ReentrantLock$NonfairSync",
      "java.util.concurrent.locks.ReentrantLock$FairSync",
      "java.util.concurrent.locks.ReentrantReadWriteLock$Sync",
      "java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync",
      "java.util.concurrent.locks.ReentrantReadWriteLock$FairSync",
  };
  private static final String[] LOCK_STEPS = {
      "initialTryLock", "tryAcquire", "tryRelease", "tryAcquireShared", "fullTryAcquireShared",
      "tryReleaseShared", "readerShouldBlock", "writerShouldBlock",
  };

  private static final String[] COLLECTIONS = {
      "java.util.HashMap", "java.util.HashSet", "java.util.LinkedHashMap", "java.util.TreeMap",
      "java.util.TreeSet", "java.util.ArrayList", "java.util.ArrayDeque", "java.util.PriorityQueue",
  };

  private ModelChecks() {
  }

  /**
   * Model checking of {@code scenarios} random scenarios (each {@code actorsPerThread}
   * operations on each of two threads, after one sequential operation and before another),
   * each run in up to {@code interleavings} interleavings, unless the system properties above
   * ask for more.
   */
  public static ModelCheckingOptions options(int scenarios, int interleavings, int actorsPerThread) {
    return new ModelCheckingOptions()
        .iterations(Integer.getInteger("listwatch.modelcheck.iterations", scenarios))
        .invocationsPerIteration(Integer.getInteger("listwatch.modelcheck.invocations", interleavings))
        .threads(2)
        .actorsPerThread(actorsPerThread)
        .actorsBefore(1)
        .actorsAfter(1)
        // Lincheck reports an invocation running longer than this as hung (10 s by default). The
        // first use of a JDK class inside one retransforms that class, which on a loaded machine
        // took longer than 10 s; a real hang still fails, later.
        .invocationTimeout$lincheck(TimeUnit.SECONDS.toMillis(60))
        // A ReentrantReadWriteLock counts each thread's read holds in a ThreadLocal: state no
        // other thread sees, whose interleavings only cost time.
        .addGuarantee(forClasses("java.lang.ThreadLocal", "java.lang.ThreadLocal$ThreadLocalMap")
            .allMethods().ignore())
        // A lock's try-methods are each one compare-and-set loop on the lock's state: taken as
        // one step, the checker still switches threads at every acquire and release and blocks
        // a thread on a held lock, without exploring the spins inside.
        .addGuarantee(forClasses(LOCK_SYNCS).methods(LOCK_STEPS).treatAsAtomic())
        // The JDK's collections as one step per call: the classes checked use them under their
        // locks, where a switch inside a call only blocks the other threads. What this gives up:
        // two unlocked calls on one collection racing inside it (a lost update in a HashMap); for
        // fields marked @GuardedBy, Error Prone catches those at compile time.
        .addGuarantee(forClasses(COLLECTIONS).allMethods().treatAsAtomic());
  }

  /**
   * A scenario of {@code test}'s operations, written as calls separated by spaces, e.g.
   * {@code scenario(T.class, "add(1)", "get() done(1) | add(1) len()", "get()")}: what runs
   * first, then each thread's calls (threads separated by {@code |}), then what runs last.
   * Arguments are ints or booleans.
   */
  public static ExecutionScenario scenario(Class<?> test, String initial, String parallel, String post) {
    DSLScenarioBuilder builder = new DSLScenarioBuilder();
    builder.initial(thread -> calls(thread, test, initial));
    builder.parallel(threads -> {
      for (String calls : parallel.split("\\|")) {
        threads.thread(thread -> calls(thread, test, calls));
      }
      return Unit.INSTANCE;
    });
    builder.post(thread -> calls(thread, test, post));
    return builder.buildScenario();
  }

  private static Unit calls(DSLThreadScenario thread, Class<?> test, String calls) {
    for (String call : calls.replaceAll(",\\s+", ",").trim().split("\\s+")) {
      if (call.isEmpty()) {
        continue;
      }
      int open = call.indexOf('(');
      if (open < 0 || !call.endsWith(")")) {
        throw new IllegalArgumentException("not a call: " + call);
      }
      String name = call.substring(0, open);
      String inside = call.substring(open + 1, call.length() - 1);
      List<Object> args = new ArrayList<>();
      for (String arg : inside.isEmpty() ? new String[0] : inside.split(",")) {
        String a = arg.trim();
        args.add(a.equals("true") || a.equals("false") ? (Object) Boolean.valueOf(a) : (Object) Integer.valueOf(a));
      }
      thread.actor(operation(test, name, args.size()), args.toArray());
    }
    return Unit.INSTANCE;
  }

  private static KFunction<?> operation(Class<?> test, String name, int arity) {
    for (Method m : test.getMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() == arity) {
        KFunction<?> f = ReflectJvmMapping.getKotlinFunction(m);
        if (f == null) {
          throw new IllegalArgumentException("no Kotlin view of " + m);
        }
        return f;
      }
    }
    throw new IllegalArgumentException(test.getSimpleName() + " has no public operation " + name + "/" + arity);
  }
}
