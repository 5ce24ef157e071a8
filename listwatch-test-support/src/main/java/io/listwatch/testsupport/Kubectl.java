package io.listwatch.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.BufferedReader;
import java.io.File;
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
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Runs the real {@code kubectl} from PATH as a child process, with one kubeconfig and a
 * {@code HOME} of its own (so the discovery cache under {@code ~/.kube/cache} belongs to this
 * runner alone) and no environment from the machine running the tests (no
 * {@code KUBECONFIG}, {@code KUBECTL_*} or proxy settings). Each runner keeps its files in a
 * directory of its own under the {@code workDir} it is given, so several may share one.
 *
 * <pre>{@code
 * Kubectl kubectl = Kubectl.forServer(server.url(), workDir);
 * kubectl.ok("create", "deployment", "web", "--image=nginx");
 * try (Kubectl.Background watch = kubectl.start("get", "pods", "-w")) {
 *   String line = watch.nextLine(Duration.ofSeconds(15));
 * }
 * }</pre>
 *
 * <p>Every wait is bounded: {@link #run} waits at most the run timeout ({@link #RUN_TIMEOUT}
 * unless {@link #withTimeouts} says otherwise) and kills the process if it is still running,
 * and kubectl gets {@code --request-timeout} so a hung server fails one command rather than the
 * test run. {@link #start} returns a {@link Background} process that must be closed
 * (try-with-resources), which destroys it.
 *
 * <p>Thread-safe: each call starts its own process; a runner holds only immutable paths.
 */
public final class Kubectl {

  /** How long one foreground command may take, unless {@link #withTimeouts} says otherwise. */
  public static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);
  /** kubectl's own bound on one request ({@code --request-timeout}), unless {@link #withTimeouts} says otherwise. */
  public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private final Path home;
  private final Path kubeconfig;
  private final Duration runTimeout;
  private final Duration requestTimeout;

  private Kubectl(Path home, Path kubeconfig, Duration runTimeout, Duration requestTimeout) {
    this.home = home;
    this.kubeconfig = kubeconfig;
    this.runTimeout = runTimeout;
    this.requestTimeout = requestTimeout;
  }

  /** The kubectl on PATH, if any. */
  public static Optional<Path> binary() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir, "kubectl");
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** A runner whose kubeconfig's only cluster is {@code serverUrl} (plain HTTP, no credentials). */
  public static Kubectl forServer(String serverUrl, Path workDir) {
    return withKubeconfig("""
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
        """.formatted(serverUrl), workDir);
  }

  /** A runner with an existing kubeconfig (e.g. the one the server or the demo wrote). */
  public static Kubectl withKubeconfig(Path kubeconfig, Path workDir) {
    return new Kubectl(ownDirectory(workDir).resolve("home"), kubeconfig, RUN_TIMEOUT, REQUEST_TIMEOUT);
  }

  /** A runner with {@code kubeconfigYaml} as its kubeconfig (e.g. a TLS cluster with a token user). */
  public static Kubectl withKubeconfig(String kubeconfigYaml, Path workDir) {
    Path dir = ownDirectory(workDir);
    try {
      Path kubeconfig = Files.writeString(dir.resolve("kubeconfig.yaml"), kubeconfigYaml);
      return new Kubectl(dir.resolve("home"), kubeconfig, RUN_TIMEOUT, REQUEST_TIMEOUT);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code workDir/kubectl-<n>/} with its {@code home/}: this runner's alone. */
  private static Path ownDirectory(Path workDir) {
    try {
      Path dir = workDir.resolve("kubectl-" + SEQUENCE.incrementAndGet());
      Files.createDirectories(dir.resolve("home"));
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * This runner with other bounds: {@code run} for one foreground command, {@code request} for
   * kubectl's {@code --request-timeout} (which also ends a {@code get -w} after that long).
   */
  public Kubectl withTimeouts(Duration run, Duration request) {
    return new Kubectl(home, kubeconfig, Objects.requireNonNull(run, "run"),
        Objects.requireNonNull(request, "request"));
  }

  /** The kubeconfig kubectl reads. */
  public Path kubeconfig() {
    return kubeconfig;
  }

  /** kubectl's {@code HOME} and working directory, where {@link #file} writes. */
  public Path home() {
    return home;
  }

  /** Writes {@code content} to a fresh file under this runner's home, e.g. a manifest for {@code -f}. */
  public Path file(String name, String content) {
    try {
      return Files.writeString(home.resolve(SEQUENCE.incrementAndGet() + "-" + name), content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code kubectl args...} to completion (at most the run timeout). */
  public Result run(String... args) {
    return runWithEnv(Map.of(), args);
  }

  /**
   * Runs {@code kubectl args...} with extra environment variables (e.g. {@code KUBE_EDITOR}
   * for {@code kubectl edit}) to completion (at most the run timeout).
   */
  public Result runWithEnv(Map<String, String> extraEnv, String... args) {
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
      process.getOutputStream().close();
      if (!process.waitFor(runTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
        fail("kubectl %s did not finish within %s; stderr so far:%n%s", String.join(" ", args), runTimeout,
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
  public Result ok(String... args) {
    Result r = run(args);
    assertThat(r.exitCode()).as("exit code of %s", r).isZero();
    return r;
  }

  /**
   * Starts {@code kubectl args...} in the background. Its stdout and stderr are read line by
   * line by two daemon threads into queues; {@link Background#close()} destroys the process.
   */
  public Background start(String... args) {
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
    command.add("--request-timeout=" + requestTimeout.toSeconds() + "s");
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
  public record Result(List<String> command, int exitCode, String stdout, String stderr) {

    /** Non-empty stdout lines. */
    public List<String> lines() {
      return stdout.lines().filter(l -> !l.isBlank()).toList();
    }

    /** The first column of every row of {@code kubectl get}'s table output (header skipped). */
    public List<String> names() {
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
   * A kubectl process running in the background. Lines of stdout and stderr arrive in two
   * queues, each read by a daemon thread named after the process; when a stream ends, its queue
   * gets {@link #EOF}. Closing destroys the process and its descendants (idempotent). Read by
   * the test thread that started it.
   */
  public static final class Background implements AutoCloseable {

    /** The marker queued when a stream has ended. Compared by identity. */
    private static final String EOF = new String("<end of stream>");

    private final List<String> command;
    private final Process process;
    private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> stderr = new LinkedBlockingQueue<>();
    /** Every stderr line seen, for failure messages. */
    @GuardedBy("stderrSeen")
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
    public String nextLine(Duration timeout) {
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
    public String awaitStderr(Predicate<String> condition, String description, Duration timeout) {
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
    public int awaitExit(Duration timeout) {
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

    public boolean isAlive() {
      return process.isAlive();
    }

    /**
     * Everything on stdout not yet taken by {@link #nextLine}: at once while kubectl runs, and
     * up to the end of its output (waiting at most 10 s for it) once it has exited.
     */
    public List<String> drainStdout() {
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

    /** Every stderr line so far, for failure messages. */
    public String stderrText() {
      List<String> rest = new ArrayList<>();
      stderr.drainTo(rest);
      synchronized (stderrSeen) {
        for (String l : rest) { // a loop, not a method reference: the checker sees the lock held
          if (l != EOF) {
            stderrSeen.add(l);
          }
        }
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
