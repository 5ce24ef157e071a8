package io.listwatch.bench.report;

import io.listwatch.bench.Report;
import io.listwatch.bench.ResultTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Writes {@code report.md} and its plots ({@code report/*.png}) into a directory from the
 * suites of one run: a header (how it was measured, the commit, the date, the machine, the
 * command), the "Targets" table ({@link Targets}), one section per suite (its exact command,
 * its tables as printed, its verdicts and notes, its plots from {@link Plots}), and every
 * figure of the run. A plot or target whose figures the run did not record is skipped or
 * marked "not measured", never an error. Confined to the thread that writes the report.
 */
final class MarkdownReport {

  /** The directory of the plots, beside report.md, as linked from it. */
  static final String PLOT_DIR = "report";

  private final Provenance provenance;
  private final List<SuiteRun> runs;
  private final Figures figures;

  MarkdownReport(Provenance provenance, List<SuiteRun> runs) {
    this.provenance = provenance;
    this.runs = List.copyOf(runs);
    Map<String, Double> all = new LinkedHashMap<>();
    runs.forEach(r -> r.report().ifPresent(rep -> all.putAll(rep.figures())));
    this.figures = new Figures(all);
  }

  /**
   * Writes {@code out/report.md} and the plots under {@code out/report/}, replacing the PNGs a
   * previous run left there (so no plot outlives its figures); returns report.md's path.
   */
  Path write(Path out) throws IOException {
    Path plots = out.resolve(PLOT_DIR);
    Files.createDirectories(plots);
    try (Stream<Path> old = Files.list(plots)) {
      for (Path p : old.filter(p -> p.getFileName().toString().endsWith(".png")).toList()) {
        Files.delete(p);
      }
    }
    StringBuilder md = new StringBuilder();
    header(md);
    targets(md);
    for (SuiteRun run : runs) {
      section(md, run, plots);
    }
    allFigures(md);
    Path file = out.resolve("report.md");
    Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
    return file;
  }

  private void header(StringBuilder md) {
    double minutes = runs.stream().mapToDouble(SuiteRun::seconds).sum() / 60;
    md.append("# listwatch benchmark report\n\n")
        .append("<!-- Written by `").append(provenance.command())
        .append("`. Do not edit: run the command again. -->\n\n")
        .append("Written by `").append(provenance.command()).append("` from one run: every figure, table and plot ")
        .append("below comes from that run; none is copied by hand. ")
        .append(provenance.quick()
            ? "Quick mode: each point ran once, in shorter windows and at smaller sizes than the full mode, so the "
                + "figures have no spread and are indicative only.\n\n"
            : "Full mode: each suite's defaults, every point run at least three times.\n\n")
        .append("- Commit: `").append(provenance.commit()).append('`')
        .append(provenance.commit().endsWith("-dirty") ? " (the checkout had uncommitted changes)" : "").append('\n')
        .append("- Date: ").append(provenance.date()).append(String.format("; the suites took %.1f minutes%n", minutes))
        .append("- Machine: ").append(provenance.machine()).append("\n\n")
        .append("## How this was measured\n\n")
        .append("- One machine, one run: the suites ran one after the other in one `bench report` process, each as ")
        .append("its own command prints it below; each comparison (transports, clients, stores) ran side by side ")
        .append("in one suite, on the same machine, in the same run.\n")
        .append("- Each suite starts the server it measures; its parameters say where the server ran (its own JVM ")
        .append("unless they say otherwise).\n")
        .append("- Spread: a figure is the median of a suite's runs, with the least and greatest run in brackets ")
        .append("when it ran several; plots draw the median as a bar and whiskers to the farther of the least and ")
        .append("greatest run. Each plot carries its command, the commit, the machine and its spread under it.\n")
        .append("- Each suite's \"Run conditions\" table gives the CPU it and every other process used in each ")
        .append("phase, and the CPU time the hypervisor took from the machine (steal): a figure measured while ")
        .append("other processes or the host were busy shows there.\n")
        .append("- A target or plot whose figures the run did not record says \"not measured\" or is left out.\n\n");
  }

  private void targets(StringBuilder md) {
    ResultTable table = new ResultTable("Targets (step 11), judged on this run's figures", "#", "target", "figure",
        "goal", "verdict");
    Targets.ALL.forEach(t -> table.row(t.row(figures).toArray()));
    md.append("## Targets\n\n").append(table.toMarkdown()).append('\n');
  }

  private void section(StringBuilder md, SuiteRun run, Path plots) throws IOException {
    md.append("## ").append(run.suite().name()).append("\n\n")
        .append("Command: `").append(run.command()).append("`\n\n")
        .append(String.format("Ran in %.0f s; %s.%n%n", run.seconds(),
            run.exitCode() == 0 ? "completed" : "**FAILED** with exit code " + run.exitCode()
                + " (its output above the report says why)"));
    if (run.report().isEmpty()) {
      return;
    }
    Report report = run.report().get();
    if (!report.parameters.isEmpty()) {
      md.append("Parameters: ").append(String.join("; ", report.parameters.entrySet().stream()
          .map(e -> e.getKey() + " " + e.getValue()).toList())).append("\n\n");
    }
    for (ResultTable t : report.tables()) {
      md.append(t.toMarkdown()).append('\n');
    }
    md.append(report.conditions().toMarkdown()).append('\n');
    List<String> bullets = new ArrayList<>(report.verdicts());
    bullets.addAll(report.notes());
    bullets.forEach(b -> md.append("- ").append(b).append('\n'));
    if (!bullets.isEmpty()) {
      md.append('\n');
    }
    for (PlotSpec spec : Plots.ALL) {
      if (spec.suite().equals(run.suite().name())) {
        plot(md, spec, run, plots);
      }
    }
  }

  private void plot(StringBuilder md, PlotSpec spec, SuiteRun run, Path plots) throws IOException {
    PlotData data = spec.data(figures);
    if (data.isEmpty()) {
      return;
    }
    String spread = Provenance.spread(data.hasSpread(), PlotRenderer.whiskers(spec, data));
    List<String> footer = provenance.footer(run.command(), spread);
    PlotRenderer.render(spec, data, footer, plots.resolve(spec.file()));
    md.append("![").append(spec.title()).append("](").append(PLOT_DIR).append('/').append(spec.file())
        .append(")\n\n")
        .append("*").append(spec.title()).append(", ").append(spec.yAxis()).append(": from `")
        .append(run.command()).append("`, commit `").append(provenance.commit()).append("`; ")
        .append(spread).append(". Figure keys `").append(spec.keys().pattern())
        .append("`.*\n\n")
        .append(data.toMarkdown(spec.xAxis() + " →")).append('\n');
  }

  private void allFigures(StringBuilder md) {
    md.append("## Notes\n\n")
        .append("- The targets and plots read the named figures the suites record (`Report.figure`); ")
        .append("the ones this run recorded are below. A figure `K` is `K` or `K.median`, ")
        .append("its spread `K.min` and `K.max`.\n")
        .append("- Where the time goes in each miss, all from this run: targets 1 to 3, the fan-out suite's tables ")
        .append("\"Where the server's time goes\" (JFR of each server JVM in each measured window: work, threads, ")
        .append("methods; its CPU by thread group from /proc) and its allocation by site; target 5, the informer ")
        .append("suite's profile notes (JFR of each client JVM, every run); target 6, the list suite's phase table ")
        .append("and its profile of our client's reads; the write suite's CPU, JIT and GC columns. ")
        .append("[benchmarks.md](benchmarks.md#step-11-the-report-open-loop-latency-the-per-watcher-")
        .append("check-and-the-ceiling) adds experiments written by hand from earlier runs.\n")
        .append("- To write this file again: `").append(provenance.command()).append("`.\n\n");
    if (figures.raw().isEmpty()) {
      return;
    }
    md.append("<details><summary>Every figure of this run</summary>\n\n| figure | value |\n| --- | ---: |\n");
    figures.raw().forEach((k, v) -> md.append("| `").append(k).append("` | ").append(Figure.format(v)).append(" |\n"));
    md.append("\n</details>\n");
  }
}
