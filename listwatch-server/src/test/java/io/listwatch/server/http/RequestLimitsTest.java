package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.server.ApiServer;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.server.filters.HandlerChain;
import io.listwatch.server.filters.MaxInFlightLimit;
import io.listwatch.server.filters.WatchLimit;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.testsupport.Await;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The in-flight and per-user watch limits over HTTP. On the plain listener every request acts
 * as system:masters, which kube never throttles; so the server's routes are also served here
 * on a listener of the secure kind without credentials, where requests act as
 * system:anonymous (anonymous auth on, AlwaysAllow) and are limited to one read-only request,
 * one mutating request and two watches.
 */
class RequestLimitsTest {

  private ApiServer server;
  private EventLoopGroup loop;
  private Channel listener;
  private HandlerChain chain;
  private WatchLimit watchLimit;
  private KubeHttp admin;
  private KubeHttp anonymous;

  @BeforeEach
  void start() {
    // a read at a resourceVersion the cache has not reached waits for it: a request held in
    // flight until the test writes something
    server = ApiServer.builder().cacherConfig(new CacherConfig(1000, Duration.ofMinutes(5), 1024,
        Duration.ofMinutes(1), Duration.ofSeconds(60))).build().start();
    watchLimit = new WatchLimit(2);
    chain = HandlerChain.builder().maxInFlight(new MaxInFlightLimit(1, 1)).watchLimit(watchLimit).build();
    loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    listener = new ServerBootstrap().group(loop).channel(NioServerSocketChannel.class)
        .childHandler(new HttpServerInitializer(server.routes(), chain, ConnectionInfo.Listener.SECURE,
            server.connectionOptions()))
        .bind("127.0.0.1", 0).syncUninterruptibly().channel();
    admin = new KubeHttp(server);
    anonymous = new KubeHttp("http://127.0.0.1:" + ((InetSocketAddress) listener.localAddress()).getPort());
  }

  @AfterEach
  void stop() {
    admin.close();
    anonymous.close();
    listener.close().syncUninterruptibly();
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    server.close();
  }

  @Test
  void readOverTheLimit_gets429WithRetryAfter_whileWritesAreCountedApart() throws Exception {
    String ns = admin.createNamespace("limits");
    String cms = "/api/v1/namespaces/" + ns + "/configmaps";
    // the service accounts controller writes the namespace's default account: wait for it, so
    // that no write but the test's own releases the held read
    Await.until("the namespace's default service account", KubeHttp.WAIT,
        () -> admin.get("/api/v1/namespaces/" + ns + "/serviceaccounts/default").code() == 200);
    // a write of the server's own (its start-up reconcilers, late on a busy machine) releases
    // the held read too: then hold another one, from the new resourceVersion
    CompletableFuture<HttpResponse<String>> held;
    for (int attempt = 1; ; attempt++) {
      long rv = admin.listResourceVersion(cms);
      CompletableFuture<HttpResponse<String>> read = HttpClient.newHttpClient().sendAsync(
          HttpRequest.newBuilder(URI.create(anonymousUrl() + cms + "?resourceVersion=" + (rv + 1))).build(),
          HttpResponse.BodyHandlers.ofString());
      Await.until("the held read is in flight (or released by another write)", KubeHttp.WAIT,
          () -> chain.inFlightLimit().readOnlyInFlight() == 1 || read.isDone());
      if (!read.isDone()) {
        held = read;
        break;
      }
      assertThat(attempt).as("held reads released by writes of the server's own").isLessThan(5);
    }

    KubeHttp.Response refused = anonymous.get(cms);
    JsonNode status = KubeHttp.assertFailureStatus(refused, 429, "TooManyRequests");
    assertThat(refused.headers().firstValue("retry-after")).hasValue("1");
    assertThat(status.path("message").asText()).isEqualTo("Too many requests, please try again later.");
    assertThat(status.path("details").path("retryAfterSeconds").asInt()).isEqualTo(1);

    // a write takes the mutating slot, not the read-only one; it also releases the held read
    anonymous.create(cms, KubeHttp.configMap("a"));
    assertThat(held.get(KubeHttp.WAIT.toMillis(), TimeUnit.MILLISECONDS).statusCode()).isEqualTo(200);
    Await.until("the read's slot is free", KubeHttp.WAIT, () -> chain.inFlightLimit().readOnlyInFlight() == 0);
    anonymous.get(cms + "/a").expect(200);

    PrometheusText m = PrometheusText.parse(admin.get("/metrics", "text/plain").body());
    assertThat(m.sum("apiserver_request_total", Map.of("verb", "LIST", "resource", "configmaps", "code", "429")))
        .isEqualTo(1);
  }

