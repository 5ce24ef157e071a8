package io.listwatch.bench;

import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code --data-dir} option of the benchmarks whose store lives in this process
 * ({@code storage}, {@code server-list}), as a picocli mixin ({@code @Mixin}): where the store
 * goes, opened as a {@link DataDirectory}.
 *
 * <p>Confined to the thread that runs the benchmark.
 */
public final class StoreDirOption {

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Store directory, absent or empty; kept afterwards. "
          + "Default: a new temporary directory, deleted at the end.")
  private Path dataDir;

  /** The benchmark's command, whose usage error a bad {@code --data-dir} is. */
  @Spec(Spec.Target.MIXEE)
  private CommandSpec command;

  /**
   * The directory {@code --data-dir} names, or without it a new temporary one whose name
   * starts with {@code tempPrefix} ({@link DataDirectory#open}).
   */
  public DataDirectory open(String tempPrefix) throws IOException {
    return DataDirectory.open(dataDir, tempPrefix, command);
  }
}
