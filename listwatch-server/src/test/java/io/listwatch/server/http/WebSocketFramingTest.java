package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.server.ApiServer;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * WebSocket watches seen as bytes on a socket: the handshake answer, one unfragmented text
 * frame per event, and what happens to clients that break the protocol (garbage after the
 * upgrade, oversized frames, bad handshakes): their connection is closed and their watch
 * removed.
 */
@ExtendWith(ApiServerExtension.class)
class WebSocketFramingTest {

  private static ApiServer server;
  private static KubeHttp http;

  @BeforeAll
  static void connect(ApiServer s) {
    server = s;
    http = new KubeHttp(s);
  }

  @AfterAll
  static void disconnect() {
    http.close();
  }

  private static Socket connect() throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", server.port()), (int) KubeHttp.WAIT.toMillis());
    s.setSoTimeout((int) KubeHttp.WAIT.toMillis());
    return s;
  }

  /** Upgrades a watch on {@code pathAndQuery}; asserts the 101 head. */
  private static Socket upgradedWatch(String pathAndQuery) throws IOException {
    Socket s = connect();
    RawWebSocket.writeUpgrade(s.getOutputStream(), pathAndQuery);
    Map<String, String> head = RawHttp.readHead(s.getInputStream());
    assertThat(head.get("")).startsWith("HTTP/1.1 101");
    assertThat(head.get("upgrade")).isEqualToIgnoringCase("websocket");
    assertThat(head.get("sec-websocket-accept")).isEqualTo(RawWebSocket.ACCEPT);
    return s;
  }

  /** Reads until the server closes the connection; fails if it stays open past the bound. */
  private static List<RawWebSocket.Frame> framesUntilClosed(Socket s) throws IOException {
    List<RawWebSocket.Frame> frames = new ArrayList<>();
    InputStream in = s.getInputStream();
    try {
      while (true) {
        frames.add(RawWebSocket.readFrame(in));
      }
    } catch (SocketTimeoutException e) {
      fail("the server did not close the connection within " + KubeHttp.WAIT + "; frames: " + frames.size());
    } catch (IOException e) {
      // end of stream or reset: closed
    }
    return frames;
  }

  @Test
  void upgrade_answers101_thenOneUnfragmentedTextFramePerEvent_evenForEventsWrittenTogether() throws Exception {
    String ns = http.createNamespace("raw-frames");
    String cms = "/api/v1/namespaces/" + ns + "/configmaps";
    for (int i = 0; i < 20; i++) {
      http.create(cms, configMap(String.format("cm-%02d", i), Map.of(), Map.of("data", "x".repeat(i * 150))));
    }

    // the initial events go out in batches holding many events: each must still be its own frame
    try (Socket s = upgradedWatch(cms + "?watch=true&resourceVersion=0")) {
      for (int i = 0; i < 20; i++) {
        RawWebSocket.Frame f = RawWebSocket.readFrame(s.getInputStream());
        assertThat(f.fin()).as("unfragmented").isTrue();
        assertThat(f.opcode()).as("a text frame").isEqualTo(RawWebSocket.TEXT);
        String text = f.text();
        assertThat(text.indexOf('\n')).as("exactly one event line: %s", KubeHttp.abbreviate(text))
            .isEqualTo(text.length() - 1);
        JsonNode event = KubeHttp.object(text);
        assertThat(KubeHttp.describe(event)).isEqualTo(String.format("ADDED cm-%02d", i));
      }
    }
  }

  @Test
  void upgrade_acceptsAConnectionHeaderWithSeveralTokens() throws Exception {
    String ns = http.createNamespace("raw-tokens");
    try (Socket s = connect()) {
      RawWebSocket.writeUpgrade(s.getOutputStream(), "/api/v1/namespaces/" + ns + "/configmaps?watch=true",
          "Connection: keep-alive, Upgrade", "Upgrade: websocket", "Sec-WebSocket-Version: 13",
          "Sec-WebSocket-Key: " + RawWebSocket.KEY, "Origin: http://127.0.0.1");
      assertThat(RawHttp.readHead(s.getInputStream()).get("")).startsWith("HTTP/1.1 101");
    }
  }

  @Test
  void garbageAfterTheUpgrade_closesTheConnection_andRemovesTheWatcher() throws Exception {
    String ns = http.createNamespace("raw-garbage");
    Cacher secrets = server.cacher("", "secrets");
    try (Socket s = upgradedWatch("/api/v1/namespaces/" + ns + "/secrets?watch=true")) {
      Await.until("the watch is registered", KubeHttp.WAIT, () -> secrets.watcherCount() == 1);

      OutputStream out = s.getOutputStream();
      out.write("GET /api/v1/pods HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();

      List<RawWebSocket.Frame> frames = framesUntilClosed(s);
      assertThat(frames).extracting(RawWebSocket.Frame::opcode).containsOnly(RawWebSocket.CLOSE);
      Await.until("the watcher is removed", KubeHttp.WAIT, () -> secrets.watcherCount() == 0);
    }
  }

  @Test
  void frameOverTheSizeLimit_closesTheConnection_andRemovesTheWatcher() throws Exception {
    String ns = http.createNamespace("raw-oversized");
    Cacher services = server.cacher("", "services");
    try (Socket s = upgradedWatch("/api/v1/namespaces/" + ns + "/services?watch=true")) {
      Await.until("the watch is registered", KubeHttp.WAIT, () -> services.watcherCount() == 1);

      byte[] big = RawWebSocket.clientFrame(RawWebSocket.TEXT, new byte[WebSocketUpgrade.MAX_CLIENT_FRAME_BYTES + 1]);
      try {
        s.getOutputStream().write(big);
      } catch (IOException e) {
        // the server may close while the frame is still being sent
      }

      List<RawWebSocket.Frame> frames = framesUntilClosed(s);
      assertThat(frames).extracting(RawWebSocket.Frame::opcode).containsOnly(RawWebSocket.CLOSE);
      assertThat(frames).extracting(RawWebSocket.Frame::closeStatus).containsOnly(1009);
      Await.until("the watcher is removed", KubeHttp.WAIT, () -> services.watcherCount() == 0);
    }
  }

  @Test
  void frameWithinTheSizeLimit_isIgnored() throws Exception {
    String ns = http.createNamespace("raw-small");
    String cms = "/api/v1/namespaces/" + ns + "/configmaps";
    long start = http.listResourceVersion(cms);
    try (Socket s = upgradedWatch(cms + "?watch=true&resourceVersion=" + start)) {
      s.getOutputStream().write(RawWebSocket.clientFrame(RawWebSocket.TEXT,
          new byte[WebSocketUpgrade.MAX_CLIENT_FRAME_BYTES]));
      http.create(cms, configMap("after"));
      assertThat(KubeHttp.describe(KubeHttp.object(RawWebSocket.readFrame(s.getInputStream()).text())))
          .isEqualTo("ADDED after");
    }
  }

  @Test
  void upgradeWithoutKey_orWithAnUnknownVersion_isABadRequestStatus() throws Exception {
    String path = "/api/v1/configmaps?watch=true";
    try (Socket noKey = connect(); Socket oldVersion = connect()) {
      RawWebSocket.writeUpgrade(noKey.getOutputStream(), path, "Connection: Upgrade", "Upgrade: websocket",
          "Sec-WebSocket-Version: 13");
      RawWebSocket.writeUpgrade(oldVersion.getOutputStream(), path, "Connection: Upgrade", "Upgrade: websocket",
          "Sec-WebSocket-Version: 99", "Sec-WebSocket-Key: " + RawWebSocket.KEY);

      Map<String, String> noKeyHead = RawHttp.readHead(noKey.getInputStream());
      Map<String, String> oldHead = RawHttp.readHead(oldVersion.getInputStream());
      assertThat(noKeyHead.get("")).startsWith("HTTP/1.1 400");
      assertThat(noKeyHead.get("content-type")).isEqualTo("application/json");
      assertThat(oldHead.get("")).startsWith("HTTP/1.1 400");
      assertThat(oldHead.get("sec-websocket-version")).isEqualTo("13");
      byte[] body = oldVersion.getInputStream().readNBytes(Integer.parseInt(oldHead.get("content-length")));
      KubeHttp.assertFailureStatus(KubeHttp.object(new String(body, StandardCharsets.UTF_8)), 400, "BadRequest");
    }
  }
}
