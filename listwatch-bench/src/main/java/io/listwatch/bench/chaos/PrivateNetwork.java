package io.listwatch.bench.chaos;

import io.listwatch.bench.ShutdownCleanup;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A network of this machine only, for partitions: one network namespace per member, each
 * joined by a veth pair to a bridge in the host's namespace, on a private /24 (10.77.N.0, N
 * from this JVM's pid, so that two runs do not meet). The host reaches every member at
 * {@link #address}; {@link #isolate} takes a member's link to the bridge down, which cuts it off
 * from the host and from every other member until {@link #rejoin}. Needs root ({@code ip netns},
 * {@code ip link}); {@link #close} (also run at JVM exit) removes every namespace, link and the
 * bridge.
 *
 * <p>{@code tc netem} would add delay and loss on these links, but this machine's kernel has no
 * {@code sch_netem}: partitions are all it does.
 *
 * <p>Thread-safe: each change is one {@code ip} command.
 */
final class PrivateNetwork implements AutoCloseable {

  private final String prefix;
  private final int subnet;
  private final int members;
  private final ShutdownCleanup cleanup;

  private PrivateNetwork(String prefix, int subnet, int members) {
    this.prefix = prefix;
    this.subnet = subnet;
    this.members = members;
    this.cleanup = new ShutdownCleanup("chaos-network-cleanup", this::remove);
  }

  /**
   * Makes the bridge and {@code members} namespaces with their links.
   *
   * @throws IOException when an {@code ip} command fails (not root, no network namespaces)
   */
  static PrivateNetwork create(int members) throws IOException, InterruptedException {
    long pid = ProcessHandle.current().pid();
    PrivateNetwork n = new PrivateNetwork("lwc" + (pid % 100_000), 20 + (int) (pid % 200), members);
    try {
      ip("link", "add", n.bridge(), "type", "bridge");
      ip("addr", "add", "10.77." + n.subnet + ".254/24", "dev", n.bridge());
      ip("link", "set", n.bridge(), "up");
      for (int i = 0; i < members; i++) {
        ip("netns", "add", n.namespace(i));
        ip("link", "add", n.hostEnd(i), "type", "veth", "peer", "name", n.prefix + "p" + i);
        ip("link", "set", n.prefix + "p" + i, "netns", n.namespace(i));
        ip("link", "set", n.hostEnd(i), "master", n.bridge());
        ip("link", "set", n.hostEnd(i), "up");
        ip("-n", n.namespace(i), "addr", "add", n.address(i) + "/24", "dev", n.prefix + "p" + i);
        ip("-n", n.namespace(i), "link", "set", n.prefix + "p" + i, "up");
        ip("-n", n.namespace(i), "link", "set", "lo", "up");
      }
      return n;
    } catch (IOException | InterruptedException | RuntimeException e) {
      n.close();
      throw e;
    }
  }

  /** Member {@code i}'s network namespace, for {@code ip netns exec}. */
  String namespace(int i) {
    return prefix + "-" + i;
  }

  /** Member {@code i}'s address, reachable from the host and the other members. */
  String address(int i) {
    return "10.77." + subnet + "." + (i + 1);
  }

  /** Cuts member {@code i} off the bridge: neither the host nor another member reaches it. */
  void isolate(int i) throws IOException, InterruptedException {
    ip("link", "set", hostEnd(i), "down");
  }

  /** Joins member {@code i} to the bridge again. */
  void rejoin(int i) throws IOException, InterruptedException {
    ip("link", "set", hostEnd(i), "up");
  }

  private String bridge() {
    return prefix + "br";
  }

  private String hostEnd(int i) {
    return prefix + "v" + i;
  }

  @Override
  public void close() {
    cleanup.close();
  }

  private void remove() {
    for (int i = 0; i < members; i++) {
      quietly("netns", "del", namespace(i)); // takes the namespace's end of the veth, and so the pair
      quietly("link", "del", hostEnd(i));
    }
    quietly("link", "del", bridge());
  }

  private static void quietly(String... args) {
    try {
      ip(args);
    } catch (IOException e) {
      // already gone
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void ip(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("ip"));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    if (!p.waitFor(10, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException(String.join(" ", command) + " did not return");
    }
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (p.exitValue() != 0) {
      throw new IOException(String.join(" ", command) + " failed: " + output);
    }
  }
}
