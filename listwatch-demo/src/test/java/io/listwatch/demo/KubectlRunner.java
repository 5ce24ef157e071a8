package io.listwatch.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the {@code kubectl} on PATH against one kubeconfig, with a {@code HOME} of its own (so
 * its discovery cache is this helper's alone) and no environment from the machine. Every
 * command is bounded: at most {@link #RUN_TIMEOUT}, then the process is killed and the test
 * fails. For tests.
 *
 * <p>Thread-safe: each call starts its own process; the helper holds only immutable paths.
 */
final class KubectlRunner {

  /** How long one kubectl command may take. */
  static final Duration RUN_TIMEOUT = Duration.ofSeconds(60);

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private final Path home;
  private final Path kubeconfig;

  KubectlRunner(Path kubeconfig, Path workDir) {
    try {
      this.home = Files.createDirectories(workDir.resolve("kubectl-home"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.kubeconfig = kubeconfig;
  }

  /** The kubectl on PATH, or null. */
  static Path binary() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path p = Path.of(dir, "kubectl");
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  /** Writes {@code content} to a fresh file under this helper's home, e.g. a manifest for {@code -f}. */
  Path file(String name, String content) {
    try {
      return Files.writeString(home.resolve(SEQUENCE.incrementAndGet() + "-" + name), content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code kubectl args...} and asserts that it exits 0; returns its stdout. */
  String ok(String... args) {
    Result r = run(args);
    assertThat(r.exitCode()).as("%s", r).isZero();
    return r.stdout();
  }

  /** Runs {@code kubectl args... -o json} and returns the parsed output. */
  JsonNode json(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("-o");
    all.add("json");
    try {
      return JSON.readTree(ok(all.toArray(String[]::new)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code kubectl args...} to completion (at most {@link #RUN_TIMEOUT}). */
  Result run(String... args) {
    int n = SEQUENCE.incrementAndGet();
    Path out = home.resolve("run-" + n + ".stdout");
    Path err = home.resolve("run-" + n + ".stderr");
    List<String> command = new ArrayList<>();
    command.add(binary().toString());
    command.add("--request-timeout=30s");
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(home.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    Map<String, String> env = pb.environment();
    String path = env.get("PATH");
    env.clear();
    env.put("PATH", path == null ? "/usr/bin:/bin" : path);
    env.put("HOME", home.toString());
    env.put("KUBECONFIG", kubeconfig.toString());
    Process process = null;
    try {
      process = pb.start();
      if (!process.waitFor(RUN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        fail("kubectl %s did not finish within %s; stderr so far:%n%s", String.join(" ", args), RUN_TIMEOUT,
            Files.readString(err));
      }
      return new Result(List.of(args), process.exitValue(), Files.readString(out), Files.readString(err));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while running kubectl", e);
    } finally {
      if (process != null) {
        process.destroyForcibly();
      }
    }
  }

  /** A finished command. */
  record Result(List<String> command, int exitCode, String stdout, String stderr) {
    @Override
    public String toString() {
      return "kubectl " + String.join(" ", command) + " -> exit " + exitCode
          + "\n--- stdout ---\n" + stdout + "--- stderr ---\n" + stderr;
    }
  }
}
