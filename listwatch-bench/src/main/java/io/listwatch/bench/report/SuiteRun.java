package io.listwatch.bench.report;

import io.listwatch.bench.Report;
import java.util.List;
import java.util.Optional;

/**
 * What one suite's run left for the report: its arguments, its exit code, how long it took and
 * its {@link Report} (tables, verdicts, notes, figures). Confined to the thread that runs
 * {@code bench report} (the report inside is mutable).
 *
 * @param suite the suite
 * @param args the arguments it ran with
 * @param exitCode its exit code (0 when it completed)
 * @param seconds its wall-clock time
 * @param report what it measured; empty if it could not start
 */
record SuiteRun(Suite suite, List<String> args, int exitCode, double seconds, Optional<Report> report) {

  SuiteRun {
    args = List.copyOf(args);
  }

  /** The exact command of the run. */
  String command() {
    return suite.command(args);
  }
}
