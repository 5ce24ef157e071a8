package io.listwatch.controllers.deployment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs kubectl from PATH against one plain-HTTP server with its own kubeconfig and HOME. Every
 * run is bounded: a command still running after 90 s is killed and fails the test.
 */
final class KubectlRunner {

  /** What one run printed. */
  record Result(int exitCode, String out) {}

  private final Path home;
  private final Path kubeconfig;

  KubectlRunner(String serverUrl, Path dir) throws IOException {
    this.home = Files.createDirectories(dir.resolve("home"));
    this.kubeconfig = dir.resolve("kubeconfig.yaml");
    Files.writeString(kubeconfig, """
        apiVersion: v1
        kind: Config
        clusters:
        - name: listwatch
          cluster:
            server: %s
        users:
        - name: admin
          user: {}
        contexts:
        - name: listwatch
          context: {cluster: listwatch, user: admin, namespace: default}
        current-context: listwatch
        """.formatted(serverUrl));
  }

  /** Runs {@code kubectl args...}, fails unless it exits 0; returns its output. */
  String ok(String... args) {
    Result r = run(args);
    if (r.exitCode() != 0) {
      throw new AssertionError("kubectl " + String.join(" ", args) + " exited " + r.exitCode() + ":\n" + r.out());
    }
    return r.out();
  }

  Result run(String... args) {
    List<String> command = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString(),
        "--request-timeout=30s"));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("HOME", home.toString());
    pb.environment().remove("KUBECONFIG");
    try {
      Process p = pb.start();
      p.getOutputStream().close();
      byte[][] out = new byte[1][];
      Thread reader = Thread.ofVirtual().start(() -> {
        try {
          out[0] = p.getInputStream().readAllBytes();
        } catch (IOException e) {
          out[0] = new byte[0];
        }
      });
      if (!p.waitFor(90, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish within 90 s");
      }
      reader.join();
      return new Result(p.exitValue(), new String(out[0], StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
