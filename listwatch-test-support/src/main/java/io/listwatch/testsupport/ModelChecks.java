package io.listwatch.testsupport;

import static org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt.forClasses;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;

/**
 * The options every Lincheck model check starts from: two threads of a few operations each,
 * and few enough scenarios that a check takes seconds in the test command. A longer campaign
 * raises the counts without a rebuild:
 * {@code -Dlistwatch.modelcheck.iterations=200 -Dlistwatch.modelcheck.invocations=2000}.
 *
 * <p>A module using this declares its own test-scope dependency on Lincheck (this module's is
 * optional) and opens the JDK packages Lincheck reads ({@code lincheck.jvmArgs} in the parent
 * pom).
 */
public final class ModelChecks {

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
        // A ReentrantReadWriteLock counts each thread's read holds in a ThreadLocal: state no
        // other thread sees, whose interleavings only cost time.
        .addGuarantee(forClasses("java.lang.ThreadLocal", "java.lang.ThreadLocal$ThreadLocalMap")
            .allMethods().ignore());
  }
}
