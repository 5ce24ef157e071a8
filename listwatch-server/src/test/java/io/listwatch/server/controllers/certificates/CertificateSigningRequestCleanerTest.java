package io.listwatch.server.controllers.certificates;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.tls.CertificateAuthority;
import io.listwatch.server.tls.CertifiedKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** kube's cleaner_test.go cases: which requests the cleaner deletes, by the injected time. */
class CertificateSigningRequestCleanerTest {

  private static final Instant NOW = Instant.parse("2026-11-28T12:00:00Z");
  private static final ObjectMapper JSON = new ObjectMapper();
  /** A certificate valid for a year from the real now (the CA issues from the system clock). */
  private static final CertifiedKey ISSUED = CertificateAuthority.create("ca").issueClient("alice", java.util.List.of());

  private static String ago(Duration d) {
    return NOW.minus(d).toString();
  }

  private static ObjectNode csr(String created, String conditions, boolean issued) throws Exception {
    ObjectNode csr = (ObjectNode) JSON.readTree("""
        {"metadata":{"name":"req","creationTimestamp":"%s"},"status":{"conditions":%s}}""".formatted(created,
        conditions));
    if (issued) {
      ((ObjectNode) csr.get("status")).put("certificate",
          Base64.getEncoder().encodeToString(ISSUED.certificatePem().getBytes(StandardCharsets.US_ASCII)));
    }
    return csr;
  }

  private static String condition(String type, Duration updatedAgo) {
    return "[{\"type\":\"" + type + "\",\"status\":\"True\",\"lastUpdateTime\":\"" + ago(updatedAgo) + "\"}]";
  }

  @Test
  void isDone_asKubesCases() throws Exception {
    Duration recent = Duration.ofMinutes(5);
    Duration hourAndMore = Duration.ofMinutes(90);
    Object[][] cases = {
        {"no delete approved not passed deadline", csr(ago(recent), condition("Approved", recent), true), false},
        {"no delete denied not passed deadline", csr(ago(recent), condition("Denied", recent), false), false},
        {"no delete failed not passed deadline", csr(ago(recent), condition("Failed", recent), false), false},
        {"no delete pending not passed deadline", csr(ago(Duration.ofHours(5)), "[]", false), false},
        {"no delete approved passed deadline not issued",
            csr(ago(hourAndMore), condition("Approved", hourAndMore), false), false},
        {"delete approved passed deadline", csr(ago(hourAndMore), condition("Approved", hourAndMore), true), true},
        {"delete denied passed deadline", csr(ago(hourAndMore), condition("Denied", hourAndMore), false), true},
        {"delete failed passed deadline", csr(ago(hourAndMore), condition("Failed", hourAndMore), false), true},
        {"delete pending passed deadline", csr(ago(Duration.ofHours(25)), "[]", false), true},
    };
    for (Object[] c : cases) {
      assertThat(CertificateSigningRequestCleaner.isDone((ObjectNode) c[1], NOW)).as((String) c[0]).isEqualTo(c[2]);
    }
  }

  @Test
  void isDone_whenTheIssuedCertificateHasExpired() throws Exception {
    ObjectNode fresh = csr(ago(Duration.ofMinutes(5)), condition("Approved", Duration.ofMinutes(5)), true);
    Instant expiry = ISSUED.certificate().getNotAfter().toInstant();
    assertThat(CertificateSigningRequestCleaner.isDone(fresh, expiry.minusSeconds(1))).isTrue(); // the hour passed
    ObjectNode justApproved = csr(expiry.toString(), "[{\"type\":\"Approved\",\"status\":\"True\",\"lastUpdateTime\":\""
        + expiry + "\"}]", true);
    assertThat(CertificateSigningRequestCleaner.isDone(justApproved, expiry.minusSeconds(1))).isFalse();
    assertThat(CertificateSigningRequestCleaner.isDone(justApproved, expiry.plusSeconds(1))).isTrue();
  }

  /** Sends "METHOD /path" with a JSON body (or none) to the CSRs' collection; the status code. */
  @FunctionalInterface
  private interface Requests {
    int send(String methodAndPath, String body) throws Exception;

    default int apply(String methodAndPath, String body) {
      try {
        return send(methodAndPath, body);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }
  }

  @Test
  void theServersCleaner_deletesHourly_asTheInjectedClockMoves() throws Exception {
    FakeClock clock = new FakeClock(Instant.parse("2026-11-24T12:00:00Z"));
    String t0 = clock.now().toString();
    String csrs = "/apis/certificates.k8s.io/v1/certificatesigningrequests";
    try (ApiServer server = ApiServer.builder().clock(clock).build().start(); HttpClient http = HttpClient.newHttpClient()) {
      Requests send = (methodAndPath, body) -> {
        String[] mp = methodAndPath.split(" ", 2);
        return http.send(HttpRequest.newBuilder(URI.create(server.url() + csrs + mp[1]))
            .header("Content-Type", "application/json")
            .method(mp[0], body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
            .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
      };
      String pem = TestRequests.pem(TestRequests.keyPair(), "alice", java.util.List.of(), java.util.List.of());
      for (String name : java.util.List.of("pending", "denied", "approved", "issued")) {
        assertThat(send.apply("POST ", CertificateSigningControllerTest.csr(name, "example.com/signer", pem,
            java.util.List.of("client auth")))).isEqualTo(201);
      }
      String approval = """
          {"metadata":{"name":"%s"},"spec":{},"status":{"conditions":[{"type":"%s","status":"True",
           "lastUpdateTime":"%s"}]}}""";
      assertThat(send.apply("PUT /denied/approval", approval.formatted("denied", "Denied", t0))).isEqualTo(200);
      assertThat(send.apply("PUT /approved/approval", approval.formatted("approved", "Approved", t0))).isEqualTo(200);
      assertThat(send.apply("PUT /issued/approval", approval.formatted("issued", "Approved", t0))).isEqualTo(200);
      assertThat(send.apply("PUT /issued/status", """
          {"metadata":{"name":"issued"},"spec":{},"status":{"certificate":"%s"}}""".formatted(
          Base64.getEncoder().encodeToString(ISSUED.certificatePem().getBytes(StandardCharsets.US_ASCII)))))
          .isEqualTo(200);

      clock.advance(Duration.ofHours(2)); // passes at start, +1 h, +2 h
      Await.until("the denied and the issued requests are deleted", Duration.ofSeconds(20),
          () -> send.apply("GET /denied", null) == 404 && send.apply("GET /issued", null) == 404);
      assertThat(send.apply("GET /pending", null)).isEqualTo(200);
      assertThat(send.apply("GET /approved", null)).isEqualTo(200);

      clock.advance(Duration.ofHours(23));
      Await.until("the pending request is deleted after 24 h", Duration.ofSeconds(20),
          () -> send.apply("GET /pending", null) == 404);
      assertThat(send.apply("GET /approved", null)).as("approved, never issued: kept").isEqualTo(200);
    }
  }
}
