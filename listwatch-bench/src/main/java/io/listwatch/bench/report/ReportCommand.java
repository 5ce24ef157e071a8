package io.listwatch.bench.report;

import io.listwatch.bench.BenchmarkCommand;
import io.listwatch.bench.Format;
import io.listwatch.bench.MachineInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench report [--quick]}: runs every suite of the {@link SuitePlan} in this process, one
 * after the other, each through picocli exactly as {@code ./listwatch bench <suite> <args>}
 * would, then writes docs/report.md and its plots from what they measured
 * ({@link MarkdownReport}). A suite that fails is reported as failed and the others still run;
 * the command then exits 1. Confined to the thread that runs the command.
 */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Runs every benchmark suite and writes docs/report.md and its plots (docs/report/*.png) "
        + "from that run's results.")
public final class ReportCommand implements Callable<Integer> {

  @Option(names = "--quick", description = "Shorter runs at smaller sizes, each point once (under 10 minutes on "
      + "2 cores); the figures have no spread.")
  private boolean quick;

  @Option(names = "--out", paramLabel = "DIR", description = "Where report.md and report/*.png go "
      + "(default: ${DEFAULT-VALUE}).")
  private Path out = Path.of("docs");

  @Option(names = "--suites", split = ",", paramLabel = "NAME",
      description = "Only these suites of the plan, by name (default: all).")
  private List<String> suites = new ArrayList<>();

  @Option(names = "--dry-run", description = "Print the plan (each suite's exact command) and run nothing.")
  private boolean dryRun;

  @Spec
  private CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    System.setProperty("java.awt.headless", "true");
    List<Suite> plan;
    try {
      plan = SuitePlan.select(suites);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    List<String> given = spec.commandLine().getParseResult().originalArgs();
    String command = String.join(" ", "./listwatch", "bench", "report",
        String.join(" ", given.subList(given.indexOf(spec.name()) + 1, given.size()))).strip();
    System.out.printf("%s: %d suites, then %s and %s/*.png%n", command, plan.size(), out.resolve("report.md"),
        out.resolve(MarkdownReport.PLOT_DIR));
    plan.forEach(s -> System.out.println("  " + s.command(quick)));
    if (dryRun) {
      return 0;
    }
    Path scratch = Files.createTempDirectory("listwatch-bench-report-");
    MachineInfo machine;
    try {
      machine = MachineInfo.describe(scratch);
    } finally {
      Format.deleteRecursively(scratch);
    }
    Provenance provenance = Provenance.now(command, quick, machine);
    List<SuiteRun> runs = new ArrayList<>();
    for (Suite suite : plan) {
      runs.add(run(suite));
    }
    Path file = new MarkdownReport(provenance, runs).write(out);
    long failed = runs.stream().filter(r -> r.exitCode() != 0).count();
    System.out.printf("%nwrote %s from commit %s%s%n", file, provenance.commit(),
        failed == 0 ? "" : "; " + failed + " suite(s) FAILED");
    return failed == 0 ? 0 : 1;
  }

  /** Runs {@code suite} in this process, as its own command would; its output goes to ours. */
  private SuiteRun run(Suite suite) {
    List<String> args = suite.args(quick);
    System.out.printf("%n==== %s%n", suite.command(quick));
    System.out.flush();
    long start = System.nanoTime();
    CommandLine cl = new CommandLine(suite.type());
    int code = cl.execute(args.toArray(String[]::new));
    double seconds = (System.nanoTime() - start) / 1e9;
    Optional<io.listwatch.bench.Report> report = cl.getCommand() instanceof BenchmarkCommand b
        ? Optional.of(b.report()) : Optional.empty();
    return new SuiteRun(suite, args, code, seconds, report);
  }
}
