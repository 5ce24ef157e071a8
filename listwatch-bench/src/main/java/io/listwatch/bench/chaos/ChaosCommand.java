package io.listwatch.bench.chaos;

import io.listwatch.bench.DataDirectory;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./listwatch chaos}: clients and watchers against real servers while a nemesis kills,
 * pauses and partitions them, then the recorded history checked ({@link ChaosRun}). Prints the operations by
 * type and outcome, the faults injected and each check with its first counterexample; exits 1
 * when a check failed.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true,
    description = "Faults with checked histories: creates, guarded updates, deletes, lists and watches while "
        + "servers and etcd members are killed (SIGKILL) and paused (SIGSTOP), members are partitioned, split from "
        + "their peers or put on a lossy link, and servers' links to etcd are delayed, dropped or cut; then checks "
        + "that no acknowledged "
        + "write was lost, guarded updates are linearizable per key, watchers see every change once and in order "
        + "(or 410), resourceVersions never go back and timed-out writes are whole or absent.")
public final class ChaosCommand implements Callable<Integer> {

  @Spec
  private CommandSpec spec;

  @Option(names = "--minutes", description = "How long the faults go on (default: ${DEFAULT-VALUE}).")
  private double minutes = 1;

  @Option(names = "--topology", description = "etcd: two servers on a three-member etcd; embedded: one server on "
      + "its embedded store; all: both, one after the other (default: ${DEFAULT-VALUE}).")
  private String topology = "all";

  @Option(names = "--data-dir", description = "Where the servers' and etcd's data and logs go, kept afterwards "
      + "(default: a temporary directory, removed afterwards).")
  private java.nio.file.Path dir;

  @Option(names = "--history-dir", description = "Where each run's history goes, as chaos-TOPOLOGY.history.jsonl "
      + "(default: ${DEFAULT-VALUE}).")
  private java.nio.file.Path historyDir = java.nio.file.Path.of(".");

  @Option(names = "--seed", description = "Seed of the clients' and the nemesis's choices (default: the time).")
  private long seed = System.nanoTime();

  @Override
  public Integer call() throws Exception {
    java.util.List<Topology.Kind> kinds = switch (topology) {
      case "etcd" -> java.util.List.of(Topology.Kind.ETCD);
      case "embedded" -> java.util.List.of(Topology.Kind.EMBEDDED);
      case "all" -> java.util.List.of(Topology.Kind.EMBEDDED, Topology.Kind.ETCD);
      default -> throw new CommandLine.ParameterException(spec.commandLine(),
          "--topology must be etcd, embedded or all, not " + topology);
    };
    boolean passed = true;
    try (DataDirectory data = DataDirectory.open(dir, "listwatch-chaos", spec)) {
      for (Topology.Kind kind : kinds) {
        String name = kind.name().toLowerCase(java.util.Locale.ROOT);
        java.nio.file.Path history = java.nio.file.Files.createDirectories(historyDir)
            .resolve("chaos-" + name + ".history.jsonl");
        ChaosRun.Result r = ChaosRun.run(kind, Duration.ofMillis((long) (minutes * 60_000)),
            data.path().resolve(name), history, seed, System.err);
        System.out.print(r.summary());
        System.out.println("history: " + history + " (seed " + seed + ")");
        passed &= r.passed();
      }
    }
    return passed ? 0 : 1;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new ChaosCommand()).execute(args));
  }
}
