package io.listwatch.bench.chaos;

import io.listwatch.bench.ShutdownCleanup;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A network of this machine only, for partitions: one network namespace per member, each
 * joined by a veth pair to a bridge in the host's namespace, on a private /24 (10.77.N.0, N
 * from this JVM's pid, so that two runs do not meet). The host reaches every member at
 * {@link #address}. Three faults, each until {@link #heal}:
 * <ul>
 *   <li>{@link #isolate}: the member's link to the bridge down, which cuts it off from the host
 *       and from every other member;
 *   <li>{@link #splitFromPeers}: blackhole routes between the member and every other member, in
 *       both directions: a minority of one that the host (the API servers) still reaches, and a
 *       majority of the others;
 *   <li>{@link #degrade}: both ends of the member's link shaped by a token bucket ({@code tc tbf})
 *       to {@value #LOSSY_RATE} with a queue of {@value #LOSSY_QUEUE}: the kernel delays what
 *       waits in the queue and drops the packets that find it full, so TCP sees real loss and
 *       retransmits. {@code tc netem}'s random loss would be closer to a flaky network, but this
 *       machine's kernel has no {@code sch_netem} (nor a classifier to drop at random), and
 *       {@code tbf} is what it has.
 * </ul>
 * Needs root ({@code ip netns}, {@code ip link}, {@code tc}); {@link #close} (also run at JVM
 * exit) removes every namespace, link and the bridge.
 *
 * <p>Thread-safe: each change is a few {@code ip} or {@code tc} commands, and the nemesis makes
 * one change at a time.
 */
final class PrivateNetwork implements AutoCloseable {

  static final String LOSSY_RATE = "256kbit";
  static final String LOSSY_QUEUE = "4kb";
  private static final String IP = "ip";
  private static final String TC = "tc";
  private static final Pattern DROPPED = Pattern.compile("dropped (\\d+)");

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
        ip("link", "add", n.hostEnd(i), "type", "veth", "peer", "name", n.memberEnd(i));
        ip("link", "set", n.memberEnd(i), "netns", n.namespace(i));
        ip("link", "set", n.hostEnd(i), "master", n.bridge());
        ip("link", "set", n.hostEnd(i), "up");
        ip("-n", n.namespace(i), "addr", "add", n.address(i) + "/24", "dev", n.memberEnd(i));
        ip("-n", n.namespace(i), "link", "set", n.memberEnd(i), "up");
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

  /**
   * Cuts member {@code i} off the other members, both ways, while the host still reaches it: its
   * peers' packets to it, and its own to them, go to blackhole routes.
   */
  void splitFromPeers(int i) throws IOException, InterruptedException {
    for (int j = 0; j < members; j++) {
      if (j != i) {
        ip("-n", namespace(i), "route", "replace", "blackhole", address(j) + "/32");
        ip("-n", namespace(j), "route", "replace", "blackhole", address(i) + "/32");
      }
    }
  }

  /** Shapes member {@code i}'s link both ways to {@value #LOSSY_RATE}, tail-dropping beyond a {@value #LOSSY_QUEUE} queue. */
  void degrade(int i) throws IOException, InterruptedException {
    tc("qdisc", "replace", "dev", hostEnd(i), "root", "tbf", "rate", LOSSY_RATE, "burst", "4kb", "limit", LOSSY_QUEUE);
    tc("-n", namespace(i), "qdisc", "replace", "dev", memberEnd(i), "root", "tbf", "rate", LOSSY_RATE, "burst", "4kb",
        "limit", LOSSY_QUEUE);
  }

  /**
   * Ends every fault of member {@code i} (its link up, no blackhole route, no shaping) and returns
   * the packets its link's shaping dropped since {@link #degrade} (0 if it was not degraded).
   */
  long heal(int i) throws IOException, InterruptedException {
    long dropped = dropped(List.of("-n", namespace(i)), memberEnd(i)) + dropped(List.of(), hostEnd(i));
    quietly(TC, "qdisc", "del", "dev", hostEnd(i), "root");
    quietly(TC, "-n", namespace(i), "qdisc", "del", "dev", memberEnd(i), "root");
    for (int j = 0; j < members; j++) {
      if (j != i) {
        quietly(IP, "-n", namespace(i), "route", "del", "blackhole", address(j) + "/32");
        quietly(IP, "-n", namespace(j), "route", "del", "blackhole", address(i) + "/32");
      }
    }
    ip("link", "set", hostEnd(i), "up");
    return dropped;
  }

  /**
   * The packets dropped by the root qdisc of {@code device} ({@code tc -s}: "dropped N"), 0 when
   * none is shown; {@code namespace} holds {@code tc}'s options that name the device's namespace.
   */
  private static long dropped(List<String> namespace, String device) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(namespace);
    args.addAll(List.of("-s", "qdisc", "show", "dev", device, "root"));
    Matcher m = DROPPED.matcher(run(TC, args.toArray(String[]::new)));
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }

  private String bridge() {
    return prefix + "br";
  }

  private String hostEnd(int i) {
    return prefix + "v" + i;
  }

  private String memberEnd(int i) {
    return prefix + "p" + i;
  }

  @Override
  public void close() {
    cleanup.close();
  }

  private void remove() {
    for (int i = 0; i < members; i++) {
      quietly(IP, "netns", "del", namespace(i)); // takes the namespace's end of the veth, and so the pair
      quietly(IP, "link", "del", hostEnd(i));
    }
    quietly(IP, "link", "del", bridge());
  }

  private static void quietly(String command, String... args) {
    try {
      run(command, args);
    } catch (IOException e) {
      // already gone
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void ip(String... args) throws IOException, InterruptedException {
    run(IP, args);
  }

  private static void tc(String... args) throws IOException, InterruptedException {
    run(TC, args);
  }

  /** Runs {@code ip} or {@code tc} with {@code args}; its output. */
  private static String run(String program, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(program));
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
    return output;
  }
}
