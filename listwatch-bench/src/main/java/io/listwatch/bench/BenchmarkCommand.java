package io.listwatch.bench;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A {@code bench <what>} command that measures and prints a {@link Report}: what every such
 * command shares. Its {@code @Command} attributes, which subclasses inherit: {@code -h} and
 * {@code -V}, and the options listed in the order they are declared. Its report, named after
 * the command. Its usage errors: the problems its parameters have, in one
 * {@link ParameterException}. A subclass carries the {@code @Command} with the name and
 * description, its options, and the {@link ReportOutput} mixin last, so that {@code --markdown}
 * stays the last of its options.
 *
 * <p>Confined to the thread that runs the command.
 */
@Command(mixinStandardHelpOptions = true, sortOptions = false)
public abstract class BenchmarkCommand implements Callable<Integer> {

  @Spec
  private CommandSpec spec;

  /** What the command prints, named after it. */
  protected final Report report = new Report(getClass().getAnnotation(Command.class).name());

  /** What the command measured, once it has run: read by {@code bench report}. */
  public final Report report() {
    return report;
  }

  /** The command's model, whose {@code commandLine()} a usage error names. */
  protected final CommandSpec spec() {
    return spec;
  }

  /** Throws the usage error listing {@code problems}, separated by "; ", unless there are none. */
  protected final void rejectIfAny(List<String> problems) {
    if (!problems.isEmpty()) {
      throw new ParameterException(spec.commandLine(), String.join("; ", problems));
    }
  }

  /**
   * Adds to {@code problems} what is wrong with {@code counts}, the values of {@code option}:
   * none or one below 1, and each one not above the one before.
   */
  protected static void checkIncreasingCounts(String option, List<Integer> counts, List<String> problems) {
    if (counts.isEmpty() || counts.stream().anyMatch(n -> n < 1)) {
      problems.add(option + " must list counts >= 1");
    }
    for (int i = 1; i < counts.size(); i++) {
      if (counts.get(i) <= counts.get(i - 1)) {
        problems.add(option + " must increase");
      }
    }
  }
}
