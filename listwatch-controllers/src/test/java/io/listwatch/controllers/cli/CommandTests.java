package io.listwatch.controllers.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

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

  /** Waits up to 20 s for {@code condition}, checking every 10 ms. */
  static void awaitTrue(BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within 20 s");
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
  }
}
