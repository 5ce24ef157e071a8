package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.server.authz.Decision;
import io.listwatch.server.filters.HandlerChain;
import io.listwatch.apiserver.registry.ResourceRegistry;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.rest.ApiRoutes;
import io.listwatch.storage.rocksdb.RocksDbStorage;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import io.listwatch.api.clock.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A WebSocket watch passes the same filters as any request before it is upgraded: without
 * credentials it gets 401, when not authorized 403, as an HTTP Status and not a 101. Runs
 * the connection's handlers on an in-memory channel as the secure listener would.
 */
class WebSocketAdmissionTest {

  @TempDir
  Path dir;
  private RocksDbStorage storage;
  private ApiRoutes routes;

  @BeforeEach
  void open() {
    storage = RocksDbStorage.builder(dir).open();
    routes = new ApiRoutes(ResourceRegistry.builtins(), storage, Map.of(), Clock.system());
  }

  @AfterEach
  void close() {
    storage.close();
  }

  /** Alice is who "Authorization: Bearer alice" says; she may not watch anything. */
  private HandlerChain chain() {
    return HandlerChain.builder()
        .authenticators(List.of(request -> "Bearer alice".equals(request.headers().get("Authorization"))
            ? Optional.of(new UserInfo("alice", "", List.of(), Map.of())) : Optional.empty()))
        .anonymousAuth(false)
        .authorizer(a -> Decision.noOpinion("no rule allows it"))
        .build();
  }

  private String answer(String... extraHeaders) {
    EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new HttpObjectAggregator(1 << 20),
        new ApiHandler(routes, chain(), ConnectionInfo.Listener.SECURE, new ConnectionOptions(
            ConnectionOptions.DEFAULT_IDLE_TIMEOUT,
            new io.listwatch.server.metrics.ServerMetrics(info -> true, io.listwatch.api.clock.Clock.system()).requests(),
            io.listwatch.api.clock.Clock.system())));
    StringBuilder req = new StringBuilder("GET /api/v1/namespaces/default/pods?watch=true HTTP/1.1\r\n"
        + "Host: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
        + "Sec-WebSocket-Key: " + RawWebSocket.KEY + "\r\n");
    for (String h : extraHeaders) {
      req.append(h).append("\r\n");
    }
    ch.writeInbound(Unpooled.copiedBuffer(req.append("\r\n"), StandardCharsets.US_ASCII));
    ch.runPendingTasks();
    StringBuilder out = new StringBuilder();
    ByteBuf b;
    while ((b = ch.readOutbound()) != null) {
      out.append(b.toString(StandardCharsets.UTF_8));
      b.release();
    }
    ch.finishAndReleaseAll();
    return out.toString();
  }

  @Test
  void webSocketWatch_withoutCredentials_is401_notUpgraded() {
    String answer = answer();

    assertThat(answer).startsWith("HTTP/1.1 401 ").contains("\"reason\":\"Unauthorized\"");
  }

  @Test
  void webSocketWatch_ofAUserWhoMayNotWatch_is403_notUpgraded() {
    String answer = answer("Authorization: Bearer alice");

    assertThat(answer).startsWith("HTTP/1.1 403 ").contains("\"reason\":\"Forbidden\"")
        .contains("User \\\"alice\\\" cannot watch resource \\\"pods\\\"");
  }
}
