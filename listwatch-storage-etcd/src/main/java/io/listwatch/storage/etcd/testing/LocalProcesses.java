package io.listwatch.storage.etcd.testing;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What the helpers that run real programs for tests and benchmarks (etcd here, HAProxy in the
 * server's {@code testing} package) need alike: the program's binary, a free port of
 * 127.0.0.1, and whether a port accepts connections yet. Stateless.
 */
public final class LocalProcesses {

  private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
  /** How many ports below the ephemeral range {@link #freePort} picks from. */
  private static final int PICKED_PORTS = 12_000;
  private static final int MIN_PICKED_PORT = 10_000;

  private LocalProcesses() {
  }

  /**
   * The executable {@code name} from PATH, else from {@code moreDirs}.
   *
   * @throws IllegalStateException naming {@code installHint} when it is in none of them
   */
  public static String binary(String name, String installHint, String... moreDirs) {
    String dirs = System.getenv().getOrDefault("PATH", "") + ":" + String.join(":", moreDirs);
    for (String dir : dirs.split(":")) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, name);
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    throw new IllegalStateException(name + " is not installed (" + installHint + ")");
  }

  /**
   * A port of 127.0.0.1 free at the time of the call, for a process that binds it later (and
   * again when it restarts). It is picked at random below the kernel's ephemeral range
   * ({@code /proc/sys/net/ipv4/ip_local_port_range}, 32768 and up by default), so no outgoing
   * connection is given it as its local port in the meantime: a port the kernel handed out
   * itself ({@code bind(0)}) was, now and then, taken by one of etcd's own connections before
   * the member bound it ("address already in use"). Where the range leaves too little room below
   * it, the kernel picks.
   */
  public static int freePort() throws IOException {
    int high = ephemeralLow();
    int low = Math.max(MIN_PICKED_PORT, high - PICKED_PORTS);
    if (high - low >= PICKED_PORTS / 2) {
      for (int attempt = 0; attempt < 50; attempt++) {
        int port = low + ThreadLocalRandom.current().nextInt(high - low);
        try (ServerSocket s = new ServerSocket()) {
          s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
          return port;
        } catch (BindException e) {
          // in use: try another
        }
      }
    }
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** The lowest port of the kernel's ephemeral range; Linux's default when it cannot be read. */
  static int ephemeralLow() {
    try {
      return Integer.parseInt(Files.readString(EPHEMERAL_RANGE).trim().split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return 32_768;
    }
  }

  /** Whether something on 127.0.0.1 accepts connections on {@code port}. */
  public static boolean accepts(int port) {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
