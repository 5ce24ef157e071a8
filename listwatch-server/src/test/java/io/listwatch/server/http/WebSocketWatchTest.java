package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.assertFailureStatus;
import static io.listwatch.server.http.KubeHttp.configMap;
import static io.listwatch.server.http.KubeHttp.describe;
import static io.listwatch.server.http.KubeHttp.obj;
import static io.listwatch.server.http.KubeHttp.q;
import static io.listwatch.server.http.KubeHttp.type;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Watches over WebSocket, with the JDK's WebSocket client: the upgrade happens after the
 * watch's options were accepted, each event is one text message holding exactly the event
 * line of the streamed form, and the WebSocket control messages (Ping, Close) and the
 * watch's own end (timeout, 410) behave as a client expects.
 */
@ExtendWith(ApiServerExtension.class)
class WebSocketWatchTest {

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

  private static String cms(String ns) {
    return "/api/v1/namespaces/" + ns + "/configmaps";
  }

  private static ObjectNode labelsPatch(String key, String value) {
    ObjectNode patch = KubeHttp.JSON.createObjectNode();
    patch.putObject("metadata").putObject("labels").put(key, value);
    return patch;
  }

  @Test
  void webSocketWatch_sendsEachEventAsOneMessage_addedModifiedDeleted() {
    String ns = http.createNamespace("ws-events");
    long start = http.listResourceVersion(cms(ns));

    try (WebSocketClient ws = WebSocketClient.open(server.url(), cms(ns) + "?resourceVersion=" + start)) {
      assertThat(server.webSocketWatches()).anySatisfy(p -> assertThat(p).startsWith(cms(ns) + "?"));
      http.create(cms(ns), configMap("a"));
      http.mergePatch(cms(ns) + "/a", labelsPatch("tier", "web"));
      http.delete(cms(ns) + "/a");

      String added = ws.nextMessage();
      String modified = ws.nextMessage();
      String deleted = ws.nextMessage();
      for (String m : new String[] {added, modified, deleted}) {
        assertThat(m).as("a message is one event line, ending with its newline").endsWith("}\n");
        assertThat(m.indexOf('\n')).as("one event per message").isEqualTo(m.length() - 1);
      }
      JsonNode a = KubeHttp.object(added);
      JsonNode mod = KubeHttp.object(modified);
      JsonNode d = KubeHttp.object(deleted);
      assertThat(describe(a)).isEqualTo("ADDED a");
      assertThat(describe(mod)).isEqualTo("MODIFIED a");
      assertThat(obj(mod).path("metadata").path("labels").path("tier").asText()).isEqualTo("web");
      assertThat(describe(d)).isEqualTo("DELETED a");
      assertThat(obj(a).path("kind").asText()).isEqualTo("ConfigMap");
      assertThat(ws.messages).as("nothing else was sent").isEmpty();
    }
  }

  @Test
  void webSocketWatch_fromResourceVersionZero_sendsExistingObjectsOneMessageEach() {
    String ns = http.createNamespace("ws-initial");
    for (int i = 0; i < 5; i++) {
      http.create(cms(ns), configMap("cm-" + i));
    }

    try (WebSocketClient ws = WebSocketClient.open(server.url(), cms(ns) + "?resourceVersion=0")) {
      for (int i = 0; i < 5; i++) {
        assertThat(describe(ws.nextEvent())).isEqualTo("ADDED cm-" + i);
      }
    }
  }

  @Test
  void webSocketWatch_appliesLabelAndFieldSelectors() {
    String ns = http.createNamespace("ws-selectors");
    long start = http.listResourceVersion(cms(ns));

    try (WebSocketClient byLabel = WebSocketClient.open(server.url(),
            cms(ns) + "?resourceVersion=" + start + "&labelSelector=" + q("app=web"));
        WebSocketClient byField = WebSocketClient.open(server.url(),
            cms(ns) + "?resourceVersion=" + start + "&fieldSelector=" + q("metadata.name=db"))) {
      http.create(cms(ns), configMap("web", Map.of("app", "web"), Map.of()));
      http.create(cms(ns), configMap("db", Map.of("app", "db"), Map.of()));

      assertThat(describe(byLabel.nextEvent())).isEqualTo("ADDED web");
      assertThat(describe(byField.nextEvent())).isEqualTo("ADDED db");
      // a later event each proves the first was the only one that matched
      http.create(cms(ns), configMap("web2", Map.of("app", "web"), Map.of()));
      http.mergePatch(cms(ns) + "/db", labelsPatch("tier", "data"));
      assertThat(describe(byLabel.nextEvent())).isEqualTo("ADDED web2");
      assertThat(describe(byField.nextEvent())).isEqualTo("MODIFIED db");
    }
  }

  @Test
  void webSocketWatch_withAllowWatchBookmarks_getsBookmarkMessages() {
    CacherConfig fastBookmarks = new CacherConfig(1_000, Duration.ofMinutes(5), 1_024, Duration.ofSeconds(1),
        Duration.ofSeconds(3));
    try (ApiServer s = ApiServer.builder().cacherConfig(fastBookmarks).build().start();
        KubeHttp h = new KubeHttp(s)) {
      String ns = h.createNamespace("ws-bookmarks");
      long start = h.listResourceVersion(cms(ns));
      try (WebSocketClient ws = WebSocketClient.open(s.url(),
          cms(ns) + "?allowWatchBookmarks=true&resourceVersion=" + start)) {
        JsonNode bookmark = ws.nextEvent();
        assertThat(type(bookmark)).isEqualTo("BOOKMARK");
        assertThat(obj(bookmark).path("kind").asText()).isEqualTo("ConfigMap");
        assertThat(Long.parseLong(obj(bookmark).path("metadata").path("resourceVersion").asText()))
            .isGreaterThanOrEqualTo(start);
      }
    }
  }

