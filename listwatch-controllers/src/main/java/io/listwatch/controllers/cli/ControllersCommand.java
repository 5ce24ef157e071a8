package io.listwatch.controllers.cli;

import io.listwatch.api.clock.Clock;
import io.listwatch.api.leaderelection.LeaderElector;
import io.listwatch.client.Config;
import io.listwatch.client.KubeClient;
import io.listwatch.client.leaderelection.LeaseLock;
import io.listwatch.controllers.manager.ControllerManager;
import io.listwatch.controllers.manager.ControllerSet;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./listwatch controllers}: runs the {@link ControllerSet} against a server (ours or any
 * kube-apiserver) until Ctrl-C or SIGTERM; with {@code --leader-elect}, only while this process
 * holds the Lease (kube-controller-manager's flags and defaults). Exit status: 0 when stopped,
 * 1 when leadership was lost, 2 on bad arguments.
 */
@Command(name = "controllers", mixinStandardHelpOptions = true,
    description = "Runs the controllers (deployment, replicaset, scheduler, node lifecycle, ...) "
        + "against a server, optionally only while leading through a coordination.k8s.io Lease.")
public final class ControllersCommand implements Callable<Integer> {

  @Option(names = "--kubeconfig", description = "A kubeconfig file (its current context, or --context); "
      + "default: $KUBECONFIG or ~/.kube/config.")
  Path kubeconfig;

  @Option(names = "--context", description = "The kubeconfig context to use.")
  String context;

  @Option(names = "--leader-elect", description = "Run the controllers only while holding the Lease.")
  boolean leaderElect;

  @Option(names = "--leader-elect-resource-namespace", defaultValue = "kube-system",
      description = "The Lease's namespace (default: ${DEFAULT-VALUE}).")
  String leaseNamespace;

  @Option(names = "--leader-elect-resource-name", defaultValue = "listwatch-controllers",
      description = "The Lease's name (default: ${DEFAULT-VALUE}).")
  String leaseName;

  @Option(names = "--leader-elect-identity", description = "This candidate's identity (default: host name + random suffix).")
  String identity;

  @Option(names = "--leader-elect-lease-duration", defaultValue = "15", description = "Seconds (default: ${DEFAULT-VALUE}).")
  long leaseSeconds;

  @Option(names = "--leader-elect-renew-deadline", defaultValue = "10", description = "Seconds (default: ${DEFAULT-VALUE}).")
  long renewSeconds;

  @Option(names = "--leader-elect-retry-period", defaultValue = "2", description = "Seconds (default: ${DEFAULT-VALUE}).")
  long retrySeconds;

  @Spec
  CommandSpec spec;

  private final List<ControllerSet.Entry> entries;
  private final CompletableFuture<Void> stop;
  private final PrintStream out;

  public ControllersCommand() {
    this(ControllerSet.defaults(), new CompletableFuture<>(), System.out);
  }

  /** For tests: runs {@code entries} until {@code stop} completes. */
  ControllersCommand(List<ControllerSet.Entry> entries, CompletableFuture<Void> stop, PrintStream out) {
    this.entries = entries;
    this.stop = stop;
    this.out = out;
  }

  @Override
  public Integer call() throws Exception {
    Config config;
    try {
      config = kubeconfig != null ? Config.fromKubeconfig(kubeconfig, context) : Config.load();
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("listwatch controllers: " + e.getMessage());
      return 2;
    }
    Thread hook = Thread.ofPlatform().unstarted(() -> stop.complete(null));
    Runtime.getRuntime().addShutdownHook(hook);
    try (KubeClient client = KubeClient.create(config)) {
      if (!leaderElect) {
        try (ControllerManager manager = new ControllerManager(client, entries, ControllerSet.eventRecorder(client),
            Clock.system()).start()) {
          out.println("running controllers: " + manager.controllerNames());
          stop.join();
        }
        return 0;
      }
      String id = identity != null ? identity : LeaderElector.defaultIdentity();
      LeaseLock lock = new LeaseLock(client, leaseNamespace, leaseName, id);
      try (LeaderElectedControllers controllers = new LeaderElectedControllers(client, entries,
          ControllerSet.eventRecorder(client), Clock.system(), lock, b -> b
              .leaseDuration(Duration.ofSeconds(leaseSeconds))
              .renewDeadline(Duration.ofSeconds(renewSeconds))
              .retryPeriod(Duration.ofSeconds(retrySeconds))).start()) {
        out.println("campaigning for lease " + lock.describe() + " as " + id);
        CompletableFuture.anyOf(stop, controllers.lost()).join();
        if (controllers.lost().isDone()) {
          spec.commandLine().getErr().println("listwatch controllers: leader election lost");
          return 1;
        }
      }
      return 0;
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("listwatch controllers: " + e.getMessage());
      return 2;
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running
      }
    }
  }


  public static void main(String[] args) {
    System.exit(new CommandLine(new ControllersCommand()).execute(args));
  }
}
