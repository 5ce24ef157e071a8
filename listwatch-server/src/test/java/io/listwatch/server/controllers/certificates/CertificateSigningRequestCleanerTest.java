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
}
