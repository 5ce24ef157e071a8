package io.listwatch.bench.chaos;

import io.listwatch.storage.etcd.testing.LocalProcesses;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An etcd member in its own network namespace of a {@link PrivateNetwork} ({@code ip netns exec
 * NS etcd ...}, which becomes the etcd process), serving clients on port 2379 and peers on 2380
 * of its namespace's address. A {@link Node} whose network can also be faulted
 * ({@link NetworkFault}): cut off from the servers and the other members, from the other members
 * only, or on a slow link that drops packets.
 *
 * <p>Thread-safe.
 */
final class NamespacedEtcdMember implements Node {

  private static final long START_SECONDS = 30;

  private final String name;
  private final PrivateNetwork network;
  private final int index;
  private final Path dir;
  private final String initialCluster;
  private Process process;

  NamespacedEtcdMember(PrivateNetwork network, int index, Path dir, String initialCluster) throws IOException {
    this.name = "etcd-" + index;
    this.network = network;
    this.index = index;
    this.dir = Files.createDirectories(dir);
    this.initialCluster = initialCluster;
  }

  /** The etcd name=peer URL of member {@code i} of {@code network}, for --initial-cluster. */
  static String peer(PrivateNetwork network, int i) {
    return "etcd-" + i + "=http://" + network.address(i) + ":2380";
  }

  /** The client URL, from the host. */
  String endpoint() {
    return "http://" + network.address(index) + ":2379";
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public synchronized long pid() {
    return process == null ? -1 : process.pid();
  }

  /** Starts the process without waiting (a new cluster's members wait for each other). */
  synchronized void launch() throws IOException {
    if (process != null) {
      return;
    }
    String etcd = LocalProcesses.binary("etcd", "Debian: apt-get install etcd-server");
    String peerUrl = "http://" + network.address(index) + ":2380";
    process = new ProcessBuilder(List.of("ip", "netns", "exec", network.namespace(index), etcd,
        "--name", name, "--data-dir", dir.resolve("data").toString(),
        "--listen-client-urls", endpoint(), "--advertise-client-urls", endpoint(),
        "--listen-peer-urls", peerUrl, "--initial-advertise-peer-urls", peerUrl,
        "--initial-cluster", initialCluster, "--log-level", "warn"))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("etcd.log").toFile()))
        .start();
  }

  /** Waits until the client port accepts connections from the host. */
  void awaitListening() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
    while (!accepts()) {
      Process p;
      synchronized (this) {
        p = process;
      }
      if (p == null || !p.isAlive()) {
        throw new IllegalStateException(name + " exited; see " + dir.resolve("etcd.log"));
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(name + " did not listen on " + endpoint() + " within " + START_SECONDS + " s");
      }
      Thread.sleep(50); // polling a port that is about to open; bounded by the deadline
    }
  }

  private boolean accepts() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(network.address(index), 2379), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void kill() throws InterruptedException {
    Process p;
    synchronized (this) {
      p = process;
      process = null;
    }
    if (p != null) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Override
  public void start() throws IOException, InterruptedException {
    launch();
    awaitListening();
  }

  @Override
  public boolean partitionable() {
    return true;
  }

  @Override
  public void injectNetworkFault(NetworkFault fault) throws IOException, InterruptedException {
    switch (fault) {
      case PARTITION -> network.isolate(index);
      case SPLIT -> network.splitFromPeers(index);
      case LOSSY -> network.degrade(index);
    }
  }

  @Override
  public String healNetwork() throws IOException, InterruptedException {
    long dropped = network.heal(index);
    return dropped > 0 ? dropped + " packets dropped" : "";
  }

  @Override
  public void close() throws InterruptedException {
    Process p;
    synchronized (this) {
      try {
        signal("CONT");
      } catch (IOException e) {
        // it is gone
      }
      p = process;
      process = null;
    }
    if (p != null) {
      p.destroy();
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
