package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Runs the real {@code kubectl} binary against one server, as a child process, with a
 * kubeconfig of its own and its own {@code HOME} (so the discovery cache under
 * {@code ~/.kube/cache} belongs to this helper alone).
 *
 * <p>Every wait is bounded: {@link #run} waits at most {@link #RUN_TIMEOUT} and kills the
 * process if it is still running; {@link #start} returns a {@link Background} process that
 * must be closed (try-with-resources), which destroys it.
 *
 * <p>Thread-safe: each call starts its own process; the helper holds only immutable paths.
 */
final class Kubectl {

  /** How long one foreground kubectl command may take. */
  static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);
  /** kubectl's own per-request timeout, so a hung server fails a command rather than the test run. */
  private static final String REQUEST_TIMEOUT = "--request-timeout=15s";

  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private final Path home;
  private final Path kubeconfig;

  private Kubectl(Path home, Path kubeconfig) {
    this.home = home;
    this.kubeconfig = kubeconfig;
  }

  /** The kubectl on PATH, if any. */
  static Optional<Path> binary() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      Path candidate = Path.of(dir, "kubectl");
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** Writes a kubeconfig whose only cluster is {@code serverUrl} (plain HTTP, no credentials). */
  static Kubectl forServer(String serverUrl, Path workDir) {
    try {
      Path home = Files.createDirectories(workDir.resolve("home"));
      Path kubeconfig = workDir.resolve("kubeconfig.yaml");
      Files.writeString(kubeconfig, """
          apiVersion: v1
          kind: Config
          clusters:
          - name: listwatch
            cluster:
              server: %s
          users:
          - name: anonymous
            user: {}
          contexts:
          - name: listwatch
            context:
              cluster: listwatch
              user: anonymous
          current-context: listwatch
          """.formatted(serverUrl));
      return new Kubectl(home, kubeconfig);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Uses an existing kubeconfig (e.g. the one the server wrote), with a home of its own under {@code workDir}. */
  static Kubectl withKubeconfig(Path kubeconfig, Path workDir) {
    try {
      return new Kubectl(Files.createDirectories(workDir.resolve("home")), kubeconfig);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Uses {@code kubeconfigYaml} as the kubeconfig (e.g. a TLS cluster with a token user). */
  static Kubectl withKubeconfig(String kubeconfigYaml, Path workDir) {
    try {
      Path home = Files.createDirectories(workDir.resolve("home"));
      return new Kubectl(home, Files.writeString(workDir.resolve("kubeconfig.yaml"), kubeconfigYaml));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@code content} to a fresh file under this helper's home, e.g. a manifest for {@code -f}. */
  Path file(String name, String content) {
    try {
      return Files.writeString(home.resolve(SEQUENCE.incrementAndGet() + "-" + name), content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code kubectl args...} to completion (at most {@link #RUN_TIMEOUT}). */
  Result run(String... args) {
    return runWithEnv(Map.of(), args);
  }

  /**
   * Runs {@code kubectl args...} with extra environment variables (e.g. {@code KUBE_EDITOR}
   * for {@code kubectl edit}) to completion.
   */
  Result runWithEnv(Map<String, String> extraEnv, String... args) {
    int n = SEQUENCE.incrementAndGet();
    Path out = home.resolve("run-" + n + ".stdout");
    Path err = home.resolve("run-" + n + ".stderr");
    ProcessBuilder pb = processBuilder(args)
        .redirectOutput(out.toFile())
        .redirectError(err.toFile());
    pb.environment().putAll(extraEnv);
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

  /** Runs a command and asserts that it exits 0; returns its result. */
  Result ok(String... args) {
    Result r = run(args);
    assertThat(r.exitCode()).as("exit code of %s%n%s", r.command(), r).isZero();
    return r;
  }

  /**
   * Starts {@code kubectl args...} in the background. Its stdout and stderr are read line by
   * line by two daemon threads into queues; {@link Background#close()} destroys the process.
   */
  Background start(String... args) {
    try {
      Process process = processBuilder(args).start();
      process.getOutputStream().close();
      return new Background(List.of(args), process);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private ProcessBuilder processBuilder(String... args) {
    List<String> command = new ArrayList<>();
    command.add(binary().orElseThrow(() -> new IllegalStateException("no kubectl on PATH")).toString());
    command.add(REQUEST_TIMEOUT);
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(home.toFile());
    Map<String, String> env = pb.environment();
    String path = env.get("PATH");
    env.clear(); // no KUBECONFIG, KUBECTL_* or proxy settings from the machine running the tests
    env.put("PATH", path == null ? "/usr/bin:/bin" : path);
    env.put("HOME", home.toString());
    env.put("KUBECONFIG", kubeconfig.toString());
    return pb;
  }

  /** A finished command. */
  record Result(List<String> command, int exitCode, String stdout, String stderr) {

    /** Non-empty stdout lines. */
    List<String> lines() {
      return stdout.lines().filter(l -> !l.isBlank()).toList();
    }

    /** The first column of every row of {@code kubectl get}'s table output (header skipped). */
    List<String> names() {
      return lines().stream()
          .filter(l -> !l.startsWith("NAME "))
          .map(l -> l.split("\\s+", 2)[0])
          .toList();
    }

    @Override
    public String toString() {
      return "kubectl " + String.join(" ", command) + " -> exit " + exitCode
          + "\n--- stdout ---\n" + stdout + "--- stderr ---\n" + stderr;
    }
  }

  /**
   * A kubectl process running in the background. Lines of stdout and stderr arrive in
   * {@link #stdout} and {@link #stderr}; when a stream ends, its queue gets {@link #EOF}.
   * Closing destroys the process (idempotent).
   */
  static final class Background implements AutoCloseable {

    /** The marker queued when a stream has ended. Compared by identity. */
    static final String EOF = new String("<end of stream>");

    private final List<String> command;
    private final Process process;
    private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> stderr = new LinkedBlockingQueue<>();
    /** Every stderr line seen, for failure messages; guarded by itself. */
    private final List<String> stderrSeen = new ArrayList<>();

    private Background(List<String> command, Process process) {
      this.command = command;
      this.process = process;
      pump(process.getInputStream(), stdout, "kubectl-stdout-" + process.pid());
      pump(process.getErrorStream(), stderr, "kubectl-stderr-" + process.pid());
    }

    private static void pump(InputStream in, BlockingQueue<String> queue, String threadName) {
      Thread.ofPlatform().name(threadName).daemon(true).start(() -> {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
          for (String line; (line = reader.readLine()) != null; ) {
            queue.add(line);
          }
        } catch (IOException e) {
          // the process was destroyed: the stream is gone
        } finally {
          queue.add(EOF);
        }
      });
    }

    /** The next stdout line, waiting at most {@code timeout}; fails on timeout or end of output. */
    String nextLine(Duration timeout) {
      String line = poll(stdout, timeout);
      if (line == null) {
        fail("kubectl %s printed no further line within %s; stderr:%n%s", String.join(" ", command), timeout,
            stderrText());
      }
      if (line == EOF) {
        fail("kubectl %s ended its output (exit %s); stderr:%n%s", String.join(" ", command), exitCodeIfDone(),
            stderrText());
      }
      return line;
    }

    /**
     * Waits at most {@code timeout} for a stderr line matching {@code condition} (e.g. a
     * {@code -v=6} request log line); fails on timeout or when the process ends first.
     */
    String awaitStderr(Predicate<String> condition, String description, Duration timeout) {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (true) {
        String line = poll(stderr, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        if (line == null) {
          fail("kubectl %s: no stderr line %s within %s; stderr:%n%s", String.join(" ", command), description,
              timeout, stderrText());
        }
        if (line == EOF) {
          fail("kubectl %s ended (exit %s) before a stderr line %s; stderr:%n%s", String.join(" ", command),
              exitCodeIfDone(), description, stderrText());
        }
        if (condition.test(line)) {
          return line;
        }
      }
    }

    private String poll(BlockingQueue<String> queue, Duration timeout) {
      try {
        String line = queue.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        if (line != null && queue == stderr && line != EOF) {
          synchronized (stderrSeen) {
            stderrSeen.add(line);
          }
        }
        return line;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }

    /** Waits at most {@code timeout} for the process to exit and returns its exit code; fails on timeout. */
    int awaitExit(Duration timeout) {
      try {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
          fail("kubectl %s did not exit within %s; stderr:%n%s", String.join(" ", command), timeout,
              stderrText());
        }
        return process.exitValue();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }

    boolean isAlive() {
      return process.isAlive();
    }

    /**
     * Everything on stdout not yet taken by {@link #nextLine}: at once while kubectl runs, and
     * up to the end of its output (waiting at most 10 s for it) once it has exited.
     */
    List<String> drainStdout() {
      List<String> rest = new ArrayList<>();
      if (!process.isAlive()) {
        // the process is gone, but its reader thread may not have queued the last lines yet
        try {
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
          String line;
          while ((line = stdout.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) != null
              && line != EOF) {
            rest.add(line);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError("interrupted", e);
        }
        return rest;
      }
      stdout.drainTo(rest);
      rest.removeIf(l -> l == EOF);
      return rest;
    }

    String stderrText() {
      List<String> rest = new ArrayList<>();
      stderr.drainTo(rest);
      synchronized (stderrSeen) {
        rest.stream().filter(l -> l != EOF).forEach(stderrSeen::add);
        return String.join("\n", stderrSeen);
      }
    }

    /** The exit code once the process has ended (its output streams may close a moment earlier). */
    private String exitCodeIfDone() {
      try {
        return process.waitFor(5, TimeUnit.SECONDS) ? String.valueOf(process.exitValue()) : "still running";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return "unknown";
      }
    }

    @Override
    public void close() {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
