package io.listwatch.storage.etcd.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the helpers that run real programs for tests and benchmarks (etcd here, HAProxy in the
 * server's {@code testing} package) need alike: the program's binary, a free port of
 * 127.0.0.1, and whether a port accepts connections yet. Stateless.
 */
public final class LocalProcesses {

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

  /** A port of 127.0.0.1 free at the time of the call. */
  public static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
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
