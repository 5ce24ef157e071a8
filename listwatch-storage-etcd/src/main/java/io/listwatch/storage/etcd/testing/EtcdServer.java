package io.listwatch.storage.etcd.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real etcd member for tests and benchmarks: the {@code etcd} binary from PATH (Debian's
 * etcd-server package, which {@code ./listwatch test} installs when it may), in its own
 * process, listening on free ports of 127.0.0.1 with its data in a directory of the caller's.
 * {@link #start} runs a cluster of one; {@link EtcdCluster} runs several members. A member can
 * be stopped and started again on the same data and ports, or killed. Not thread-safe;
 * {@link #close} stops the process.
 */
public final class EtcdServer implements AutoCloseable {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private final Path dataDir;
  private final Path log;
  private final String name;
  private final int clientPort;
  private final int peerPort;
  /** etcd's --initial-cluster: every member's name=peer URL; set before the first start. */
  private String initialCluster;
  /** Serves clients over TLS, asking for client certificates; null: plain HTTP. */
  private Tls tls;

  /**
   * TLS for the client port: etcd's serving certificate and key, and the CA whose client
   * certificates it requires ({@code --client-cert-auth}). PEM files.
   */
  public record Tls(Path certificateFile, Path keyFile, Path clientCaFile) {
  }
  private Process process;

  EtcdServer(Path dir, String name) throws IOException {
    Files.createDirectories(dir);
    this.name = name;
    this.dataDir = dir.resolve("etcd-data");
    this.log = dir.resolve("etcd.log");
    this.clientPort = LocalProcesses.freePort();
    this.peerPort = LocalProcesses.freePort();
  }

  String peerUrl() {
    return "http://127.0.0.1:" + peerPort;
  }

  String name() {
    return name;
  }

  void initialCluster(String members) {
    this.initialCluster = members;
  }

  /**
   * Starts etcd with its data under {@code dir} and waits until it answers.
   *
   * @throws IllegalStateException when etcd is not installed or does not come up
   */
  public static EtcdServer start(Path dir) throws IOException, InterruptedException {
    return start(dir, null);
  }

  /** As {@link #start(Path)}; with {@code tls} not null, clients must connect over TLS with a certificate. */
  public static EtcdServer start(Path dir, Tls tls) throws IOException, InterruptedException {
    EtcdServer server = new EtcdServer(dir, "listwatch-test");
    server.tls = tls;
    server.initialCluster(server.name + "=" + server.peerUrl());
    server.launch();
    server.awaitListening();
    return server;
  }

  /** The client URL, {@code http://127.0.0.1:<port>} ({@code https} with TLS). */
  public URI endpoint() {
    return URI.create((tls == null ? "http" : "https") + "://127.0.0.1:" + clientPort);
  }

  /** The etcd process's id, for measuring its CPU; -1 while it is not running. */
  public long pid() {
    return process == null ? -1 : process.pid();
  }

  /** Stops etcd gracefully (SIGTERM) and waits for it to exit; its data stays. */
  public void stop() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroy();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
    process = null;
  }

  /** Kills etcd (SIGKILL), as a crash would. */
  public void kill() throws InterruptedException {
    if (process != null) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    process = null;
  }

  /** Starts etcd again on the same data directory and ports, and waits until it answers. */
  public void restart() throws IOException, InterruptedException {
    stop();
    startProcess();
  }

  private void startProcess() throws IOException, InterruptedException {
    launch();
    awaitListening();
  }

  /** Starts the process; a member of a new cluster waits for the others before it listens. */
  void launch() throws IOException {
    String client = endpoint().toString();
    List<String> command = new ArrayList<>(List.of(LocalProcesses.binary("etcd",
        "Debian: apt-get install etcd-server; ./listwatch test installs it when run as root"),
        "--name", name,
        "--data-dir", dataDir.toString(),
        "--listen-client-urls", client, "--advertise-client-urls", client,
        "--listen-peer-urls", peerUrl(), "--initial-advertise-peer-urls", peerUrl(),
        "--initial-cluster", initialCluster,
        "--log-level", "warn"));
    if (tls != null) {
      command.addAll(List.of("--cert-file", tls.certificateFile().toString(), "--key-file", tls.keyFile().toString(),
          "--trusted-ca-file", tls.clientCaFile().toString(), "--client-cert-auth"));
    }
    process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
  }

  /** Waits until the client port accepts connections. */
  void awaitListening() throws InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (!LocalProcesses.accepts(clientPort)) {
      if (!process.isAlive()) {
        throw new IllegalStateException("etcd exited with " + process.exitValue() + "; its log:\n" + tail());
      }
      if (System.nanoTime() > deadline) {
        close();
        throw new IllegalStateException("etcd did not listen on " + endpoint() + " within " + START_TIMEOUT
            + "; its log:\n" + tail());
      }
      Thread.sleep(20); // polling a port that is about to open; bounded by the deadline
    }
  }

  /** The last 30 lines of this member's log. */
  String tail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
