package io.listwatch.bench;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code --markdown} option every benchmark has, as a picocli mixin ({@code @Mixin}), and
 * the printing of the benchmark's {@link Report} it chooses: aligned text on standard output, or
 * Markdown for docs/benchmarks.md.
 *
 * <p>Confined to the thread that runs the benchmark.
 */
public final class ReportOutput {

  @Option(names = "--markdown", description = "Print the results as Markdown, for docs/benchmarks.md.")
  private boolean markdown;

  /** The benchmark's command, whose name and arguments head the report. */
  @Spec(Spec.Target.MIXEE)
  private CommandSpec command;

  /** Prints {@code report}, measured on {@code machine}, to standard output. */
  public void print(Report report, MachineInfo machine) {
    report.print(System.out, command, machine, markdown);
  }
}
