package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Kubectl;
import java.nio.file.Path;
import java.time.Duration;
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

  /** How long the server may take for what it does in its own time (its controllers, the garbage collector). */
  static final Duration SERVER_WORK = Duration.ofSeconds(30);

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
}
