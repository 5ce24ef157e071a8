package io.listwatch.demo;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * HAProxy in front of API servers, as a load balancer is deployed before kube-apiservers: TCP
 * mode (TLS passes through to the servers, so client certificates still reach them), round
 * robin, a health check every 200 ms, and a connection to a server found down retried on
 * another. The {@code haproxy} binary is Debian's package, which {@code ./listwatch test}
 * installs when it may; it listens on a free port of 127.0.0.1. Not thread-safe; {@link
 * #close} stops it.
 */
final class Haproxy implements AutoCloseable {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

  private final Process process;
  private final int port;
  private final Path log;

  private Haproxy(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** Starts HAProxy balancing over the servers listening on {@code backendPorts} of 127.0.0.1. */
  static Haproxy start(Path dir, List<Integer> backendPorts) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    StringBuilder cfg = new StringBuilder("""
        defaults
          mode tcp
          timeout connect 2s
          timeout client 1h
          timeout server 1h
          retries 3
          option redispatch
        frontend apiservers
          bind 127.0.0.1:%d
          default_backend apiservers
        backend apiservers
          balance roundrobin
        """.formatted(port));
    for (int i = 0; i < backendPorts.size(); i++) {
      cfg.append("  server api").append(i).append(" 127.0.0.1:").append(backendPorts.get(i))
          .append(" check inter 200ms fall 1 rise 1\n");
    }
    Path config = dir.resolve("haproxy.cfg");
    Files.writeString(config, cfg);
    Path log = dir.resolve("haproxy.log");
    Process p = new ProcessBuilder(binary(), "-db", "-f", config.toString()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    Haproxy haproxy = new Haproxy(p, port, log);
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (!accepts(port)) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        haproxy.close();
        throw new IllegalStateException("haproxy did not listen on " + port + "; its output:\n"
            + Files.readString(log));
      }
      Thread.sleep(20); // polling a port that is about to open; bounded by the deadline
    }
    return haproxy;
  }

  /** The address clients use, {@code https://127.0.0.1:<port>}. */
  String url() {
    return "https://127.0.0.1:" + port;
  }

  private static String binary() {
    for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin").split(":")) {
      Path candidate = Path.of(dir, "haproxy");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    throw new IllegalStateException("haproxy is not installed: this test needs it"
        + " (Debian: apt-get install haproxy; ./listwatch test installs it when run as root)");
  }

  private static boolean accepts(int port) {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
