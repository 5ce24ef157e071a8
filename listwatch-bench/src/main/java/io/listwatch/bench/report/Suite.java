package io.listwatch.bench.report;

import io.listwatch.bench.BenchmarkCommand;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;

/**
 * One suite of {@code bench report}'s plan: the benchmark command and the exact arguments it
 * gets in each mode. Immutable; thread-safe.
 *
 * @param type the benchmark's command class (its {@code @Command} name is the suite's name)
 * @param quick the arguments of {@code --quick}
 * @param full the arguments of the full mode
 */
record Suite(Class<? extends BenchmarkCommand> type, List<String> quick, List<String> full) {

  Suite {
    quick = List.copyOf(quick);
    full = List.copyOf(full);
  }

  /** The suite's name, e.g. {@code server-fanout}: its command's name under {@code bench}. */
  String name() {
    return type.getAnnotation(Command.class).name();
  }

  /** The arguments of the mode. */
  List<String> args(boolean quickMode) {
    return quickMode ? quick : full;
  }

  /** The command a reader runs for the same figures, e.g. {@code ./listwatch bench storage --seconds 3}. */
  String command(boolean quickMode) {
    return command(args(quickMode));
  }

  /** The command of this suite with {@code args}. */
  String command(List<String> args) {
    List<String> words = new ArrayList<>(List.of("./listwatch", "bench", name()));
    words.addAll(args);
    return String.join(" ", words);
  }
}
