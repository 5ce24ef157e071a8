package io.listwatch.server.controllers.certificates;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.clock.Clock;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.apiserver.cacher.CacheListener;
import io.listwatch.apiserver.cacher.WatchCacheEvent;
import io.listwatch.apiserver.controller.ControllerQueue;
import io.listwatch.apiserver.rest.ResourceStore;
import io.listwatch.server.tls.CertifiedKey;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-controller-manager's {@code csrsigning} controllers for kube's built-in signers
 * ({@code kubernetes.io/kube-apiserver-client}, {@code kube-apiserver-client-kubelet},
 * {@code kubelet-serving}), all with one CA (kube's default: one {@code --cluster-signing-*}
 * pair for every signer; here the server's client CA, so what it issues authenticates to this
 * server). A CertificateSigningRequest of one of these signers that is Approved, not Denied, not
 * Failed and has no certificate yet is checked as kube's signer checks it
 * ({@link SignerValidation}): if it fails, a {@code Failed} condition (reason
 * {@code SignerValidationFailure}, kube's message) is added; else {@link CertificateSigner}
 * issues the certificate into {@code status.certificate}. Both through {@code /status}, as the
 * server ({@code system:masters}). Requests of other signers are left to their signers; a
 * request that does not parse or whose signature does not verify is logged and left pending, as
 * kube does.
 *
 * <p>Thread-safe: listeners only queue request names; the work runs on the
 * {@code csr-signing-controller} thread.
 */
public final class CertificateSigningController implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CertificateSigningController.class);
  static final String REASON = "SignerValidationFailure";

  private final ResourceStore csrs;
  private final CertificateSigner signer;
  private final Clock clock;
  private final ControllerQueue queue;

  /**
   * A controller signing with {@code ca} while {@code gate} is open.
   *
   * @param csrs the store of CertificateSigningRequests
   * @param ca the CA certificate and key that sign
   * @param clock the time certificates start from, and when failed syncs are retried
   */
  public CertificateSigningController(ResourceStore csrs, CertifiedKey ca, ControllerQueue.Gate gate, Clock clock) {
    this.csrs = csrs;
    this.signer = new CertificateSigner(ca, CertificateSigner.DEFAULT_MAX_TTL);
    this.clock = clock;
    this.queue = new ControllerQueue("csr-signing-controller", this::sync, gate, clock);
  }

  /** Registers the cache listener and starts the worker. */
  public void start() {
    queue.start();
    csrs.cacher().addListener(CacheListener.of(objects -> objects.forEach(o -> queue.add(o.name())), event -> {
      if (event.type() != WatchCacheEvent.Type.DELETED) {
        queue.add(event.object().name());
      }
    }));
  }

  /** Whether the server signs {@code csr} now: one of its signers, approved, not denied or failed, not issued. */
  static boolean needsSigning(JsonNode csr) {
    return SignerValidation.SIGNERS.contains(csr.path("spec").path("signerName").asText(""))
        && condition(csr, "Approved") && !condition(csr, "Denied") && !condition(csr, "Failed")
        && csr.path("status").path("certificate").asText("").isEmpty();
  }

  /** Whether {@code csr} has a condition of {@code type} whose status is True. */
  static boolean condition(JsonNode csr, String type) {
    for (JsonNode c : csr.path("status").path("conditions")) {
      if (c.path("type").asText("").equals(type) && c.path("status").asText("").equals("True")) {
        return true;
      }
    }
    return false;
  }

  private void sync(String name) {
    Optional<ObjectNode> found = csrs.getInternal("", name).join();
    if (found.isEmpty() || !needsSigning(found.get())) {
      return;
    }
    JsonNode spec = found.get().path("spec");
    String signerName = spec.path("signerName").asText();
    CertificateRequest request;
    try {
      request = CertificateRequest.parse(Base64.getDecoder().decode(spec.path("request").asText("")));
    } catch (IllegalArgumentException e) {
      LOG.warn("unable to parse csr \"{}\": {}", name, e.getMessage());
      return;
    }
    List<String> usages = new ArrayList<>();
    spec.path("usages").forEach(u -> usages.add(u.asText()));
    Optional<String> refused = SignerValidation.validate(signerName, request, usages);
    if (refused.isPresent()) {
      String now = ObjectMetaRules.timestamp(clock.now());
      csrs.updateStatusInternal("", name, csr -> {
        if (needsSigning(csr)) {
          csr.with("status").withArray("conditions").addObject().put("type", "Failed")
              .put("status", "True").put("reason", REASON).put("message", refused.get()).put("lastUpdateTime", now);
        }
        return csr;
      }).join();
      return;
    }
    JsonNode expiration = spec.path("expirationSeconds");
    Duration ttl = signer.duration(expiration.isIntegralNumber() ? expiration.asLong() : null);
    String pem;
    try {
      pem = pem(signer.sign(request, usages, ttl, clock.now()));
    } catch (IllegalStateException e) {
      LOG.warn("error auto signing csr \"{}\": {}", name, e.getMessage());
      return;
    }
    String certificate = Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
    csrs.updateStatusInternal("", name, csr -> {
      if (needsSigning(csr)) {
        csr.with("status").put("certificate", certificate);
      }
      return csr;
    }).join();
    LOG.info("issued the certificate of CertificateSigningRequest {} ({}, {})", name, signerName, ttl);
  }

  private static String pem(X509Certificate certificate) {
    try {
      return "-----BEGIN CERTIFICATE-----\n"
          + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(certificate.getEncoded())
          + "\n-----END CERTIFICATE-----\n";
    } catch (CertificateEncodingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Stops the worker. Idempotent. */
  @Override
  public void close() {
    queue.close();
  }
}
