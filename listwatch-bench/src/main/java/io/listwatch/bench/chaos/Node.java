package io.listwatch.bench.chaos;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * A process the {@link Nemesis} may fault: an API server or an etcd member. It can be killed
 * (SIGKILL, as a crash), paused (SIGSTOP: it holds its sockets but answers nothing) and resumed
 * (SIGCONT), and started again on its own data and ports; a member in a network namespace can
 * also have its network faulted ({@link NetworkFault}).
 *
 * <p>Implementations are thread-safe: the nemesis faults a node while the run's end may close it.
 */
interface Node {

  /** e.g. {@code server-0}, {@code etcd-2}. */
  String name();

  /** The running process's id; -1 while it is not running. */
  long pid();

  /** SIGKILL, and waits until the process is gone. */
  void kill() throws InterruptedException;

  /** Starts it again (after {@link #kill}) on the same data and ports, and waits until it serves. */
  void start() throws IOException, InterruptedException;

  /** Stops it for good. */
  void close() throws InterruptedException;

  /** Whether its network can be faulted ({@link #injectNetworkFault}); only members in a {@link PrivateNetwork} can. */
  default boolean partitionable() {
    return false;
  }

  /** Starts {@code fault} on its network, until {@link #healNetwork}. */
  default void injectNetworkFault(NetworkFault fault) throws IOException, InterruptedException {
    throw new UnsupportedOperationException(name() + " cannot be partitioned");
  }

  /**
   * Ends whatever network fault it has (none: nothing to do); what the fault did that the history
   * should say, e.g. {@code "37 packets dropped"}, or "".
   */
  default String healNetwork() throws IOException, InterruptedException {
    return "";
  }

  /** Sends {@code signal} (e.g. {@code STOP}, {@code CONT}) to the node's process, if it runs. */
  default void signal(String signal) throws IOException, InterruptedException {
    long pid = pid();
    if (pid <= 0) {
      return;
    }
    Process p = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    if (!p.waitFor(10, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("kill -" + signal + " " + pid + " did not return");
    }
  }
}