  @Test
  void writeOverTheLimit_gets429WithRetryAfter_whileReadsPass() {
    String ns = admin.createNamespace("limits");
    String cms = "/api/v1/namespaces/" + ns + "/configmaps";
    // hold the one mutating slot as a request being served would
    ApiRequest post = ApiRequests.from(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, cms),
        new ConnectionInfo(ConnectionInfo.Listener.SECURE, List.of(), null));
    HandlerChain.Admission held = chain.admit(post, server.routes().requestInfo(post));

    KubeHttp.Response refused = anonymous.post(cms, KubeHttp.configMap("refused"));
    KubeHttp.assertFailureStatus(refused, 429, "TooManyRequests");
    assertThat(refused.headers().firstValue("retry-after")).hasValue("1");
    assertThat(admin.get(cms + "/refused").code()).as("a refused write changes nothing").isEqualTo(404);
    anonymous.list(cms);

    held.release();
    anonymous.create(cms, KubeHttp.configMap("accepted"));
  }

  @Test
  void watches_areNotCountedInFlight_butAgainstTheUsersWatchLimit() {
    String ns = admin.createNamespace("limits");
    String cms = "/api/v1/namespaces/" + ns + "/configmaps";
    WatchStream first = anonymous.watch(cms);
    try (WatchStream second = anonymous.watch(cms)) {
      assertThat(watchLimit.watches("system:anonymous")).isEqualTo(2);
      // the read-only limit is 1 and two watches are open: they take none of it
      anonymous.list(cms);

      WatchStream third = anonymous.openWatch(cms);
      assertThat(third.code()).isEqualTo(429);
      assertThat(third.headers().firstValue("retry-after")).hasValue("1");
      KubeHttp.assertFailureStatus(KubeHttp.JSON.readTree(third.readAll()), 429, "TooManyRequests");
      third.close();

      first.close();
      Await.until("the closed watch frees its place", KubeHttp.WAIT,
          () -> watchLimit.watches("system:anonymous") == 1);
      try (WatchStream again = anonymous.watch(cms)) {
        anonymous.create(cms, KubeHttp.configMap("seen"));
        assertThat(KubeHttp.name(KubeHttp.obj(again.next()))).isEqualTo("seen");
        assertThat(KubeHttp.name(KubeHttp.obj(second.next()))).isEqualTo("seen");
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } finally {
      first.close();
    }
    Await.until("every watch's place is free", KubeHttp.WAIT, () -> watchLimit.watches("system:anonymous") == 0);
  }

  /**
   * A streamed list keeps its read-only slot until its last chunk is handed to the connection
   * (kube's handler holds its place while it writes): the slot used to be given back once the
   * head was written, so lists streaming to clients that do not read were never counted.
   */
  @Test
  void aListStillStreamingToAClientThatDoesNotRead_holdsItsSlot() throws Exception {
    String ns = admin.createNamespace("limits");
    String cms = "/api/v1/namespaces/" + ns + "/configmaps";
    String value = "x".repeat(500_000);
    for (int i = 0; i < 40; i++) { // a 20 MB list: more than the socket buffers hold
      admin.create(cms, KubeHttp.configMap("big" + i, Map.of(), Map.of("v", value)));
    }
    try (java.net.Socket slow = new java.net.Socket()) {
      slow.setReceiveBufferSize(4096);
      slow.connect(listener.localAddress());
      slow.getOutputStream().write(("GET " + cms + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
          .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      java.io.InputStream in = slow.getInputStream();
      StringBuilder statusLine = new StringBuilder();
      for (int c = in.read(); c != '\n' && c != -1; c = in.read()) {
        statusLine.append((char) c);
      }
      assertThat(statusLine.toString()).startsWith("HTTP/1.1 200"); // streaming: the head is out, then stalls
      KubeHttp.assertFailureStatus(anonymous.get(cms + "/big0"), 429, "TooManyRequests");
      assertThat(chain.inFlightLimit().readOnlyInFlight()).isEqualTo(1);
    }
    Await.until("the abandoned list's slot is free", KubeHttp.WAIT,
        () -> chain.inFlightLimit().readOnlyInFlight() == 0);
    anonymous.get(cms + "/big0").expect(200);
  }

  private String anonymousUrl() {
    return "http://127.0.0.1:" + ((InetSocketAddress) listener.localAddress()).getPort();
  }
}
