package io.listwatch.server.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.clock.FakeClock;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Events go an hour (kube's {@code --event-ttl}) after their last write, through both API groups,
 * as the server's clock moves; an Event written again lives on, and a restart does not make one
 * live longer.
 */
class EventTtlTest {

  private static final String CORE = "/api/v1/namespaces/default/events";
  private static final String EVENTS_V1 = "/apis/events.k8s.io/v1/namespaces/default/events";

  /**
   * One request on a connection of its own: the server closes idle connections on its clock,
   * which the test moves by many minutes at a time.
   */
  private static int send(ApiServer server, String method, String path, String body) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      return http.send(HttpRequest.newBuilder(URI.create(server.url() + path))
          .header("Content-Type", method.equals("PATCH") ? "application/merge-patch+json" : "application/json")
          .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
          .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
  }

  private static String coreEvent(String name) {
    return """
        {"apiVersion":"v1","kind":"Event","metadata":{"name":"%s"},
         "involvedObject":{"kind":"Pod","name":"p","namespace":"default"},"reason":"Started","message":"m",
         "type":"Normal","source":{"component":"test"},"count":1}""".formatted(name);
  }

  @Test
  void eventsExpireAnHourAfterTheirLastWrite_inBothGroups_andAcrossARestart(@TempDir Path dir) throws Exception {
    FakeClock clock = new FakeClock(Instant.parse("2026-11-29T12:00:00Z"));
    try (ApiServer server = ApiServer.builder().dataDir(dir).clock(clock).build().start()) {
      assertThat(send(server, "POST", CORE, coreEvent("written-once"))).isEqualTo(201);
      assertThat(send(server, "POST", CORE, coreEvent("written-again"))).isEqualTo(201);
      assertThat(send(server, "POST", EVENTS_V1, """
          {"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"v1-event"},
           "eventTime":"2026-11-29T12:00:00.000000Z","reportingController":"example.com/test","reportingInstance":"i",
           "action":"Started","reason":"Started","regarding":{"kind":"Pod","name":"p","namespace":"default"},
           "type":"Normal"}""")).isEqualTo(201);
      assertThat(send(server, "POST", "/api/v1/namespaces/default/configmaps",
          "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"not-an-event\"}}")).isEqualTo(201);

      clock.advance(Duration.ofMinutes(40));
      assertThat(send(server, "PATCH", CORE + "/written-again", "{\"count\":2}")).isEqualTo(200);
      clock.advance(Duration.ofMinutes(25)); // 65 min after the first writes, 25 after the second
      Await.until("the Events last written 65 minutes ago are deleted", Duration.ofSeconds(20),
          () -> send(server, "GET", CORE + "/written-once", null) == 404
              && send(server, "GET", EVENTS_V1 + "/v1-event", null) == 404);
      assertThat(send(server, "GET", CORE + "/written-again", null)).isEqualTo(200);
      assertThat(send(server, "GET", "/api/v1/namespaces/default/configmaps/not-an-event", null))
          .isEqualTo(200);
    }
    // 25 minutes into its hour when the server stopped: a new server counts from that write, not from its start
    try (ApiServer server = ApiServer.builder().dataDir(dir).clock(clock).build().start()) {
      clock.advance(Duration.ofMinutes(20));
      assertThat(send(server, "GET", CORE + "/written-again", null)).isEqualTo(200);
      clock.advance(Duration.ofMinutes(20)); // 65 min after its last write
      Await.until("the Event written again is deleted an hour after that write", Duration.ofSeconds(20),
          () -> send(server, "GET", CORE + "/written-again", null) == 404);
    }
  }
}
