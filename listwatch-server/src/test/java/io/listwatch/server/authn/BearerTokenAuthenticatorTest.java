package io.listwatch.server.authn;

import io.listwatch.apiserver.request.UserInfo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.StatusException;
import io.listwatch.server.filters.HandlerChain;
import io.listwatch.apiserver.request.ApiRequest;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Bearer tokens through the request filters, as requests on the TLS listener meet them. */
class BearerTokenAuthenticatorTest {

  private final TokenFileAuthenticator file = TokenFileAuthenticator.parse("""
      s3cret,alice,1001,"dev,ops"
      """, "tokens.csv");
  /** A second token authenticator that refuses one token and knows another. */
  private final TokenAuthenticator other = (token, audiences) -> switch (token) {
    case "revoked" -> throw new AuthenticationException("service account default/x has been deleted");
    case "other" -> Optional.of(new TokenAuthenticator.Response(UserInfo.of("olga", List.of()), List.of("api")));
    default -> Optional.empty();
  };
  private final BearerTokenAuthenticator bearer = new BearerTokenAuthenticator(List.of(file, other), List.of("api"));
  private final HandlerChain chain = HandlerChain.builder().authenticators(List.of(bearer)).build();

  private ApiRequest admit(String... headers) {
    ApiRequest request = Requests.secure("GET", "/api/v1/namespaces/default/pods", headers);
    return chain.admit(request, Requests.info(request)).request();
  }

  @Test
  void staticToken_actsAsItsUser_inSystemAuthenticated() {
    UserInfo user = admit("Authorization", "Bearer s3cret").user();

    assertThat(user.name()).isEqualTo("alice");
    assertThat(user.uid()).isEqualTo("1001");
    assertThat(user.groups()).containsExactly("dev", "ops", "system:authenticated");
  }

  @Test
  void schemeIsCaseInsensitive_andLaterAuthenticatorsAreAsked() {
    assertThat(admit("Authorization", "bearer s3cret").user().name()).isEqualTo("alice");
    assertThat(admit("Authorization", "BEARER other").user().name()).isEqualTo("olga");
  }

  @Test
  void authorizationHeader_isTheSchemeASpaceAndTheTokenUpToTheNextSpace() {
    assertThat(BearerTokenAuthenticator.bearerToken("  Bearer s3cret  ")).contains("s3cret");
    assertThat(BearerTokenAuthenticator.bearerToken("bEaReR s3cret trailing words")).contains("s3cret");
    for (String none : List.of("", "Bearer", "Bearer ", "Bearer  s3cret", "Bearers3cret", "Bearerx s3cret",
        "Basic s3cret", "Bear s3cret", " s3cret")) {
      assertThat(BearerTokenAuthenticator.bearerToken(none)).as(none).isEmpty();
    }
  }

  @Test
  void unknownOrRefusedToken_is401_neverAnonymous() {
    for (String token : List.of("wrong", "revoked", "s3cret2")) {
      assertThatThrownBy(() -> admit("Authorization", "Bearer " + token))
          .isInstanceOfSatisfying(StatusException.class, e -> {
            assertThat(e.code()).isEqualTo(401);
            assertThat(e.status().message()).isEqualTo("Unauthorized");
            assertThat(e.status().reason()).isEqualTo("Unauthorized");
          });
    }
  }

  @Test
  void noBearerToken_isAnonymous_whenAnonymousAuthIsOn_else401() {
    assertThat(admit().user()).isEqualTo(UserInfo.ANONYMOUS);
    assertThat(admit("Authorization", "Basic YWxpY2U6cHc=").user()).isEqualTo(UserInfo.ANONYMOUS);
    assertThat(admit("Authorization", "Bearer ").user()).isEqualTo(UserInfo.ANONYMOUS);

    HandlerChain closed = HandlerChain.builder().authenticators(List.of(bearer)).anonymousAuth(false).build();
    ApiRequest request = Requests.secure("GET", "/version");
    assertThatThrownBy(() -> closed.admit(request, Requests.info(request)))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(401));
  }

  @Test
  void websocketUpgrade_mayCarryTheTokenInItsSubprotocols() {
    String encoded = java.util.Base64.getUrlEncoder().withoutPadding()
        .encodeToString("s3cret".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    String protocols = "v4.channel.k8s.io, base64url.bearer.authorization.k8s.io." + encoded;

    assertThat(admit("Connection", "Upgrade", "Upgrade", "websocket", "Sec-WebSocket-Protocol", protocols).user().name())
        .isEqualTo("alice");
    // only on a WebSocket upgrade
    assertThat(admit("Sec-WebSocket-Protocol", protocols).user()).isEqualTo(UserInfo.ANONYMOUS);
    for (String bad : List.of("base64url.bearer.authorization.k8s.io.d3Jvbmc", // "wrong"
        "base64url.bearer.authorization.k8s.io.!!", "base64url.bearer.authorization.k8s.io.",
        "base64url.bearer.authorization.k8s.io." + encoded + ",base64url.bearer.authorization.k8s.io." + encoded)) {
      assertThatThrownBy(() -> admit("Connection", "Upgrade", "Upgrade", "websocket", "Sec-WebSocket-Protocol", bad))
          .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(401));
    }
  }

  @Test
  void staticToken_isValidForTheApiAudiencesOnly() {
    assertThat(bearer.authenticateToken("s3cret", Set.of("api", "vault")).orElseThrow().audiences())
        .containsExactly("api");
    assertThat(bearer.authenticateToken("s3cret", Set.of("vault"))).isEmpty();
  }

  @Test
  void refusals_areReportedWithTheirReason() {
    assertThatThrownBy(() -> bearer.authenticateToken("revoked", Set.of("api")))
        .isInstanceOf(AuthenticationException.class)
        .hasMessage("service account default/x has been deleted");
    assertThat(bearer.authenticateToken("unknown", Set.of("api"))).isEmpty();
  }
}
