package io.listwatch.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Our API server ({@code ./listwatch server}'s {@code ServerCommand}, or a benchmark's own main
 * around {@code ApiServer}) in a child JVM of its own, bound to 127.0.0.1, so that what runs in the
 * benchmark's JVM (informers, load generators) neither shares its heap nor its garbage
 * collector, and the server's CPU can be read from its process alone. {@link #close()}
 * stops it with SIGTERM (the server's shutdown hook closes it cleanly), idempotent.
 *
 * <p>The child always runs with Netty's leak detector off
 * ({@code -Dio.netty.leakDetection.level=disabled}), as a production server does; a later
 * {@code -D} in the given options overrides it.
 *
 * <p>Thread-safe.
 */
public final class ServerJvm implements AutoCloseable {

  /** A listener URL as the server prints it on start, e.g. {@code https://127.0.0.1:6443}. */
  /** A listener's URL as the servers print it ("... listening on URL"); other URLs (e.g. etcd's) are not listeners. */
  private static final Pattern URL =
      Pattern.compile("(?<=listening on )(https?)://(127\\.0\\.0\\.1|localhost|\\[::1\\]):(\\d+)");
  private static final long START_TIMEOUT_SECONDS = 60;
  public static final String NO_LEAK_DETECTION = "-Dio.netty.leakDetection.level=disabled";

  private final ChildJvm jvm;
  private final Map<String, String> urls;

  private ServerJvm(ChildJvm jvm, Map<String, String> urls) {
    this.jvm = jvm;
    this.urls = urls;
  }

  /**
   * Starts {@code ./listwatch server} with its HTTPS listener on a free port and the opt-in
   * plain-HTTP listener on another, and waits until the plain one listens.
   */
  public static ServerJvm start(Path dataDir, List<String> jvmOptions, Path log)
      throws IOException, InterruptedException {
    return start(dataDir, List.of(), jvmOptions, log);
  }

  /** As {@link #start(Path, List, Path)}, with more options of {@code ./listwatch server} after the listener's. */
  public static ServerJvm start(Path dataDir, List<String> serverOptions, List<String> jvmOptions, Path log)
      throws IOException, InterruptedException {
    return start(System.getProperty("java.class.path"), dataDir, serverOptions, jvmOptions, log);
  }

  /**
   * As {@link #start(Path, List, List, Path)}, from {@code classpath}: another build of the
   * server (a baseline measured beside this one).
   */
  public static ServerJvm start(String classpath, Path dataDir, List<String> serverOptions, List<String> jvmOptions,
      Path log) throws IOException, InterruptedException {
    return start(List.of(), classpath, dataDir, serverOptions, jvmOptions, log);
  }

  /**
   * As {@link #start(Path, List, List, Path)}, with {@code launcher} before {@code java} (e.g.
   * {@link CpuAffinity#launcher(String)}, to start the server on some CPUs and let it size its
   * threads for them).
   */
  public static ServerJvm start(List<String> launcher, Path dataDir, List<String> serverOptions,
      List<String> jvmOptions, Path log) throws IOException, InterruptedException {
    return start(launcher, System.getProperty("java.class.path"), dataDir, serverOptions, jvmOptions, log);
  }

  private static ServerJvm start(List<String> launcher, String classpath, Path dataDir, List<String> serverOptions,
      List<String> jvmOptions, Path log) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of("--data-dir", dataDir.toString(), "--bind-address", "127.0.0.1",
        "--secure-port", "0", "--http-port", String.valueOf(freeLoopbackPort())));
    args.addAll(serverOptions);
    return start(launcher, classpath, "io.listwatch.server.cli.ServerCommand", args, jvmOptions, Set.of("http"), log);
  }

  /** A port free on 127.0.0.1 now (the plain-HTTP listener has no "any free port" setting: 0 turns it off). */
  private static int freeLoopbackPort() throws IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /**
   * Starts {@code mainClass args...} (a main that runs the server: {@code ServerCommand}, or
   * a benchmark's own main around {@code ApiServer}) and waits until it has printed a
   * listener URL of every scheme in {@code schemes} ({@code http}, {@code https}) on its
   * standard output; its standard error goes to {@code log}.
   */
  public static ServerJvm start(String mainClass, List<String> args, List<String> jvmOptions, Set<String> schemes,
      Path log) throws IOException, InterruptedException {
    return start(List.of(), System.getProperty("java.class.path"), mainClass, args, jvmOptions, schemes, log);
  }

  private static ServerJvm start(List<String> launcher, String classpath, String mainClass, List<String> args,
      List<String> jvmOptions, Set<String> schemes, Path log) throws IOException, InterruptedException {
    List<String> options = new ArrayList<>();
    options.add(NO_LEAK_DETECTION);
    options.addAll(jvmOptions);
    ChildJvm jvm = ChildJvm.start("api-server", launcher, classpath, options, mainClass, args, log);
    try {
      Map<String, String> urls = new LinkedHashMap<>();
      long deadline = System.nanoTime() + START_TIMEOUT_SECONDS * 1_000_000_000L;
      while (!urls.keySet().containsAll(schemes)) {
        long left = (deadline - System.nanoTime()) / 1_000_000_000L;
        Optional<String> line = left <= 0 ? Optional.empty() : jvm.awaitLine(l -> URL.matcher(l).find(), left);
        if (line.isEmpty()) {
          throw new IllegalStateException("the API server did not print a listener for each of " + schemes
              + " within " + START_TIMEOUT_SECONDS + " s (seen: " + urls + "); its log:\n" + jvm.logTail(40));
        }
        Matcher m = URL.matcher(line.get());
        while (m.find()) {
          urls.putIfAbsent(m.group(1), m.group(0));
        }
      }
      return new ServerJvm(jvm, urls);
    } catch (RuntimeException | InterruptedException e) {
      jvm.close();
      throw e;
    }
  }

  /** The plain-HTTP URL, {@code http://127.0.0.1:<port>} (or the only one there is). */
  public String url() {
    return urls.getOrDefault("http", urls.values().iterator().next());
  }

  /** The listener of {@code scheme} ({@code http} or {@code https}). */
  public InetSocketAddress address(String scheme) {
    String u = urls.get(scheme);
    if (u == null) {
      throw new IllegalStateException("the server has no " + scheme + " listener: " + urls);
    }
    URI uri = URI.create(u);
    return new InetSocketAddress(uri.getHost(), uri.getPort());
  }

  /** The plain-HTTP listener. */
  public InetSocketAddress address() {
    return address("http");
  }

  public long pid() {
    return jvm.pid();
  }

  /** The server's CPU so far in clock ticks (utime + stime from /proc), or -1 if unknown. */
  public long cpuTicks() {
    return CpuMonitor.processTicks(jvm.pid());
  }

  /**
   * Sends {@code command} to a server main that reads commands on its standard input and returns
   * its answer: the next line of its standard output that {@code reply} accepts.
   *
   * @throws IllegalStateException when no such line comes within {@code timeoutSeconds}
   */
  public String ask(String command, java.util.function.Predicate<String> reply, long timeoutSeconds)
      throws IOException, InterruptedException {
    jvm.send(command);
    return jvm.awaitLine(reply, timeoutSeconds).orElseThrow(() -> new IllegalStateException(
        "the API server did not answer " + command + " within " + timeoutSeconds + " s; its log:\n" + jvm.logTail(40)));
  }

  /** The last {@code n} lines of the server's standard error. */
  public String logTail(int n) {
    return jvm.logTail(n);
  }

  @Override
  public void close() {
    jvm.close();
  }
}
