package io.listwatch.controllers.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** What the command tests share: a kubeconfig for the in-process server and a bounded await. */
final class CommandTests {

  private CommandTests() {
  }

  /** Writes a kubeconfig whose current context points at {@code url}, without credentials. */
  static Path writeKubeconfig(Path file, String url) throws IOException {
    return Files.writeString(file, """
        apiVersion: v1
        kind: Config
        clusters:
        - name: c
          cluster:
            server: %s
        users:
        - name: u
          user: {}
        contexts:
        - name: c
          context: {cluster: c, user: u}
        current-context: c
        """.formatted(url));
  }

  /** How long a command may take to start what a test waits for. */
  static final Duration BOUND = Duration.ofSeconds(20);
}
