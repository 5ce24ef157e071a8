package io.listwatch.server.authn;

import io.listwatch.apiserver.request.UserInfo;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.text.ParseException;
import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Authenticates service-account tokens (kube's JWT token authenticator): a JWT whose issuer is
 * one of the server's ({@code --service-account-issuer}) is this authenticator's; any other
 * token is not (empty). One of ours must be signed by a verification key, be within its
 * {@code nbf}..{@code exp} window (with kube's one-minute leeway for clock skew), be meant for
 * one of the audiences asked for, and name a service account that still exists with the uid in
 * the token; otherwise it is refused ({@link AuthenticationException}). The account is looked
 * up on every request, so deleting it (or recreating it, which gives it a new uid) revokes its
 * tokens at once.
 *
 * <p>The user is {@code system:serviceaccount:<ns>:<name>} with the account's uid, the groups
 * {@code system:serviceaccounts} and {@code system:serviceaccounts:<ns>}, and the extra
 * {@code authentication.kubernetes.io/credential-id: ["JTI=<jti>"]}.
 *
 * <p>Immutable and thread-safe (Nimbus' verifiers are thread-safe); never blocks: the lookup
 * reads the in-memory watch cache.
 */
public final class ServiceAccountTokenAuthenticator implements TokenAuthenticator {

  /** go-jose's default leeway, which kube uses for exp, nbf and iat. */
  static final Duration LEEWAY = Duration.ofMinutes(1);

  private final Set<String> issuers;
  private final List<Key> keys;
  private final ServiceAccountGetter serviceAccounts;
  private final Clock clock;

  private record Key(String id, JWSVerifier verifier) {
  }

  public ServiceAccountTokenAuthenticator(List<String> issuers, ServiceAccountKeys keys,
      ServiceAccountGetter serviceAccounts, Clock clock) {
    this.issuers = Set.copyOf(issuers);
    this.keys = keys.verificationKeys().stream()
        .map(k -> new Key(k.keyId(), ServiceAccountKeys.verifier(k.key())))
        .toList();
    this.serviceAccounts = serviceAccounts;
    this.clock = clock;
  }

  @Override
  public Optional<Response> authenticateToken(String token, Set<String> audiences) {
    if (token.chars().filter(c -> c == '.').count() != 2) {
      return Optional.empty();
    }
    SignedJWT jwt;
    JWTClaimsSet claims;
    try {
      jwt = SignedJWT.parse(token);
      claims = jwt.getJWTClaimsSet();
    } catch (ParseException e) {
      return Optional.empty(); // not a JWS: some other authenticator's token
    }
    if (claims.getIssuer() == null || !issuers.contains(claims.getIssuer())) {
      return Optional.empty();
    }
    verifySignature(jwt);
    checkTimes(claims);
    List<String> validFor = audiences(claims, audiences);
    Claims k = kubernetesClaims(claims);
    ServiceAccountGetter.ServiceAccount sa = serviceAccounts.get(k.namespace(), k.name())
        .filter(a -> !a.deleting())
        .orElseThrow(() -> new AuthenticationException(
            "service account " + k.namespace() + "/" + k.name() + " has been deleted"));
    if (!sa.uid().equals(k.uid())) {
      throw new AuthenticationException("service account UID (" + sa.uid() + ") does not match claim ("
          + k.uid() + ")");
    }
    Map<String, List<String>> extra = claims.getJWTID() == null || claims.getJWTID().isEmpty()
        ? Map.of()
        : Map.of(ServiceAccountNames.CREDENTIAL_ID_KEY, List.of("JTI=" + claims.getJWTID()));
    UserInfo user = new UserInfo(ServiceAccountNames.username(k.namespace(), k.name()), k.uid(),
        ServiceAccountNames.groups(k.namespace()), extra);
    return Optional.of(new Response(user, validFor));
  }

  private void verifySignature(SignedJWT jwt) {
    String kid = jwt.getHeader().getKeyID();
    // the key the header names first, then the others (kube tries every key)
    List<Key> ordered = new ArrayList<>(keys);
    ordered.sort((a, b) -> Boolean.compare(!a.id().equals(kid), !b.id().equals(kid)));
    for (Key key : ordered) {
      if (!key.verifier().supportedJWSAlgorithms().contains(jwt.getHeader().getAlgorithm())) {
        continue;
      }
      try {
        if (jwt.verify(key.verifier())) {
          return;
        }
      } catch (JOSEException e) {
        // a key of another kind or size: try the next
      }
    }
    throw new AuthenticationException("invalid service account token signature");
  }

  private void checkTimes(JWTClaimsSet claims) {
    Instant now = clock.now();
    Date exp = claims.getExpirationTime();
    if (exp != null && now.isAfter(exp.toInstant().plus(LEEWAY))) {
      throw new AuthenticationException("service account token has expired");
    }
    Date nbf = claims.getNotBeforeTime();
    if (nbf != null && now.plus(LEEWAY).isBefore(nbf.toInstant())) {
      throw new AuthenticationException("service account token is not valid yet (nbf)");
    }
    Date iat = claims.getIssueTime();
    if (iat != null && now.plus(LEEWAY).isBefore(iat.toInstant())) {
      throw new AuthenticationException("service account token was issued in the future (iat)");
    }
  }

  /** The token's audiences among {@code wanted}; refused when there are none. */
  private static List<String> audiences(JWTClaimsSet claims, Set<String> wanted) {
    List<String> tokenAudiences = claims.getAudience();
    Set<String> common = new LinkedHashSet<>(tokenAudiences);
    common.retainAll(wanted);
    if (common.isEmpty()) {
      throw new AuthenticationException("token audiences " + goQuoted(tokenAudiences)
          + " is invalid for the target audiences " + goQuoted(List.copyOf(wanted)));
    }
    return List.copyOf(common);
  }

  private static String goQuoted(List<String> values) {
    return values.stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(" ", "[", "]"));
  }

  private record Claims(String namespace, String name, String uid) {
  }

  private static Claims kubernetesClaims(JWTClaimsSet claims) {
    try {
      Map<String, Object> k = claims.getJSONObjectClaim(ServiceAccountTokenGenerator.KUBERNETES_CLAIM);
      if (k != null && k.get("namespace") instanceof String ns && !ns.isEmpty()
          && k.get("serviceaccount") instanceof Map<?, ?> sa
          && sa.get("name") instanceof String name && !name.isEmpty()
          && sa.get("uid") instanceof String uid) {
        return new Claims(ns, name, uid);
      }
    } catch (ParseException e) {
      // fall through
    }
    throw new AuthenticationException("service account token has no kubernetes.io namespace and serviceaccount claims");
  }
}
