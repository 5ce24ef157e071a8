package io.listwatch.bench.chaos;

import io.listwatch.bench.ChildJvm;
import io.listwatch.bench.ServerJvm;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One API server ({@code ./listwatch server}) in a child JVM, as a {@link Node}: its plain-HTTP
 * port is fixed when the node is made, so clients keep its URL across restarts, and each
 * incarnation logs to a file of its own ({@code server-N.K.log}).
 *
 * <p>Thread-safe.
 */
final class ServerNode implements Node {

  private final String name;
  private final Path dir;
  private final int httpPort;
  private final List<String> storageOptions;
  private int incarnation;
  private ServerJvm jvm;

  /** A server named {@code name}, data and logs under {@code dir}, storing in the embedded store or as {@code storageOptions} say. */
  ServerNode(String name, Path dir, int httpPort, List<String> storageOptions) throws IOException {
    this.name = name;
    this.dir = Files.createDirectories(dir);
    this.httpPort = httpPort;
    this.storageOptions = List.copyOf(storageOptions);
  }

  @Override
  public String name() {
    return name;
  }

  /** Its plain-HTTP URL, the same across restarts. */
  URI url() {
    return URI.create("http://127.0.0.1:" + httpPort);
  }

  @Override
  public synchronized long pid() {
    return jvm == null ? -1 : jvm.pid();
  }

  @Override
  public synchronized void start() throws IOException, InterruptedException {
    if (jvm != null) {
      return;
    }
    List<String> args = new ArrayList<>(List.of("--data-dir", dir.resolve("data").toString(),
        "--bind-address", "127.0.0.1", "--secure-port", "0", "--http-port", Integer.toString(httpPort)));
    args.addAll(storageOptions);
    List<String> jvmOptions = ChildJvm.withOptions(ChildJvm.standardOptions("384m"),
        List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
    jvm = ServerJvm.start("io.listwatch.server.cli.ServerCommand", args, jvmOptions, Set.of("http"),
        dir.resolve(name + "." + (incarnation++) + ".log"));
  }

  @Override
  public void kill() throws InterruptedException {
    ServerJvm j;
    synchronized (this) {
      j = jvm;
      jvm = null;
    }
    if (j != null) {
      ProcessHandle.of(j.pid()).ifPresent(ProcessHandle::destroyForcibly);
      j.close(); // the process is gone: only reaps it
    }
  }

  @Override
  public void close() throws InterruptedException {
    ServerJvm j;
    synchronized (this) {
      try {
        signal("CONT"); // a paused JVM would not see the SIGTERM that stops it
      } catch (IOException e) {
        // it is gone
      }
      j = jvm;
      jvm = null;
    }
    if (j != null) {
      j.close();
    }
  }

  @Override
  public synchronized String toString() {
    return name + (jvm == null ? " (down)" : " (pid " + jvm.pid() + ")");
  }
}
