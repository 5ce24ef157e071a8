package io.listwatch.server.testing;

import io.listwatch.storage.etcd.testing.LocalProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * HAProxy in front of API servers, for tests and benchmarks, as a load balancer is deployed
 * before kube-apiservers: TCP mode (TLS passes through to the servers, so client certificates
 * still reach them; plain HTTP passes as well), round robin over connections, a health check
 * every 200 ms, and a connection to a server found down retried on another. The
 * {@code haproxy} binary is Debian's package, which {@code ./listwatch test} installs when it
 * may; it runs in a process of its own, listening on a free port of 127.0.0.1, with its
 * configuration and log in a directory of the caller's.
 *
 * <p>Not thread-safe, except {@link #close}, which may also be called from a shutdown hook
 * and is idempotent; it stops the process.
 */
public final class Haproxy implements AutoCloseable {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

  private final Process process;
  private final int port;

  private Haproxy(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /**
   * Starts HAProxy balancing over the servers listening on {@code backendPorts} of 127.0.0.1,
   * with its configuration ({@code haproxy.cfg}) and output ({@code haproxy.log}) in
   * {@code dir}, and waits until it accepts connections.
   *
   * @throws IllegalStateException when haproxy is not installed or does not come up
   */
  public static Haproxy start(Path dir, List<Integer> backendPorts) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    int port = LocalProcesses.freePort();
    Path config = dir.resolve("haproxy.cfg");
    Files.writeString(config, config(port, backendPorts));
    Path log = dir.resolve("haproxy.log");
    Process p = new ProcessBuilder(LocalProcesses.binary("haproxy",
        "Debian: apt-get install haproxy; ./listwatch test installs it when run as root", "/usr/sbin", "/sbin"), "-db", "-f", config.toString()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    Haproxy haproxy = new Haproxy(p, port);
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (!LocalProcesses.accepts(port)) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        haproxy.close();
        throw new IllegalStateException("haproxy did not listen on " + port + "; its output:\n"
            + Files.readString(log));
      }
      Thread.sleep(20); // polling a port that is about to open; bounded by the deadline
    }
    return haproxy;
  }

  private static String config(int port, List<Integer> backendPorts) {
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
    return cfg.toString();
  }

  /** The address clients of TLS servers use, {@code https://127.0.0.1:<port>}. */
  public String url() {
    return url("https");
  }

  /**
   * The address clients use with {@code scheme}: {@code https} for servers serving TLS,
   * {@code http} for plain ones ({@code <scheme>://127.0.0.1:<port>}); HAProxy passes either
   * through as it comes.
   */
  public String url(String scheme) {
    return scheme + "://127.0.0.1:" + port;
  }

  /** The port HAProxy listens on, on 127.0.0.1. */
  public int port() {
    return port;
  }

  /** The haproxy process's id, for measuring its CPU. */
  public long pid() {
    return process.pid();
  }

  /** Stops HAProxy (SIGTERM, then SIGKILL after 10 s) and waits for it to exit. Idempotent. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
