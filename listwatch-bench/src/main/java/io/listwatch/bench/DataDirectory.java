package io.listwatch.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Where a benchmark run writes its stores, data directories and logs: the directory its
 * {@code --data-dir} names (created if absent, refused unless empty, kept afterwards), or without
 * one a new temporary directory, deleted by {@link #close()}.
 *
 * <p>Confined to the thread that runs the benchmark, but for {@link #close()}, which a shutdown
 * hook may call as well: deleting twice is harmless.
 *
 * @param temporary whether the directory is a temporary one, deleted at the end (no
 *     {@code --data-dir} was given)
 */
public record DataDirectory(Path path, boolean temporary) implements AutoCloseable {

  /**
   * The directory {@code dataDir} (the command's {@code --data-dir}) names, or when it is null a
   * new temporary directory whose name starts with {@code tempPrefix}. A {@code --data-dir} that
   * is not empty is a {@link ParameterException} of {@code command}.
   */
  public static DataDirectory open(Path dataDir, String tempPrefix, CommandSpec command) throws IOException {
    if (dataDir == null) {
      return new DataDirectory(Files.createTempDirectory(tempPrefix), true);
    }
    try {
      return new DataDirectory(Format.requireEmptyDirectory(dataDir), false);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(command.commandLine(), "--data-dir: " + e.getMessage());
    }
  }

  /** Deletes the directory and what it holds if it is temporary; a {@code --data-dir} is kept. */
  @Override
  public void close() {
    if (temporary) {
      Format.deleteRecursively(path);
    }
  }
}
