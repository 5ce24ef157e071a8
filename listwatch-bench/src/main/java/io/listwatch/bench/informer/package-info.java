/**
 * {@code bench informer-sync}: our pod informer against fabric8's and the official Java
 * client's, each in a fresh child JVM, against our API server in a child JVM of its own.
 *
 * <ul>
 *   <li>{@link io.listwatch.bench.informer.InformerSyncBenchmark}: the command (parent side):
 *       loads pods, runs the clients round-robin, prints the tables and verdicts.
 *   <li>{@link io.listwatch.bench.informer.InformerSyncRun}: the child's main: one informer,
 *       start to synced, heap and CPU, then the update notifications it receives after the
 *       sync, one result line.
 *   <li>{@code SyncComparison}: the summary, each listwatch row
 *       ({@code DynamicObject}; the peers' typed model) against each peer, the verdicts, the
 *       named figures and the note on what makes the difference.
 *   <li>{@code SyncProfile}: {@code --profile}'s summary of a child's JFR recording.
 *   <li>{@code PodInformerUnderTest} and its implementations, one per client; each says what
 *       its cache holds.
 *   <li>{@link io.listwatch.bench.ChildJvm}, {@link io.listwatch.bench.ServerJvm}: child
 *       processes, always stopped at the end.
 *   <li>{@link io.listwatch.bench.informer.InformerJmhCommand}: {@code bench informer-jmh},
 *       JMH's runner over {@code io.listwatch.bench.informer.jmh} (the informer's event path
 *       without a network).
 * </ul>
 */
package io.listwatch.bench.informer;
