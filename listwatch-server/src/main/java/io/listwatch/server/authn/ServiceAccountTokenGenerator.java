package io.listwatch.server.authn;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Issues service-account tokens (kube's JWT token generator): JWTs signed with the server's
 * signing key, carrying kube's claims: {@code iss}, {@code sub}
 * ({@code system:serviceaccount:<ns>:<name>}), {@code aud}, {@code exp}, {@code iat},
 * {@code nbf}, {@code jti} and {@code kubernetes.io: {namespace, serviceaccount: {name, uid}}}.
 *
 * <p>Immutable and thread-safe (Nimbus' RSA and EC signers are thread-safe).
 */
public final class ServiceAccountTokenGenerator {

  /** The private claim holding the namespace and service account. */
  static final String KUBERNETES_CLAIM = "kubernetes.io";

  private final String issuer;
  private final ServiceAccountKeys keys;
  private final Clock clock;
  private final JWSSigner signer;

  public ServiceAccountTokenGenerator(String issuer, ServiceAccountKeys keys, Clock clock) {
    this.issuer = issuer;
    this.keys = keys;
    this.clock = clock;
    this.signer = keys.signer();
  }

  /** A token and when it expires. */
  public record Token(String token, Instant expiration) {
    @Override
    public String toString() {
      return "Token[expires " + expiration + "]"; // never the token itself
    }
  }

  /** Issues a token for the service account {@code namespace/name} (uid {@code uid}). */
  public Token issue(String namespace, String name, String uid, List<String> audiences, Duration lifetime) {
    Instant now = clock.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    Instant expiration = now.plus(lifetime);
    JWTClaimsSet claims = new JWTClaimsSet.Builder()
        .issuer(issuer)
        .subject(ServiceAccountNames.username(namespace, name))
        .audience(audiences)
        .expirationTime(Date.from(expiration))
        .issueTime(Date.from(now))
        .notBeforeTime(Date.from(now))
        .jwtID(UUID.randomUUID().toString())
        .claim(KUBERNETES_CLAIM, Map.of("namespace", namespace, "serviceaccount", Map.of("name", name, "uid", uid)))
        .build();
    SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(keys.algorithm()).keyID(keys.signingKeyId()).build(), claims);
    try {
      jwt.sign(signer);
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot sign a service account token", e);
    }
    return new Token(jwt.serialize(), expiration);
  }
}
