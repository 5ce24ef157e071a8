package io.listwatch.demo;

import io.listwatch.controllers.manager.ControllerSet;
import io.listwatch.nodeagent.NodeAgent;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./listwatch demo}: starts a {@link Demo}, prints the kubectl commands to try and the
 * live page's URL, and runs until Ctrl-C or SIGTERM.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Starts the API server, the controllers and simulated nodes in one process, "
        + "writes a kubeconfig, and serves a live page of the nodes and their pods.")
public final class DemoCommand implements Callable<Integer> {

  @Option(names = "--nodes", defaultValue = "3", description = "How many simulated nodes (default: ${DEFAULT-VALUE}).")
  int nodes;

  @Option(names = "--port", defaultValue = "8080",
      description = "The port on 127.0.0.1, plain HTTP (default: ${DEFAULT-VALUE}; 0 picks a free one).")
  int port;

  @Option(names = "--data-dir", description = "Where the store keeps its data (default: a temporary directory, deleted at exit).")
  Path dataDir;

  @Option(names = "--kubeconfig", defaultValue = "demo-kubeconfig.yaml",
      description = "Where to write the kubeconfig for kubectl (default: ${DEFAULT-VALUE}).")
  Path kubeconfig;

  @Spec
  CommandSpec spec;

  /**
   * The demo's node agents: each registers its Node, "runs" the pods bound to it and the static
   * pods of its manifest directory, with the kubelet's timings.
   */
  static final NodeAgentLauncher NODE_AGENTS = nodeAgents(UnaryOperator.identity());

  /**
   * Node agents as the demo's, with {@code options} applied to each agent's builder last (tests
   * shorten timings with it).
   */
  static NodeAgentLauncher nodeAgents(UnaryOperator<NodeAgent.Builder> options) {
    return (client, nodeName, podCidr, manifestDir) -> {
      NodeAgent agent = options.apply(NodeAgent.builder(client, nodeName).podCidr(podCidr).manifestDir(manifestDir))
          .build();
      agent.start();
      return agent;
    };
  }

  private final CompletableFuture<Demo> started;
  private final CompletableFuture<Void> stop;
  private final PrintStream out;

  public DemoCommand() {
    this(new CompletableFuture<>(), new CompletableFuture<>(), System.out);
  }

  /** For tests: hands the running demo to {@code started} and stops when {@code stop} completes. */
  DemoCommand(CompletableFuture<Demo> started, CompletableFuture<Void> stop, PrintStream out) {
    this.started = started;
    this.stop = stop;
    this.out = out;
  }

  @Override
  public Integer call() {
    Demo demo;
    try {
      demo = Demo.start(port, dataDir, kubeconfig, nodes, ControllerSet.defaults(), NODE_AGENTS);
    } catch (RuntimeException e) {
      spec.commandLine().getErr().println("listwatch demo: cannot start: " + e.getMessage());
      started.completeExceptionally(e);
      return 1;
    }
    Thread hook = Thread.ofPlatform().name("listwatch-demo-shutdown").unstarted(() -> stop.complete(null));
    Runtime.getRuntime().addShutdownHook(hook);
    try (demo) {
      String kc = demo.kubeconfig().toAbsolutePath().toString();
      out.println("listwatch demo: API server on " + demo.url() + " (plain HTTP; every request acts as the admin)");
      out.println("  controllers: " + (demo.controllerNames().isEmpty() ? "none" : String.join(", ", demo.controllerNames())));
      out.println("  nodes: " + demo.nodeCount());
      out.println();
      out.println("Watch it live: " + demo.pageUrl());
      out.println();
      out.println("Try:");
      out.println("  export KUBECONFIG=" + kc);
      out.println("  kubectl get nodes");
      out.println("  kubectl create deployment web --image=nginx --replicas=3");
      out.println("  kubectl get pods -o wide -w");
      out.println("  kubectl scale deployment web --replicas=10");
      out.println("  kubectl set image deployment/web nginx=nginx:1.27 && kubectl rollout status deployment/web");
      out.println("  kubectl rollout undo deployment/web");
      out.println("  kubectl delete deployment web");
      out.println("  kubectl run crash --image=busybox --annotations=listwatch.io/simulate=fail   # CrashLoopBackOff");
      if (demo.nodeCount() > 0) {
        out.println();
        out.println("Static pods: a pod manifest dropped in a node's manifest directory runs on that node,");
        out.println("with a mirror pod <name>-<node> in the API server; removing the file removes it:");
        for (int i = 1; i <= demo.nodeCount(); i++) {
          out.println("  node-" + i + ": " + demo.manifestDir("node-" + i));
        }
        out.println("  kubectl run static-web --image=nginx --dry-run=client -o yaml > "
            + demo.manifestDir("node-1").resolve("static-web.yaml"));
      }
      out.println();
      out.println("Ctrl-C stops everything.");
      out.flush();
      started.complete(demo);
      stop.join();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running
      }
    }
    return 0;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new DemoCommand()).execute(args));
  }
}
