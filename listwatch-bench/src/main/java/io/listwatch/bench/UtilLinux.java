package io.listwatch.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of util-linux's scheduling commands ({@code taskset}, {@code chrt}) on a process or
 * thread of this machine, and turns its failure into an exception naming the command.
 *
 * <p>Stateless; thread-safe.
 */
final class UtilLinux {

  private UtilLinux() {
  }

  /**
   * Runs {@code command} and waits (up to 30 s) for it to succeed.
   *
   * @param what what the command is for, for the error ("pin process 12 to CPUs 1")
   * @throws IllegalStateException when the command is missing, refuses or does not end
   */
  static void run(List<String> command, String what) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " did not end within 30 s");
      }
      if (p.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", command) + " failed (exit " + p.exitValue() + "): " + output);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command.getFirst() + " (util-linux) to " + what + ": "
          + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while trying to " + what, e);
    }
  }
}
