/**
 * Faults with checked histories, Jepsen's way ({@code ./listwatch chaos}).
 *
 * <ul>
 *   <li>{@link io.listwatch.bench.chaos.ChaosRun} runs one topology
 *       ({@link io.listwatch.bench.chaos.Topology}: two servers on a three-member etcd, or one
 *       server on the embedded store; each process a {@link io.listwatch.bench.chaos.Node}) with
 *       {@link io.listwatch.bench.chaos.ChaosClient}s (creates, compare-and-set updates, deletes,
 *       reads and lists through {@link io.listwatch.bench.chaos.ConfigMapCalls}),
 *       {@link io.listwatch.bench.chaos.ChaosWatcher}s and the
 *       {@link io.listwatch.bench.chaos.Nemesis} (SIGKILL and restart, SIGSTOP and SIGCONT,
 *       partitions, delay, dropped connections, servers cut off from etcd).
 *   <li>The etcd members run in a {@link io.listwatch.bench.chaos.PrivateNetwork} (a network
 *       namespace each, on a bridge), each a {@link io.listwatch.bench.chaos.NamespacedEtcdMember}
 *       whose network takes a {@link io.listwatch.bench.chaos.NetworkFault} (cut off, split from
 *       its peers, a lossy link); each server reaches each member through a
 *       {@link io.listwatch.bench.chaos.DelayProxy} of its own, which adds delay or holds every
 *       byte, in place of {@code tc netem} (not in this machine's kernel).
 *   <li>Everything is recorded in a {@link io.listwatch.bench.chaos.History}: each
 *       {@link io.listwatch.bench.chaos.Operation} with its invocation, completion and outcome
 *       (ok, failed, indeterminate), each {@link io.listwatch.bench.chaos.WatchSegment}, each
 *       {@link io.listwatch.bench.chaos.Fault}.
 *   <li>{@link io.listwatch.bench.chaos.HistoryChecker} checks the history; each property is a
 *       {@link io.listwatch.bench.chaos.Check} with its counterexamples.
 *   <li>{@link io.listwatch.bench.chaos.ChaosCommand} is the command line.
 * </ul>
 */
package io.listwatch.bench.chaos;
