package io.listwatch.bench;

import io.listwatch.bench.informer.InformerJmhCommand;
import io.listwatch.bench.informer.InformerSyncBenchmark;
import io.listwatch.bench.server.FanOutBenchmark;
import io.listwatch.bench.server.ListBenchmark;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code bench} command: one subcommand per benchmark. Run through the launcher as
 * {@code ./listwatch bench <subcommand> [options]}; {@code --help} on any subcommand lists its
 * parameters. Each benchmark prints the machine it ran on and its exact parameters with its
 * results.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    version = "listwatch-bench 0.1.0-SNAPSHOT",
    description = "Benchmarks of the listwatch components.",
    subcommands = {StorageBenchmark.class, FanOutBenchmark.class, ListBenchmark.class,
        io.listwatch.bench.server.WriteBenchmark.class, InformerSyncBenchmark.class,
        InformerJmhCommand.class, io.listwatch.bench.server.EncodingJmhCommand.class,
        io.listwatch.bench.demo.DemoScaleBenchmark.class, io.listwatch.bench.report.ReportCommand.class,
        io.listwatch.bench.apf.ApfBenchmark.class,
        CommandLine.HelpCommand.class})
public final class Main implements Runnable {

  @Spec
  private CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing subcommand: one of "
        + spec.subcommands().keySet());
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new Main()).execute(args));
  }
}
