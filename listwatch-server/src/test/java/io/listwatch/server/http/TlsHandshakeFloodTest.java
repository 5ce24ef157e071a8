package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.ApiServer;
import io.listwatch.server.tls.TlsConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that opens thousands of TLS connections: 2,000 that never start their handshake and
 * a stream of complete handshakes that never send a request. The stalled ones are closed once
 * the handshake timeout passes, the completed ones once idle, and a well-behaved client is
 * served throughout.
 */
class TlsHandshakeFloodTest {

  private static final int STALLED = 2_000;
  private static final int COMPLETED = 200;
  private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(2);

  @Test
  void thousandsOfHandshakes_areBounded_andOthersAreServed(@TempDir Path dir) throws Exception {
    try (ApiServer server = ApiServer.builder().dataDir(dir).idleConnectionTimeout(Duration.ofSeconds(2))
        .tls(TlsConfig.DEFAULTS.withHandshakeTimeout(HANDSHAKE_TIMEOUT)).build().start()) {
      SSLContext admin = server.clientSslContext("admin", "system:masters");
      SSLContext stranger = server.clientSslContext("flood", "flooders");
      List<Socket> stalled = new ArrayList<>();
      List<Socket> completed = new ArrayList<>();
      try {
        for (int i = 0; i < STALLED; i++) {
          stalled.add(new Socket("127.0.0.1", server.port()));
        }
        AtomicInteger handshakes = new AtomicInteger();
        CompletableFuture<Void> flood = CompletableFuture.runAsync(() -> {
          for (int i = 0; i < COMPLETED; i++) {
            try {
              SSLSocket s = (SSLSocket) stranger.getSocketFactory().createSocket("127.0.0.1", server.port());
              synchronized (completed) {
                completed.add(s);
              }
              s.setSoTimeout((int) KubeHttp.WAIT.toMillis());
              s.startHandshake();
              handshakes.incrementAndGet();
            } catch (IOException e) {
              throw new IllegalStateException(e);
            }
          }
        });
        // meanwhile, someone else is served
        assertThat(get(admin, server.port())).startsWith("HTTP/1.1 200").contains("gitVersion");
        flood.get(2 * KubeHttp.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(handshakes).hasValue(COMPLETED);

        for (Socket s : stalled) {
          s.setSoTimeout((int) KubeHttp.WAIT.toMillis());
          assertThat(closedByServer(s)).as("a stalled handshake is closed").isTrue();
        }
        for (Socket s : completed) {
          assertThat(closedByServer(s)).as("an idle TLS connection is closed").isTrue();
        }
        assertThat(get(admin, server.port())).startsWith("HTTP/1.1 200");
      } finally {
        for (Socket s : stalled) {
          s.close();
        }
        for (Socket s : completed) {
          s.close();
        }
      }
    }
  }

  private static String get(SSLContext ctx, int port) throws IOException {
    try (SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", port)) {
      s.setSoTimeout((int) KubeHttp.WAIT.toMillis());
      s.getOutputStream().write("GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }

  /** True when the server ends the connection (EOF or reset) within the socket's read timeout. */
  private static boolean closedByServer(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    try {
      while (in.read() >= 0) {
        // a TLS alert or close_notify
      }
      return true;
    } catch (SocketException reset) {
      return true;
    } catch (java.net.SocketTimeoutException open) {
      return false;
    }
  }
}
