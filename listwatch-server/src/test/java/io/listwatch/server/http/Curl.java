package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A {@code curl} process in the background, as a user would run it. stdout and stderr lines
 * are read by two daemon threads; every wait is bounded and {@link #close()} kills the process.
 * curl is on every Linux machine: a missing curl fails the test. Used by one test thread.
 */
final class Curl implements AutoCloseable {

  private static final String EOF = new String("<end of stream>");

  private final List<String> command;
  private final Process process;
  private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
  private final BlockingQueue<String> stderr = new LinkedBlockingQueue<>();
  private final List<String> seen = new ArrayList<>();

  private Curl(List<String> command, Process process) {
    this.command = command;
    this.process = process;
    pump(process.getInputStream(), stdout, "curl-stdout-" + process.pid());
    pump(process.getErrorStream(), stderr, "curl-stderr-" + process.pid());
  }

  /** Starts {@code curl args...} in {@code dir}. */
  static Curl start(Path dir, String... args) {
    List<String> command = new ArrayList<>();
    command.add("curl");
    command.addAll(List.of(args));
    try {
      ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
      pb.environment().keySet().removeIf(k -> k.toLowerCase(java.util.Locale.ROOT).endsWith("_proxy"));
      Process p = pb.start();
      p.getOutputStream().close();
      return new Curl(command, p);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run curl (it is part of every Linux installation)", e);
    }
  }

  private static void pump(InputStream in, BlockingQueue<String> queue, String name) {
    Thread.ofPlatform().name(name).daemon(true).start(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          queue.add(line);
        }
      } catch (IOException e) {
        // destroyed
      } finally {
        queue.add(EOF);
      }
    });
  }

  /** The next stdout line matching {@code condition}, within {@code timeout}; fails otherwise. */
  String awaitStdout(Predicate<String> condition, String description, Duration timeout) {
    return await(stdout, condition, description, timeout);
  }

  /** The next stderr line (curl -v) matching {@code condition}, within {@code timeout}; fails otherwise. */
  String awaitStderr(Predicate<String> condition, String description, Duration timeout) {
    return await(stderr, condition, description, timeout);
  }

  private String await(BlockingQueue<String> queue, Predicate<String> condition, String description,
      Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (true) {
        String line = queue.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (line == null || line == EOF) {
          fail("%s: no line %s %s; output so far:%n%s", String.join(" ", command), description,
              line == null ? "within " + timeout : "before curl ended", String.join("\n", seen));
        }
        seen.add(line);
        if (condition.test(line)) {
          return line;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** Waits at most {@code timeout} for curl to exit; returns its exit code. */
  int awaitExit(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        fail("%s did not exit within %s", String.join(" ", command), timeout);
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
    try {
      process.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
