package io.listwatch.server.authn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.util.Base64URL;
import io.listwatch.api.clock.FakeClock;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class ServiceAccountTokenAuthenticatorTest {

  private static final String ISSUER = "https://kubernetes.default.svc.cluster.local";
  private static final Set<String> API = Set.of(ISSUER);
  private static final KeyPair KEY = ecKey();
  private static final KeyPair OTHER_KEY = ecKey();

  private static final Instant START = Instant.parse("2026-11-24T15:00:00Z");

  private final FakeClock clock = new FakeClock(START);
  /** The service accounts that exist: "ns/name" to uid. */
  private final Map<String, String> accounts = new ConcurrentHashMap<>(Map.of("default/builder", "uid-1"));
  private final ServiceAccountGetter getter = (ns, name) -> Optional.ofNullable(accounts.get(ns + "/" + name))
      .map(uid -> new ServiceAccountGetter.ServiceAccount(ns, name, uid, false));
  private final ServiceAccountKeys keys = ServiceAccountKeys.of(KEY, List.of());
  private final ServiceAccountTokenGenerator generator = new ServiceAccountTokenGenerator(ISSUER, keys, clock);
  private final ServiceAccountTokenAuthenticator authenticator =
      new ServiceAccountTokenAuthenticator(List.of(ISSUER), keys, getter, clock);

  private static KeyPair ecKey() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"));
      return g.generateKeyPair();
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private String issue(List<String> audiences, Duration lifetime) {
    return generator.issue("default", "builder", "uid-1", audiences, lifetime).token();
  }

  private void assertRefused(String token, Set<String> audiences, String why) {
    assertThatThrownBy(() -> authenticator.authenticateToken(token, audiences))
        .isInstanceOf(AuthenticationException.class)
        .hasMessage(why);
  }

  @Test
  void issuedToken_authenticatesAsTheServiceAccount_withKubesGroupsAndCredentialId() throws Exception {
    ServiceAccountTokenGenerator.Token t = generator.issue("default", "builder", "uid-1", List.of(ISSUER),
        Duration.ofHours(1));

    TokenAuthenticator.Response r = authenticator.authenticateToken(t.token(), API).orElseThrow();

    assertThat(t.expiration()).isEqualTo(Instant.parse("2026-11-24T16:00:00Z"));
    assertThat(r.audiences()).containsExactly(ISSUER);
    assertThat(r.user().name()).isEqualTo("system:serviceaccount:default:builder");
    assertThat(r.user().uid()).isEqualTo("uid-1");
    assertThat(r.user().groups()).containsExactly("system:serviceaccounts", "system:serviceaccounts:default");
    var claims = com.nimbusds.jwt.SignedJWT.parse(t.token()).getJWTClaimsSet();
    assertThat(r.user().extra()).isEqualTo(Map.of("authentication.kubernetes.io/credential-id",
        List.of("JTI=" + claims.getJWTID())));
    assertThat(claims.getSubject()).isEqualTo("system:serviceaccount:default:builder");
    assertThat(claims.getIssuer()).isEqualTo(ISSUER);
    assertThat(claims.getJSONObjectClaim("kubernetes.io")).isEqualTo(Map.of("namespace", "default",
        "serviceaccount", Map.of("name", "builder", "uid", "uid-1")));
    assertThat(claims.getNotBeforeTime()).isEqualTo(claims.getIssueTime());
    assertThat(com.nimbusds.jwt.SignedJWT.parse(t.token()).getHeader().getKeyID()).isEqualTo(keys.signingKeyId());
  }

  @Test
  void expiredToken_isRefused_onceThePastTheOneMinuteLeeway() {
    String token = issue(List.of(ISSUER), Duration.ofMinutes(10));
    clock.advance(Duration.ofMinutes(11));
    assertThat(authenticator.authenticateToken(token, API)).isPresent(); // within kube's leeway

    clock.advance(Duration.ofSeconds(1));

    assertRefused(token, API, "service account token has expired");
  }

  @Test
  void notYetValidToken_isRefused() {
    // issued by a server whose clock is two minutes ahead
    String token = new ServiceAccountTokenGenerator(ISSUER, keys, new FakeClock(START.plus(Duration.ofMinutes(2))))
        .issue("default", "builder", "uid-1", List.of(ISSUER), Duration.ofHours(1)).token();

    assertRefused(token, API, "service account token is not valid yet (nbf)");
  }

  @Test
  void tokenForAnotherAudience_isRefused() {
    String token = issue(List.of("vault"), Duration.ofHours(1));

    assertRefused(token, API, "token audiences [\"vault\"] is invalid for the target audiences "
        + "[\"https://kubernetes.default.svc.cluster.local\"]");
    assertThat(authenticator.authenticateToken(token, Set.of("vault", "other")).orElseThrow().audiences())
        .containsExactly("vault");
  }

  @Test
  void tokenOfAnotherIssuer_isNotThisAuthenticatorsToken() {
    ServiceAccountTokenGenerator foreign = new ServiceAccountTokenGenerator("https://elsewhere", keys, clock);
    String token = foreign.issue("default", "builder", "uid-1", List.of(ISSUER), Duration.ofHours(1)).token();

    assertThat(authenticator.authenticateToken(token, API)).isEmpty();
    assertThat(authenticator.authenticateToken("not-a-jwt", API)).isEmpty();
    assertThat(authenticator.authenticateToken("a.b.c", API)).isEmpty();
  }

  @Test
  void tokenSignedByAnotherKey_isRefused_evenWithOurKeyId() {
    ServiceAccountKeys forgerKeys = ServiceAccountKeys.of(OTHER_KEY, List.of());
    String forged = new ServiceAccountTokenGenerator(ISSUER, forgerKeys, clock)
        .issue("default", "builder", "uid-1", List.of(ISSUER), Duration.ofHours(1)).token();
    String[] parts = forged.split("\\.");
    String header = Base64URL.encode("{\"alg\":\"ES256\",\"kid\":\"" + keys.signingKeyId() + "\"}").toString();
    String forgedWithOurKid = header + "." + parts[1] + "." + parts[2];

    assertRefused(forged, API, "invalid service account token signature");
    assertRefused(forgedWithOurKid, API, "invalid service account token signature");
  }

  @Test
  void tokenVerifiedByAnExtraVerificationKey_isAccepted() {
    String token = new ServiceAccountTokenGenerator(ISSUER, ServiceAccountKeys.of(OTHER_KEY, List.of()), clock)
        .issue("default", "builder", "uid-1", List.of(ISSUER), Duration.ofHours(1)).token();
    ServiceAccountTokenAuthenticator rotated = new ServiceAccountTokenAuthenticator(List.of(ISSUER),
        ServiceAccountKeys.of(KEY, List.of(OTHER_KEY.getPublic())), getter, clock);

    assertThat(rotated.authenticateToken(token, API)).isPresent();
  }

  @Test
  void tamperedPayload_isRefused() {
    String token = issue(List.of(ISSUER), Duration.ofHours(1));
    String[] parts = token.split("\\.");
    String payload = new Base64URL(parts[1]).decodeToString().replace("builder", "admin");
    accounts.put("default/admin", "uid-1");

    assertRefused(parts[0] + "." + Base64URL.encode(payload) + "." + parts[2], API,
        "invalid service account token signature");
  }

  @Test
  void unsignedToken_isRefused() {
    String token = issue(List.of(ISSUER), Duration.ofHours(1));
    String[] parts = token.split("\\.");
    String none = Base64URL.encode("{\"alg\":\"none\"}") + "." + parts[1] + ".";

    assertThat(authenticator.authenticateToken(none, API)).isEmpty(); // not a signed JWT: the bearer filter's 401
  }

  @Test
  void deletedServiceAccount_revokesItsTokens() {
    String token = issue(List.of(ISSUER), Duration.ofHours(1));
    assertThat(authenticator.authenticateToken(token, API)).isPresent();

    accounts.remove("default/builder");

    assertRefused(token, API, "service account default/builder has been deleted");
  }

  @Test
  void serviceAccountRecreatedWithANewUid_refusesTheOldTokens() {
    String token = issue(List.of(ISSUER), Duration.ofHours(1));

    accounts.put("default/builder", "uid-2");

    assertRefused(token, API, "service account UID (uid-2) does not match claim (uid-1)");
  }

  @Test
  void serviceAccountBeingDeleted_refusesItsTokens() {
    String token = issue(List.of(ISSUER), Duration.ofHours(1));
    ServiceAccountTokenAuthenticator deleting = new ServiceAccountTokenAuthenticator(List.of(ISSUER), keys,
        (ns, name) -> Optional.of(new ServiceAccountGetter.ServiceAccount(ns, name, "uid-1", true)), clock);

    assertThatThrownBy(() -> deleting.authenticateToken(token, API)).isInstanceOf(AuthenticationException.class);
  }
}
