package io.listwatch.controllers.cli;

import io.listwatch.client.Config;
import io.listwatch.client.KubeClient;
import io.listwatch.nodeagent.NodeAgent;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./listwatch node-agent}: one kubelet-style {@link NodeAgent} against a server (ours or
 * any kube-apiserver) until Ctrl-C or SIGTERM: it registers its Node, renews its Lease, and
 * "runs" the pods bound to it and the static pods of its manifest directory and URL. Exit
 * status: 0 when stopped, 1 when the agent cannot start, 2 on bad arguments.
 */
@Command(name = "node-agent", mixinStandardHelpOptions = true,
    description = "Runs a simulated node: registers the Node and its Lease, and runs the pods bound to it "
        + "plus static pods from a manifest directory or URL.")
public final class NodeAgentCommand implements Callable<Integer> {

  @Option(names = "--kubeconfig", description = "A kubeconfig file (its current context, or --context); "
      + "default: $KUBECONFIG or ~/.kube/config.")
  Path kubeconfig;

  @Option(names = "--context", description = "The kubeconfig context to use.")
  String context;

  @Option(names = "--node-name", required = true, description = "The Node's name.")
  String nodeName;

  @Option(names = "--manifest-dir", description = "A directory of static pod manifests (YAML or JSON), watched.")
  Path manifestDir;

  @Option(names = "--manifest-url", description = "A URL serving static pod manifests, polled with ETag.")
  URI manifestUrl;

  @Option(names = "--pod-cidr", description = "Where pod IPs come from (default: 10.88.0.0/16).")
  String podCidr;

  @Spec
  CommandSpec spec;

  private final CompletableFuture<Void> stop;
  private final PrintStream out;

  public NodeAgentCommand() {
    this(new CompletableFuture<>(), System.out);
  }

  /** For tests: runs until {@code stop} completes. */
  NodeAgentCommand(CompletableFuture<Void> stop, PrintStream out) {
    this.stop = stop;
    this.out = out;
  }

  @Override
  public Integer call() {
    Config config;
    try {
      config = kubeconfig != null ? Config.fromKubeconfig(kubeconfig, context) : Config.load();
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("listwatch node-agent: " + e.getMessage());
      return 2;
    }
    Thread hook = Thread.ofPlatform().unstarted(() -> stop.complete(null));
    Runtime.getRuntime().addShutdownHook(hook);
    try (KubeClient client = KubeClient.create(config)) {
      NodeAgent.Builder b = NodeAgent.builder(client, nodeName);
      if (manifestDir != null) {
        b.manifestDir(manifestDir);
      }
      if (manifestUrl != null) {
        b.manifestUrl(manifestUrl);
      }
      if (podCidr != null) {
        b.podCidr(podCidr);
      }
      try (NodeAgent agent = b.build()) {
        agent.start();
        out.println("node " + nodeName + " registered; running its pods");
        stop.join();
      }
      return 0;
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("listwatch node-agent: " + e.getMessage());
      return 2;
    } catch (RuntimeException e) {
      spec.commandLine().getErr().println("listwatch node-agent: cannot run node " + nodeName + ": " + e.getMessage());
      return 1;
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running
      }
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new NodeAgentCommand()).execute(args));
  }
}
