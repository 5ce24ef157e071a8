package io.listwatch.bench.informer;

import io.listwatch.bench.CpuMonitor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Our API server ({@code ./listwatch server}'s {@code ServerCommand}) in a child JVM of its
 * own, bound to 127.0.0.1 on a free port, with the data directory it is given, so that the
 * informer children measure their heap and CPU alone. {@link #close()} stops it with
 * SIGTERM (the server's shutdown hook closes it cleanly), idempotent.
 *
 * <p>Thread-safe.
 */
final class ServerJvm implements AutoCloseable {

  private static final Pattern LISTENING = Pattern.compile("listening on (http://[^ ]+)");
  private static final long START_TIMEOUT_SECONDS = 60;

  private final ChildJvm jvm;
  private final String url;

  private ServerJvm(ChildJvm jvm, String url) {
    this.jvm = jvm;
    this.url = url;
  }

  /** Starts the server and waits until it listens; its standard error goes to {@code log}. */
  static ServerJvm start(Path dataDir, List<String> jvmOptions, Path log) throws IOException, InterruptedException {
    ChildJvm jvm = ChildJvm.start("api-server", jvmOptions, "io.listwatch.server.cli.ServerCommand",
        List.of("--data-dir", dataDir.toString(), "--bind-address", "127.0.0.1", "--secure-port", "0",
            "--http-port", String.valueOf(freeLoopbackPort())), log);
    try {
      Optional<String> line = jvm.awaitLine(l -> LISTENING.matcher(l).find(), START_TIMEOUT_SECONDS);
      if (line.isEmpty()) {
        throw new IllegalStateException("the API server did not start within " + START_TIMEOUT_SECONDS
            + " s; its log:\n" + jvm.logTail(40));
      }
      Matcher m = LISTENING.matcher(line.get());
      m.find();
      return new ServerJvm(jvm, m.group(1));
    } catch (RuntimeException | InterruptedException e) {
      jvm.close();
      throw e;
    }
  }

  /** A port free on 127.0.0.1 now (the plain-HTTP listener has no "any free port" setting: 0 turns it off). */
  private static int freeLoopbackPort() throws IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** {@code http://127.0.0.1:<port>}. */
  String url() {
    return url;
  }

  InetSocketAddress address() {
    URI u = URI.create(url);
    return new InetSocketAddress(u.getHost(), u.getPort());
  }

  /** The server's CPU so far in clock ticks (utime + stime from /proc), or -1 if unknown. */
  long cpuTicks() {
    return CpuMonitor.processTicks(jvm.pid());
  }

  @Override
  public void close() {
    jvm.close();
  }
}
