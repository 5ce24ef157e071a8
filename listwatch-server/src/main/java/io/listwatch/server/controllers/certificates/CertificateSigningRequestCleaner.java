package io.listwatch.server.controllers.certificates;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.controller.ControllerQueue;
import io.listwatch.apiserver.rest.DeleteOptions;
import io.listwatch.apiserver.rest.ResourceStore;
import io.listwatch.server.controllers.PeriodicPass;
import java.io.ByteArrayInputStream;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.concurrent.CompletionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-controller-manager's {@code csrcleaner}: every hour (and at start) deletes the
 * CertificateSigningRequests that have served their purpose, so requests made by machines do
 * not pile up:
 *
 * <ul>
 *   <li>issued (Approved with a certificate) more than 1 hour ago (the Approved condition's
 *       {@code lastUpdateTime});</li>
 *   <li>Denied, or Failed, more than 1 hour ago;</li>
 *   <li>pending (no condition at all) and created more than 24 hours ago;</li>
 *   <li>issued with a certificate that has expired.</li>
 * </ul>
 *
 * <p>Time is the injected {@link Clock}'s, so tests move it instead of waiting. Runs only while
 * the gate is open (the server leads its controllers).
 *
 * <p>Thread-safe: the passes run on the clock's task thread ({@link PeriodicPass}).
 */
public final class CertificateSigningRequestCleaner implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CertificateSigningRequestCleaner.class);
  static final Duration POLLING_INTERVAL = Duration.ofHours(1);
  static final Duration APPROVED_EXPIRATION = Duration.ofHours(1);
  static final Duration DENIED_EXPIRATION = Duration.ofHours(1);
  static final Duration PENDING_EXPIRATION = Duration.ofHours(24);
  private static final Pattern PEM = Pattern.compile(
      "-----BEGIN CERTIFICATE-----\\r?\\n(.*?)-----END CERTIFICATE-----", Pattern.DOTALL);

  private final ResourceStore csrs;
  private final Clock clock;
  private final PeriodicPass passes;

  public CertificateSigningRequestCleaner(ResourceStore csrs, ControllerQueue.Gate gate, Clock clock) {
    this.csrs = csrs;
    this.passes = new PeriodicPass("clean CertificateSigningRequests", POLLING_INTERVAL, gate, clock, this::clean);
    this.clock = clock;
  }

  /** Runs a first pass now (on the clock's thread), then one every hour. */
  public void start() {
    passes.start(Duration.ZERO);
  }

  /** One pass: deletes every request that is done with. */
  void clean() {
    Instant now = clock.now();
    for (ObjectNode csr : csrs.listInternal("").join()) {
      String name = csr.path("metadata").path("name").asText();
      if (!isDone(csr, now)) {
        continue;
      }
      try {
        csrs.deleteInternal("", name, DeleteOptions.of(csr.path("metadata").path("uid").asText(), null)).join();
        LOG.info("deleted CertificateSigningRequest {}: done with", name);
      } catch (CompletionException e) {
        if (!(e.getCause() instanceof StatusException se && (se.code() == 404 || se.code() == 409))) {
          LOG.warn("unable to delete CSR \"{}\": {}", name, e.getCause().toString());
        }
      }
    }
  }

  /** kube's criteria ({@code isIssuedPastDeadline} || denied || failed || pending || {@code isIssuedExpired}). */
  static boolean isDone(JsonNode csr, Instant now) {
    JsonNode conditions = csr.path("status").path("conditions");
    boolean issued = !csr.path("status").path("certificate").asText("").isEmpty();
    if (conditions.isEmpty()) {
      return isOlderThan(csr.path("metadata").path("creationTimestamp"), PENDING_EXPIRATION, now);
    }
    for (JsonNode c : conditions) {
      String type = c.path("type").asText("");
      JsonNode updated = c.path("lastUpdateTime");
      if (type.equals("Approved") && issued
          && (isOlderThan(updated, APPROVED_EXPIRATION, now) || isExpired(csr, now))) {
        return true;
      }
      if ((type.equals("Denied") || type.equals("Failed")) && isOlderThan(updated, DENIED_EXPIRATION, now)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code time} is set and more than {@code age} before {@code now}. */
  private static boolean isOlderThan(JsonNode time, Duration age, Instant now) {
    try {
      return !time.asText("").isEmpty() && Instant.parse(time.asText()).plus(age).isBefore(now);
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  /** Whether the issued certificate's {@code notAfter} has passed (false when it does not parse). */
  private static boolean isExpired(JsonNode csr, Instant now) {
    try {
      String pem = new String(Base64.getDecoder().decode(csr.path("status").path("certificate").asText()),
          java.nio.charset.StandardCharsets.US_ASCII);
      Matcher m = PEM.matcher(pem);
      if (!m.find()) {
        return false;
      }
      X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
          .generateCertificate(new ByteArrayInputStream(Base64.getMimeDecoder().decode(m.group(1))));
      return now.isAfter(cert.getNotAfter().toInstant());
    } catch (CertificateException | IllegalArgumentException e) {
      LOG.warn("the certificate of CertificateSigningRequest {} does not parse: {}",
          csr.path("metadata").path("name").asText(), e.getMessage());
      return false;
    }
  }

  /** Stops the passes. Idempotent. */
  @Override
  public void close() {
    passes.close();
  }
}
