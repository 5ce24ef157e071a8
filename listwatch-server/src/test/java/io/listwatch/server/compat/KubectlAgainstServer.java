package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the kubectl test classes share: one in-process server per class (from
 * {@link ApiServerExtension}), kubectl 1.32 from PATH pointed at it with its files in a
 * temporary directory, and a raw API client for setting up what kubectl then acts on. The
 * fields are static and set for each class before its tests run (test classes run one after
 * another).
 */
@ExtendWith(ApiServerExtension.class)
abstract class KubectlAgainstServer {

  @TempDir
  static Path workDir;

  static Kubectl kubectl;
  static RawApi api;

  @BeforeAll
  static void connectKubectl(ApiServer server) {
    assertThat(Kubectl.binary()).as("kubectl must be on PATH: these tests drive the real client").isPresent();
    kubectl = Kubectl.forServer(server.url(), workDir);
    api = new RawApi(server.url());
  }

  @AfterAll
  static void closeApi() {
    if (api != null) {
      api.close();
      api = null;
    }
  }

  /** Polls {@code condition} until it holds, at most 30 s: for something the server does in its own time. */
  static void await(String what, java.util.function.BooleanSupplier condition) {
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline < 0).as("timed out waiting until " + what).isTrue();
      try {
        Thread.sleep(20); // polling for something to happen, bounded
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
