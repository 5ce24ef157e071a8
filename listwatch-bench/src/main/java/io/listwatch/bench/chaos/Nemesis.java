package io.listwatch.bench.chaos;

import java.io.IOException;
import java.util.List;
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
 *   <li>{@code partition} (a node in a network namespace): its link down, then up;
 *   <li>on a link from the servers to an etcd member ({@link DelayProxy}), one time in four:
 *       {@code delay} (100 to 800 ms each way) or {@code drop} (every connection reset, then a
 *       100 ms delay while the fault lasts).
 * </ul>
 * {@link #stop} ends the schedule; the fault in hand is healed before {@link #run} returns.
 *
 * <p>Confined to its own thread ({@code chaos-nemesis}); {@link #stop} from any thread.
 */
final class Nemesis implements Runnable {

  private final List<Node> nodes;
  private final List<DelayProxy> links;
  private final History history;
  private final Random random;
  private final long intervalMillis;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile Exception failure;

  Nemesis(List<Node> nodes, List<DelayProxy> links, History history, long intervalMillis, long seed) {
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
        if (!links.isEmpty() && random.nextInt(4) == 0) {
          faultLink();
          continue;
        }
        Node node = nodes.get(random.nextInt(nodes.size()));
        List<String> kinds = node.partitionable() ? List.of("kill", "pause", "partition") : List.of("kill", "pause");
        String kind = kinds.get(random.nextInt(kinds.size()));
        long start = history.now();
        switch (kind) {
          case "kill" -> node.kill();
          case "pause" -> node.signal("STOP");
          default -> node.isolate();
        }
        pause(1_000 + random.nextLong(3_000));
        switch (kind) {
          case "kill" -> node.start();
          case "pause" -> node.signal("CONT");
          default -> node.rejoin();
        }
        history.add(new Fault(kind, node.name(), start, history.now()));
      }
    } catch (IOException | RuntimeException e) {
      failure = e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Delays or drops the connections of one link for 1 to 4 s. */
  private void faultLink() throws InterruptedException {
    int i = random.nextInt(links.size());
    DelayProxy link = links.get(i);
    boolean drop = random.nextBoolean();
    long start = history.now();
    long delay = drop ? 100 : 100 + random.nextLong(700);
    link.delay(delay);
    if (drop) {
      link.dropConnections();
    }
    pause(1_000 + random.nextLong(3_000));
    link.delay(0);
    history.add(new Fault(drop ? "drop" : "delay", "link to etcd-" + i, start, history.now()));
  }

  /** Waits {@code millis} (the schedule's gap) or until stopped; true if stopped. */
  private boolean pause(long millis) throws InterruptedException {
    return stopped.await(millis, TimeUnit.MILLISECONDS);
  }
}
