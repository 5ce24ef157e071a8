package io.listwatch.server.rbac;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the kubectl on PATH with one kubeconfig and a private HOME (no cache or config from the
 * machine). Each run is bounded by 30 s. Confined to the test thread.
 */
final class KubectlRunner {

  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private final Path home;
  private final Path kubeconfig;

  KubectlRunner(Path workDir, String kubeconfigYaml) {
    try {
      int n = SEQUENCE.incrementAndGet();
      this.home = Files.createDirectories(workDir.resolve("kubectl-home-" + n));
      this.kubeconfig = Files.writeString(workDir.resolve("kubeconfig-" + n + ".yaml"), kubeconfigYaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  record Result(int exitCode, String stdout, String stderr) {
  }

  Result run(String... args) {
    List<String> command = new ArrayList<>(List.of("kubectl", "--request-timeout=15s"));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(home.toFile());
    String path = pb.environment().get("PATH");
    pb.environment().clear();
    pb.environment().put("PATH", path == null ? "/usr/bin:/bin" : path);
    pb.environment().put("HOME", home.toString());
    pb.environment().put("KUBECONFIG", kubeconfig.toString());
    int n = SEQUENCE.incrementAndGet();
    Path out = home.resolve(n + ".out");
    Path err = home.resolve(n + ".err");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = null;
    try {
      p = pb.start();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish in 30 s");
      }
      return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } finally {
      if (p != null) {
        p.destroyForcibly();
      }
    }
  }
}
