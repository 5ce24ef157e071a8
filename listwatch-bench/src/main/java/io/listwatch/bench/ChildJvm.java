package io.listwatch.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child JVM started from this benchmark's own classpath: the API server, or one informer
 * run. Its standard output is read line by line by a thread of its own (so the child never
 * blocks on a full pipe) and can be searched with {@link #awaitLine}; its standard error goes
 * to a log file, whose tail is shown when the child fails.
 *
 * <p>{@link #close()} stops the child (SIGTERM, then SIGKILL after a grace period) and is
 * idempotent; a JVM shutdown hook does the same if this benchmark is interrupted, so no child
 * outlives it. Thread-safe.
 */
public final class ChildJvm implements AutoCloseable {

  private static final long GRACE_SECONDS = 30;

  private final String name;
  private final Process process;
  private final Path log;
  private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final ShutdownCleanup reaper;

  private ChildJvm(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
    Thread.ofPlatform().daemon().name("child-stdout-" + name).start(this::pumpStdout);
    this.reaper = new ShutdownCleanup("child-reaper-" + name, this::stopNow);
  }

  /**
   * Starts {@code java jvmOptions... -cp <this classpath> mainClass args...} with the JDK
   * this benchmark runs on; standard error goes to {@code log}.
   */
  public static ChildJvm start(String name, List<String> jvmOptions, String mainClass, List<String> args, Path log)
      throws IOException {
    return start(name, System.getProperty("java.class.path"), jvmOptions, mainClass, args, log);
  }

  /** As {@link #start(String, List, String, List, Path)}, on another {@code classpath} (another build's). */
  public static ChildJvm start(String name, String classpath, List<String> jvmOptions, String mainClass,
      List<String> args, Path log) throws IOException {
    return start(name, List.of(), classpath, jvmOptions, mainClass, args, log);
  }

  /**
   * As {@link #start(String, String, List, String, List, Path)}, with {@code launcher} before
   * {@code java}: a program that execs the rest of its command line, e.g.
   * {@link CpuAffinity#launcher(String)} to start the child on some CPUs.
   */
  public static ChildJvm start(String name, List<String> launcher, String classpath, List<String> jvmOptions,
      String mainClass, List<String> args, Path log) throws IOException {
    List<String> command = new ArrayList<>(launcher);
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classpath);
    command.add(mainClass);
    command.addAll(args);
    Process p = new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.PIPE)
        .redirectError(ProcessBuilder.Redirect.to(log.toFile()))
        .start();
    return new ChildJvm(name, p, log);
  }

  /**
   * The JVM options the benchmarks give a child unless they measure something else: an explicit
   * heap limit {@code heap} (a JVM size, e.g. {@code 4g}), G1, and native access for the
   * classpath's libraries, so that every child of a run is configured alike.
   */
  public static List<String> standardOptions(String heap) {
    return List.of("-Xmx" + heap, "-XX:+UseG1GC", "--enable-native-access=ALL-UNNAMED");
  }

  /**
   * {@code defaults} followed by {@code extra}; a collector option in {@code extra}
   * ({@code -XX:+Use...GC}) drops the defaults' collector, which the JVM would refuse as a conflict.
   */
  public static List<String> withOptions(List<String> defaults, List<String> extra) {
    boolean collector = extra.stream().anyMatch(ChildJvm::selectsCollector);
    List<String> all = new ArrayList<>(defaults.stream().filter(o -> !(collector && selectsCollector(o))).toList());
    all.addAll(extra);
    return all;
  }

  private static boolean selectsCollector(String option) {
    return option.startsWith("-XX:+Use") && option.endsWith("GC");
  }

  public long pid() {
    return process.pid();
  }

  /**
   * The first line of standard output (from the start, or after the lines already matched)
   * that {@code match} accepts; empty if the child ends or {@code timeoutSeconds} pass first.
   * Lines that do not match are dropped.
   */
  public Optional<String> awaitLine(Predicate<String> match, long timeoutSeconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return Optional.empty();
      }
      String line = lines.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)), TimeUnit.NANOSECONDS);
      if (line != null) {
        if (match.test(line)) {
          return Optional.of(line);
        }
      } else if (!process.isAlive() && lines.isEmpty()) {
        // the pump may still hold a last line: give it a moment
        line = lines.poll(200, TimeUnit.MILLISECONDS);
        if (line == null) {
          return Optional.empty();
        }
        if (match.test(line)) {
          return Optional.of(line);
        }
      }
    }
  }

  /** Writes {@code line} and a newline to the child's standard input (a command to a child that reads one). */
  public void send(String line) throws IOException {
    java.io.OutputStream in = process.getOutputStream();
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /** Waits for the child to end by itself; its exit code, or empty on timeout. */
  public Optional<Integer> awaitExit(long timeoutSeconds) throws InterruptedException {
    return process.waitFor(timeoutSeconds, TimeUnit.SECONDS) ? Optional.of(process.exitValue()) : Optional.empty();
  }

  /** The last {@code n} lines of the child's standard error, for a failure message. */
  public String logTail(int n) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - n), all.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /** Stops the child if it still runs: SIGTERM, then SIGKILL after a grace period. Idempotent. */
  @Override
  public void close() {
    reaper.close();
  }

  private void stopNow() {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(GRACE_SECONDS, TimeUnit.SECONDS)) {
        System.err.println("child " + name + " (pid " + process.pid() + ") ignored SIGTERM; killing it");
        process.destroyForcibly();
        process.waitFor(GRACE_SECONDS, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private void pumpStdout() {
    try (BufferedReader r = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      // the child ended; awaitLine sees that
    }
  }

  @Override
  public String toString() {
    return name + " (pid " + process.pid() + ")";
  }
}
