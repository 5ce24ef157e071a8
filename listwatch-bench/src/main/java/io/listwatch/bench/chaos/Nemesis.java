package io.listwatch.bench.chaos;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Injects faults on a schedule, one at a time, as Jepsen's nemesis does: every
 * {@code interval} (±50%) it picks a node of the {@link Topology} and a fault, holds the fault
 * 1 to 4 seconds, heals it, and records it in the {@link History}:
 * <ul>
 *   <li>{@code kill}: SIGKILL, then the node is started again on its data;
 *   <li>{@code pause}: SIGSTOP, then SIGCONT;
 *   <li>on a node in a network namespace (an etcd member), a {@link NetworkFault}:
 *       {@code partition} (cut off from everyone), {@code split} (cut off from the other members
 *       while the servers still reach it) or {@code lossy} (a slow link that drops packets);
 *   <li>on the servers' links to the etcd members ({@link DelayProxy}), one time in four:
 *       {@code delay} (100 to 800 ms each way on one link), {@code drop} (every connection of one
 *       link reset, then a 100 ms delay while the fault lasts) or {@code cut} (one server cut off
 *       from every member: nothing passes either way until it heals).
 * </ul>
 * {@link #stop} ends the schedule; the fault in hand is healed before {@link #run} returns.
 *
 * <p>Confined to its own thread ({@code chaos-nemesis}); {@link #stop} from any thread.
 */
final class Nemesis implements Runnable {

  private final List<Node> nodes;
  private final List<List<DelayProxy>> links;
  private final History history;
  private final Random random;
  private final long intervalMillis;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile Exception failure;

  /** @param links each server's links to the members, by server index (empty lists, or none, without etcd) */
  Nemesis(List<Node> nodes, List<List<DelayProxy>> links, History history, long intervalMillis, long seed) {
    this.nodes = nodes;
    this.links = links;
    this.history = history;
    this.intervalMillis = intervalMillis;
    this.random = new Random(seed);
  }

  void stop() {
    stopped.countDown();
  }

  /** Why a fault could not be healed (a node that did not start again), or null. */
  Exception failure() {
    return failure;
  }

  @Override
  public void run() {
    try {
      while (!pause(intervalMillis / 2 + random.nextLong(intervalMillis))) {
        if (links.stream().anyMatch(l -> !l.isEmpty()) && random.nextInt(4) == 0) {
          faultLinks();
          continue;
        }
        Node node = nodes.get(random.nextInt(nodes.size()));
        List<String> kinds = new ArrayList<>(List.of("kill", "pause"));
        if (node.partitionable()) {
          for (NetworkFault f : NetworkFault.values()) {
            kinds.add(f.label());
          }
        }
        String kind = kinds.get(random.nextInt(kinds.size()));
        long start = history.now();
        switch (kind) {
          case "kill" -> node.kill();
          case "pause" -> node.signal("STOP");
          default -> node.injectNetworkFault(NetworkFault.valueOf(kind.toUpperCase(Locale.ROOT)));
        }
        pause(1_000 + random.nextLong(3_000));
        String effect = "";
        switch (kind) {
          case "kill" -> node.start();
          case "pause" -> node.signal("CONT");
          default -> effect = node.healNetwork();
        }
        history.add(new Fault(kind, node.name(), start, history.now(), effect));
      }
    } catch (IOException | RuntimeException e) {
      failure = e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** For 1 to 4 s: delays or drops the connections of one link, or cuts one server off from every member. */
  private void faultLinks() throws InterruptedException {
    List<List<DelayProxy>> servers = links.stream().filter(l -> !l.isEmpty()).toList();
    int server = random.nextInt(servers.size());
    List<DelayProxy> own = servers.get(server);
    String kind = List.of("delay", "drop", "cut").get(random.nextInt(3));
    long start = history.now();
    if (kind.equals("cut")) {
      own.forEach(DelayProxy::hold);
      pause(1_000 + random.nextLong(3_000));
      own.forEach(DelayProxy::release);
      history.add(new Fault(kind, "server-" + server + " from etcd", start, history.now(), ""));
      return;
    }
    DelayProxy link = own.get(random.nextInt(own.size()));
    boolean drop = kind.equals("drop");
    link.delay(drop ? 100 : 100 + random.nextLong(700));
    if (drop) {
      link.dropConnections();
    }
    pause(1_000 + random.nextLong(3_000));
    link.delay(0);
    history.add(new Fault(kind, "link " + link.name(), start, history.now(), ""));
  }

  /** Waits {@code millis} (the schedule's gap) or until stopped; true if stopped. */
  private boolean pause(long millis) throws InterruptedException {
    return stopped.await(millis, TimeUnit.MILLISECONDS);
  }
}
