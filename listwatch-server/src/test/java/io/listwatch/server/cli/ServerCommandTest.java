package io.listwatch.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import io.listwatch.server.tls.CertifiedKey;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./listwatch server} as a user runs it: a separate JVM that serves HTTPS with the
 * certificates it created in the data directory, prints where it listens and the KUBECONFIG
 * to use, and on SIGTERM ends open watches normally and keeps every acknowledged write.
 */
@EndToEnd
class ServerCommandTest {

  private static final Duration BOUND = Duration.ofSeconds(30);

  @TempDir
  Path dataDir;

  private HttpClient http;

  @Test
  void sigterm_endsWatchesNormally_andKeepsWrites_andReusesTheCertificates() throws Exception {
    String url;
    Path auditLog = dataDir.resolve("audit/audit.log");
    Process server = start("--secure-port", "0", "--audit-log-path", auditLog.toString());
    byte[] caFirstStart;
    try {
      List<String> printed = new ArrayList<>();
      url = awaitUrl(server, printed);
      assertThat(url).startsWith("https://127.0.0.1:");
      assertThat(printed).contains("  export KUBECONFIG=" + dataDir.resolve("kubeconfig.yaml").toAbsolutePath());
      caFirstStart = Files.readAllBytes(dataDir.resolve("tls/ca.crt"));
      http = adminClient();
      assertThat(post(url, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"kept\"}}"))
          .isEqualTo(201);
      HttpResponse<Stream<String>> watch = http.send(HttpRequest.newBuilder(
              URI.create(url + "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0")).build(),
          HttpResponse.BodyHandlers.ofLines());
      Iterator<String> lines = watch.body().iterator();
      assertThat(next(lines)).contains("\"type\":\"ADDED\"").contains("\"name\":\"kept\"");

      server.destroy(); // SIGTERM

      // the stream ends normally (a clean end of the chunked body), not with an I/O error
      CompletableFuture<Boolean> ended = CompletableFuture.supplyAsync(() -> {
        while (lines.hasNext()) {
          lines.next();
        }
        return true;
      });
      assertThat(ended.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(server.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)).as("server exited").isTrue();
      // --audit-log-path: the shutdown flushed every request, the watch's end included
      List<String> audit = Files.readAllLines(auditLog);
      assertThat(audit).anySatisfy(l -> assertThat(l).contains("\"verb\":\"create\"")
          .contains("\"user\":{\"username\":\"admin\"").contains("\"code\":201"));
      assertThat(audit).anySatisfy(l -> assertThat(l).contains("\"stage\":\"ResponseComplete\"")
          .contains("\"verb\":\"watch\""));
    } finally {
      server.destroyForcibly();
    }

    Process again = start("--secure-port", "0");
    try {
      String url2 = awaitUrl(again, new ArrayList<>());
      assertThat(Files.readAllBytes(dataDir.resolve("tls/ca.crt"))).as("the CA of the first start")
          .isEqualTo(caFirstStart);
      http = adminClient(); // the admin certificate of the first start still works
      HttpResponse<String> get = http.send(HttpRequest.newBuilder(
          URI.create(url2 + "/api/v1/namespaces/default/configmaps/kept")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(get.statusCode()).isEqualTo(200);
    } finally {
      again.destroy();
      again.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS);
      again.destroyForcibly();
    }
  }

  @Test
  void httpPort_servesPlainHttpOnLoopback_asTheClusterAdmin() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    Process server = start("--secure-port", "0", "--http-port", String.valueOf(port));
    try {
      List<String> printed = new ArrayList<>();
      awaitUrl(server, printed);
      assertThat(printed).anyMatch(l -> l.startsWith("plain HTTP listening on http://127.0.0.1:" + port + " "));
      http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      assertThat(post("http://127.0.0.1:" + port,
          "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"plain\"}}")).isEqualTo(201);
    } finally {
      server.destroy();
      server.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS);
      server.destroyForcibly();
    }
  }

  @Test
  void etcdServers_twoServerProcessesServeOneClusterFromEtcd() throws Exception {
    try (io.listwatch.storage.etcd.testing.EtcdServer etcd = io.listwatch.storage.etcd.testing.EtcdServer.start(
        dataDir.resolve("etcd"))) {
      int[] ports = new int[2];
      for (int i = 0; i < 2; i++) {
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
          ports[i] = free.getLocalPort();
        }
      }
      Process first = start("--secure-port", "0", "--http-port", String.valueOf(ports[0]),
          "--etcd-servers", etcd.endpoint().toString());
      Process second = startIn(dataDir.resolve("second"), "--secure-port", "0", "--http-port",
          String.valueOf(ports[1]), "--etcd-servers", etcd.endpoint().toString());
      try {
        awaitUrl(first, new ArrayList<>());
        awaitUrl(second, new ArrayList<>());
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

        assertThat(post("http://127.0.0.1:" + ports[0],
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"shared\"}}")).isEqualTo(201);

        HttpResponse<String> read = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports[1]
            + "/api/v1/namespaces/default/configmaps/shared")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        assertThat(post("http://127.0.0.1:" + ports[1],
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"shared\"}}"))
            .as("the second server sees the name taken").isEqualTo(409);
        // on etcd the servers elect one of them to run the controllers (--leader-elect defaults to true)
        URI lease = URI.create("http://127.0.0.1:" + ports[1]
            + "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/listwatch-controller-manager");
        HttpResponse<String> held = Await.until("the servers elect a leader", BOUND,
            () -> http.send(HttpRequest.newBuilder(lease).build(), HttpResponse.BodyHandlers.ofString()),
            r -> r.statusCode() != 404);
        assertThat(held.statusCode()).as(held.body()).isEqualTo(200);
        assertThat(held.body()).contains("\"holderIdentity\":\"", "\"leaseDurationSeconds\":15");
      } finally {
        for (Process p : List.of(first, second)) {
          p.destroy();
          p.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS);
          p.destroyForcibly();
        }
      }
    }
  }

  @Test
  void leaderElectTimings_thatCannotBeSafe_stopTheServerWithTheReason() {
    java.io.StringWriter err = new java.io.StringWriter();

    int exit = new picocli.CommandLine(new ServerCommand()).setErr(new java.io.PrintWriter(err, true)).execute(
        "--data-dir", dataDir.toString(), "--http-port", "0", "--leader-elect-renew-deadline", "20s");

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString()).isEqualTo("listwatch server: --leader-elect-*: leaseDuration must be greater than "
        + "renewDeadline" + System.lineSeparator());
  }

  @Test
  void ioThreads_belowOne_stopTheServerWithTheReason() {
    java.io.StringWriter err = new java.io.StringWriter();

    int exit = new picocli.CommandLine(new ServerCommand()).setErr(new java.io.PrintWriter(err, true)).execute(
        "--data-dir", dataDir.toString(), "--http-port", "0", "--io-threads", "0");

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString()).isEqualTo("listwatch server: --io-threads must be at least 1" + System.lineSeparator());
  }

  /** A client with the admin certificate the server wrote, trusting the server's CA. */
  private HttpClient adminClient() throws Exception {
    X509Certificate ca;
    try (var in = Files.newInputStream(dataDir.resolve("tls/ca.crt"))) {
      ca = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
    SSLContext ssl = CertifiedKey.read(dataDir.resolve("tls/admin.crt"), dataDir.resolve("tls/admin.key"))
        .clientSslContext(ca);
    return HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(5)).build();
  }

  private Process start(String... args) throws Exception {
    return startIn(dataDir, args);
  }

  private Process startIn(Path data, String... args) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx512m",
        "-cp", System.getProperty("java.class.path"), ServerCommand.class.getName(),
        "--data-dir", data.toString()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  /**
   * Reads the server's output until it prints the line after its address (the KUBECONFIG hint
   * or the plain-HTTP note); collects every line into {@code printed}; returns the address.
   */
  private static String awaitUrl(Process p, List<String> printed) throws Exception {
    BlockingQueue<String> out = new LinkedBlockingQueue<>();
    Thread.ofVirtual().start(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          out.add(line);
        }
      } catch (java.io.IOException e) {
        // the process ended
      }
    });
    long deadline = System.nanoTime() + BOUND.toNanos();
    String url = null;
    while (System.nanoTime() < deadline) {
      String line = out.poll(1, TimeUnit.SECONDS);
      if (line == null) {
        continue;
      }
      printed.add(line);
      if (line.startsWith("listwatch API server listening on ")) {
        url = line.substring("listwatch API server listening on ".length()).split(" ")[0];
      }
      if (url != null && line.startsWith("  kubectl ")) {
        return url;
      }
    }
    throw new AssertionError("the server did not print its address and the kubectl hint within " + BOUND
        + "; output:\n" + String.join("\n", printed));
  }

  private int post(String url, String json) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/namespaces/default/configmaps"))
            .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  private static String next(Iterator<String> lines) throws Exception {
    return CompletableFuture.supplyAsync(() -> lines.hasNext() ? lines.next() : "")
        .get(BOUND.toSeconds(), TimeUnit.SECONDS);
  }
}
