package io.listwatch.bench.demo;

import io.listwatch.client.Config;
import io.listwatch.client.KubeClient;
import io.listwatch.nodeagent.NodeAgent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The child JVM of {@code bench demo-scale} that runs the simulated nodes:
 * {@code NodeFleet KUBECONFIG NODES MAX_PODS CONTAINER_START_MILLIS}. Starts {@code NODES}
 * {@link NodeAgent}s named {@code node-1} ... {@code node-N} (pod CIDRs {@code 10.<i/250>.<i%250>.0/24}),
 * each with its own {@link KubeClient}, as separate kubelets each have their own connection;
 * prints {@value #READY} and the count once every agent has started, then runs until SIGTERM,
 * when it stops every agent and client.
 *
 * <p>The agents share one JVM (a hundred JVMs do not fit on a small machine), so the figure
 * this process gives is the CPU and heap of {@code NODES} kubelets' list-watch side together.
 */
public final class NodeFleet {

  static final String READY = "node-fleet ready";

  private NodeFleet() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: NodeFleet KUBECONFIG NODES MAX_PODS CONTAINER_START_MILLIS");
      System.exit(2);
    }
    Config config = Config.fromKubeconfig(Path.of(args[0]), null);
    int nodes = Integer.parseInt(args[1]);
    int maxPods = Integer.parseInt(args[2]);
    Duration startDelay = Duration.ofMillis(Long.parseLong(args[3]));
    List<AutoCloseable> open = new ArrayList<>();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
      for (int i = open.size() - 1; i >= 0; i--) {
        try {
          open.get(i).close();
        } catch (Exception e) {
          System.err.println("node fleet: stopping " + open.get(i) + " failed: " + e);
        }
      }
      stopped.countDown();
    }));
    synchronized (open) {
      for (int i = 1; i <= nodes; i++) {
        KubeClient client = KubeClient.create(config);
        open.add(client);
        NodeAgent agent = NodeAgent.builder(client, "node-" + i)
            .podCidr("10." + (i / 250) + "." + (i % 250) + ".0/24")
            .capacity("32", "128Gi", maxPods)
            .containerStartDelay(startDelay)
            .build();
        open.add(agent);
        agent.start();
      }
    }
    System.out.println(READY + " " + nodes);
    System.out.flush();
    stopped.await();
  }
}
