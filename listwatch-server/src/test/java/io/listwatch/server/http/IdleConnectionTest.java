package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.clock.FakeClock;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Connections with nothing to do are closed after the idle timeout, so clients that connect
 * and send nothing (or never finish a request) cannot hold file descriptors forever; a
 * connection with a watch open is never idle. The timeout is measured on the server's clock.
 */
class IdleConnectionTest {

  private static final Duration IDLE = Duration.ofSeconds(1);

  @Test
  void idleConnections_areClosed_whileOneWithAWatchIsServedOn() throws Exception {
    try (ApiServer server = ApiServer.builder().idleConnectionTimeout(IDLE).build().start();
        Socket watch = connect(server);
        Socket silent = connect(server);
        Socket trickle = connect(server);
        Socket served = connect(server)) {
      String ns;
      long rv;
      try (KubeHttp http = new KubeHttp(server)) {
        ns = http.createNamespace("idle");
        rv = http.listResourceVersion("/api/v1/namespaces/" + ns + "/configmaps");
      }
      String cms = "/api/v1/namespaces/" + ns + "/configmaps";
      RawHttp.writeGet(watch.getOutputStream(), cms + "?watch=true&resourceVersion=" + rv);
      assertThat(RawHttp.readHead(watch.getInputStream()).get("")).contains("200");

      // a request line and a header, never finished
      trickle.getOutputStream().write("GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
      // one request answered, then nothing more
      RawHttp.writeGet(served.getOutputStream(), "/version");
      Map<String, String> head = RawHttp.readHead(served.getInputStream());
      assertThat(head.get("")).contains("200");
      served.getInputStream().readNBytes(Integer.parseInt(head.get("content-length")));

      assertClosedByServer(silent);
      assertClosedByServer(trickle);
      assertClosedByServer(served);

      // the watch connection has been open as long as the others, with its watch running
      try (KubeHttp http = new KubeHttp(server)) {
        http.create(cms, KubeHttp.configMap("after-idle"));
      }
      String event = new String(RawHttp.readChunk(watch.getInputStream()), StandardCharsets.UTF_8);
      assertThat(event).startsWith("{\"type\":\"ADDED\"").contains("after-idle");
    }
  }

  @Test
  void idleTimeout_runsOnTheServersClock() throws Exception {
    FakeClock clock = new FakeClock();
    try (ApiServer server = ApiServer.builder().clock(clock).idleConnectionTimeout(Duration.ofHours(1)).build().start();
        Socket served = connect(server)) {
      RawHttp.writeGet(served.getOutputStream(), "/version");
      Map<String, String> head = RawHttp.readHead(served.getInputStream());
      assertThat(head.get("")).contains("200");
      served.getInputStream().readNBytes(Integer.parseInt(head.get("content-length")));

      // an hour passes on the server's clock, not on the wall clock. The server marks the
      // connection idle just after it writes the response, so the client may get here first:
      // then the hour counts from a later mark, and another hour must pass.
      served.setSoTimeout(200);
      int read = Await.until("the server closes the idle connection", KubeHttp.WAIT, () -> {
        clock.advance(Duration.ofHours(1).plusSeconds(1));
        return readOrTimeout(served);
      }, r -> r != -2);
      assertThat(read).as("end of stream: the server closed the idle connection").isEqualTo(-1);
    }
  }

  private static Socket connect(ApiServer server) throws IOException {
    Socket s = new Socket();
    s.setSoTimeout((int) KubeHttp.WAIT.toMillis());
    s.connect(new InetSocketAddress("127.0.0.1", server.port()), (int) KubeHttp.WAIT.toMillis());
    return s;
  }

  /** One byte, -1 at the end of the stream, or -2 when nothing came within the socket's timeout. */
  private static int readOrTimeout(Socket s) throws IOException {
    try {
      return s.getInputStream().read();
    } catch (java.net.SocketTimeoutException e) {
      return -2;
    }
  }

  /** Reads until the server closes the connection; the socket's read timeout bounds the wait. */
  private static void assertClosedByServer(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    assertThat(in.read()).as("end of stream: the server closed the idle connection").isEqualTo(-1);
  }
}
