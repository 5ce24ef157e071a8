/**
 * Benchmarks and load generators, run as {@code ./listwatch bench <what>}.
 *
 * <ul>
 *   <li>{@link io.listwatch.bench.Main}: the {@code bench} command and its subcommands.
 *   <li>{@link io.listwatch.bench.StorageBenchmark}: {@code bench storage}, durable creates,
 *       ranges and watch delivery of the embedded store.
 *   <li>{@link io.listwatch.bench.server}: {@code bench server-fanout} (the API server in a
 *       child JVM, several transports) and {@code bench server-list} (in-process).
 *   <li>{@link io.listwatch.bench.ChildJvm}, {@link io.listwatch.bench.ServerJvm},
 *       {@link io.listwatch.bench.GcLog}, {@link io.listwatch.bench.JvmMemory}: child JVMs (the
 *       server, informer runs), always stopped at the end, their pauses read from their JVM log,
 *       and their RSS, native memory and heap histogram; {@link io.listwatch.bench.JfrProfile}
 *       reads a child's JFR recording (where its CPU went, by thread, kind of work and method) and
 *       {@link io.listwatch.bench.JvmThreadCpu} its CPU by thread from /proc.
 *   <li>{@link io.listwatch.bench.LatencyRecorder}, {@link io.listwatch.bench.ResultTable},
 *       {@link io.listwatch.bench.MachineInfo}: measuring and reporting, shared by every
 *       benchmark; {@link io.listwatch.bench.ReportOutput} (the {@code --markdown} option) prints
 *       the {@link io.listwatch.bench.Report}, {@link io.listwatch.bench.DataDirectory} is where a
 *       run writes ({@code --data-dir} or a temporary directory).
 *   <li>{@link io.listwatch.bench.JmhCommand}: the {@code bench *-jmh} commands, JMH's runner over
 *       one package of microbenchmarks.
 * </ul>
 *
 * <p>Every figure a benchmark prints comes with the machine it ran on and the exact
 * parameters, so that docs/benchmarks.md can quote it with its command.
 */
package io.listwatch.bench;
