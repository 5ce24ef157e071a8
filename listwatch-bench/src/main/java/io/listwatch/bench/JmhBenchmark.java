package io.listwatch.bench;

import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the module's JMH benchmarks share, as annotations JMH inherits: one instance per
 * benchmark ({@code @State(Scope.Benchmark)}), 3 warm-up and 5 measured iterations of 2 s each.
 * A benchmark extends it and adds its mode, time unit and fork (its heap); the
 * {@code bench <what>-jmh} commands ({@link JmhCommand}) run them.
 *
 * <p>No state of its own; JMH confines each benchmark instance to its benchmark thread.
 */
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public abstract class JmhBenchmark {
}