  @Test
  void webSocketWatch_fromResourceVersionOlderThanTheHistory_sendsExpiredErrorMessage_thenCloses() {
    CacherConfig smallHistory = new CacherConfig(10, Duration.ofMinutes(5), 1_024, Duration.ofMinutes(1),
        Duration.ofSeconds(3));
    try (ApiServer small = ApiServer.builder().cacherConfig(smallHistory).build().start();
        KubeHttp h = new KubeHttp(small)) {
      String ns = h.createNamespace("ws-too-old");
      long start = h.listResourceVersion(cms(ns));
      for (int i = 0; i < 15; i++) {
        h.create(cms(ns), configMap("cm-" + i));
      }
      h.list(cms(ns)); // the cache has seen all 15

      try (WebSocketClient ws = WebSocketClient.open(small.url(), cms(ns) + "?resourceVersion=" + start)) {
        JsonNode error = ws.nextEvent();
        assertThat(type(error)).isEqualTo("ERROR");
        assertFailureStatus(obj(error), 410, "Expired");
        assertThat(ws.awaitClose()).as("a normal closure after the ERROR").isEqualTo(1000);
        assertThat(ws.messages).isEmpty();
      }
    }
  }

  @Test
  void webSocketWatch_withTimeoutSeconds_endsWithANormalClosure() {
    String ns = http.createNamespace("ws-timeout");

    try (WebSocketClient ws = WebSocketClient.open(server.url(), cms(ns) + "?timeoutSeconds=1")) {
      assertThat(ws.awaitClose()).isEqualTo(1000);
    }
  }

  @Test
  void webSocketWatch_closedByTheClient_endsTheWatch() throws Exception {
    String ns = http.createNamespace("ws-close");
    Cacher secrets = server.cacher("", "secrets");
    String path = "/api/v1/namespaces/" + ns + "/secrets";

    try (WebSocketClient ws = WebSocketClient.open(server.url(), path)) {
      Await.until("the watch is registered", KubeHttp.WAIT, () -> secrets.watcherCount() == 1);

      ws.socket().sendClose(WebSocket.NORMAL_CLOSURE, "done");

      assertThat(ws.awaitClose()).as("the server answers the Close").isEqualTo(WebSocket.NORMAL_CLOSURE);
      Await.until("the watcher is removed", KubeHttp.WAIT, () -> secrets.watcherCount() == 0);
      Await.until("no WebSocket watch is left", KubeHttp.WAIT,
          () -> server.webSocketWatches().stream().noneMatch(p -> p.startsWith(path)));
    }
  }

  @Test
  void webSocketWatch_answersPingWithPong_andIgnoresClientMessages() {
    String ns = http.createNamespace("ws-ping");
    long start = http.listResourceVersion(cms(ns));

    try (WebSocketClient ws = WebSocketClient.open(server.url(), cms(ns) + "?resourceVersion=" + start)) {
      ws.socket().sendText("{\"type\":\"ignored\"}", true).join();
      ws.socket().sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3}), true).join();
      ws.socket().sendPing(ByteBuffer.wrap("are you there".getBytes(StandardCharsets.US_ASCII))).join();

      ByteBuffer pong = WebSocketClient.poll(ws.pongs, "a Pong");
      assertThat(StandardCharsets.US_ASCII.decode(pong).toString()).isEqualTo("are you there");
      http.create(cms(ns), configMap("after-ping"));
      assertThat(describe(ws.nextEvent())).as("the watch goes on").isEqualTo("ADDED after-ping");
    }
  }

  @Test
  void webSocketWatch_offeringKubeSubprotocols_selectsTheFirstOffered_andSendsPlainJson() {
    String ns = http.createNamespace("ws-subprotocols");
    long start = http.listResourceVersion(cms(ns));

    try (WebSocketClient base64 = WebSocketClient.open(server.url(), cms(ns) + "?resourceVersion=" + start,
            "base64.channel.k8s.io", "channel.k8s.io");
        WebSocketClient v4 = WebSocketClient.open(server.url(), cms(ns) + "?resourceVersion=" + start,
            "x-unknown", "v4.channel.k8s.io");
        WebSocketClient unknown = WebSocketClient.open(server.url(), cms(ns) + "?resourceVersion=" + start,
            "x-unknown")) {
      assertThat(base64.socket().getSubprotocol()).isEqualTo("base64.channel.k8s.io");
      assertThat(v4.socket().getSubprotocol()).isEqualTo("v4.channel.k8s.io");
      assertThat(unknown.socket().getSubprotocol()).as("none selected").isEmpty();

      http.create(cms(ns), configMap("a"));
      for (WebSocketClient ws : new WebSocketClient[] {base64, v4, unknown}) {
        assertThat(describe(ws.nextEvent())).isEqualTo("ADDED a");
      }
    }
  }

  @Test
  void webSocketWatch_withBadOptionsOrUnknownResource_isRefusedWithAStatus_notUpgraded() {
    HttpResponse<?> badSelector = WebSocketClient.refused(server.url(), "/api/v1/configmaps?labelSelector="
        + q("a in (b"));
    HttpResponse<?> unknown = WebSocketClient.refused(server.url(), "/api/v1/nothings");

    assertThat(badSelector.statusCode()).isEqualTo(400);
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(badSelector.headers().firstValue("content-type")).hasValue("application/json");
  }
}
