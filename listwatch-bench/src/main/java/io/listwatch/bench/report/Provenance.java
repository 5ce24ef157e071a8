package io.listwatch.bench.report;

import io.listwatch.bench.MachineInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Where a report's figures come from: the command that wrote it, the commit of the checkout
 * ({@code -dirty} when the tree had changes), the date and the machine. Immutable; thread-safe.
 *
 * @param command the report's command, e.g. {@code ./listwatch bench report --quick}
 * @param quick whether it ran in quick mode
 * @param commit the checkout's commit, {@code -dirty} appended when it had changes
 * @param date when the run started, UTC
 * @param machine the machine, on one line ({@link MachineInfo#oneLine})
 */
record Provenance(String command, boolean quick, String commit, String date, String machine) {

  /** The provenance of a run starting now in the working directory's checkout. */
  static Provenance now(String command, boolean quick, MachineInfo machine) {
    return new Provenance(command, quick, checkoutCommit(),
        ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")),
        machine.oneLine());
  }

  /** {@code git rev-parse HEAD}, with {@code -dirty} if {@code git status} lists changes; "unknown" without git. */
  static String checkoutCommit() {
    String head = git("rev-parse", "HEAD");
    if (head.isEmpty()) {
      return "unknown";
    }
    return git("status", "--porcelain").isEmpty() ? head : head + "-dirty";
  }

  /** The provenance lines a plot carries under it. */
  List<String> footer(String suiteCommand, String spread) {
    return List.of("command: " + suiteCommand + "   (in: " + command + ")",
        "commit " + commit + ", " + date + "; machine: " + machine,
        spread);
  }

  /** What a plot's bars (and whiskers) are: one run, or the median of several and their spread. */
  static String spread(boolean spread, boolean whiskers) {
    if (!spread) {
      return "bars: one run each (no spread; the full mode runs each point at least three times)";
    }
    return whiskers ? "bars: the median of the runs; whiskers: to the farther of the least and greatest run"
        : "bars: the median of the runs; the least and greatest run are in the table under the plot in report.md";
  }

  private static String git(String... args) {
    try {
      Process p = new ProcessBuilder(java.util.stream.Stream.concat(java.util.stream.Stream.of("git"),
          java.util.Arrays.stream(args)).toList()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      p.getOutputStream().close();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return "";
      }
      return p.exitValue() == 0 ? out : "";
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }
}
