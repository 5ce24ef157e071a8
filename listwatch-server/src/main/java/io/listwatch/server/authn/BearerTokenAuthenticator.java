package io.listwatch.server.authn;

import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.ApiRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Authenticates {@code Authorization: Bearer <token>} (or, on a WebSocket upgrade, the
 * {@code Sec-WebSocket-Protocol} entry {@code base64url.bearer.authorization.k8s.io.<token in
 * unpadded base64url>}, which browsers and some clients use because they cannot set headers on
 * a WebSocket) with the server's
 * {@link TokenAuthenticator}s, asked in order (kube's bearer-token authenticator over the union
 * of its token authenticators). A request without a bearer token is not this authenticator's
 * business (empty); a bearer token that no token authenticator accepts is refused with 401 and
 * never falls through to anonymous.
 *
 * <p>Tokens that carry no audience (static tokens) are valid for the server's API audiences
 * only: when the audiences asked for (a TokenReview's {@code spec.audiences}) do not include
 * one of those, such a token is treated as unknown, as kube does.
 *
 * <p>Immutable and thread-safe.
 */
public final class BearerTokenAuthenticator implements Authenticator, TokenAuthenticator {

  private static final Logger LOG = LoggerFactory.getLogger(BearerTokenAuthenticator.class);
  /** The Authorization header's scheme (case-insensitive). */
  private static final String BEARER = "bearer";
  /** kube's WebSocket subprotocol prefix that carries a bearer token. */
  public static final String WEBSOCKET_PROTOCOL_PREFIX = "base64url.bearer.authorization.k8s.io.";

  private final List<TokenAuthenticator> tokenAuthenticators;
  private final Set<String> apiAudiences;

  /**
   * @param tokenAuthenticators asked in order; the first that accepts a token decides
   * @param apiAudiences the audiences the API itself answers to ({@code --api-audiences})
   */
  public BearerTokenAuthenticator(List<TokenAuthenticator> tokenAuthenticators, List<String> apiAudiences) {
    this.tokenAuthenticators = List.copyOf(tokenAuthenticators);
    this.apiAudiences = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(apiAudiences));
  }

  /** The audiences the API answers to, in flag order; a request's token must be valid for one of them. */
  public Set<String> apiAudiences() {
    return apiAudiences;
  }

  @Override
  public Optional<UserInfo> authenticate(ApiRequest request) {
    Optional<String> token;
    try {
      token = bearerToken(request.header(HttpHeaderNames.AUTHORIZATION));
      if (token.isEmpty() && request.websocketUpgrade()) {
        token = websocketProtocolToken(request.headers().getAll(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL));
      }
      if (token.isEmpty()) {
        return Optional.empty();
      }
      Optional<Response> response = authenticateToken(token.get(), apiAudiences);
      if (response.isPresent()) {
        return Optional.of(response.get().user());
      }
      LOG.debug("unable to authenticate the request from {}: invalid bearer token",
          request.connection().remoteAddress());
    } catch (AuthenticationException e) {
      LOG.debug("unable to authenticate the request from {}: {}", request.connection().remoteAddress(),
          e.getMessage());
    }
    throw StatusException.unauthorized();
  }

  /**
   * Asks every token authenticator in turn. Empty when none knows the token; an
   * {@link AuthenticationException} listing every refusal when some refused it and none
   * accepted it.
   */
  @Override
  public Optional<Response> authenticateToken(String token, Set<String> audiences) {
    List<String> errors = null; // made when one refuses: this runs for every request
    for (TokenAuthenticator a : tokenAuthenticators) {
      try {
        Optional<Response> r = a.authenticateToken(token, audiences);
        if (r.isEmpty()) {
          continue;
        }
        if (!r.get().audiences().isEmpty()) {
          return r;
        }
        Set<String> implicitAudiences = new LinkedHashSet<>(apiAudiences);
        implicitAudiences.retainAll(audiences);
        if (!implicitAudiences.isEmpty()) { // an audience-less token, valid for the API's own audiences
          return Optional.of(new Response(r.get().user(), List.copyOf(implicitAudiences)));
        }
      } catch (AuthenticationException e) {
        if (errors == null) {
          errors = new ArrayList<>();
        }
        errors.add(e.getMessage());
      }
    }
    if (errors != null) {
      throw new AuthenticationException(errors.size() == 1 ? errors.getFirst() : errors.toString());
    }
    return Optional.empty();
  }

  /**
   * The token in a WebSocket upgrade's subprotocols, as kube's protocol authenticator reads it:
   * empty when none carries one; refused when several do or it is not base64url of UTF-8 text.
   */
  static Optional<String> websocketProtocolToken(List<String> headerValues) {
    String token = null;
    for (String value : headerValues) {
      for (String protocol : value.split(",")) {
        String p = protocol.strip();
        if (!p.startsWith(WEBSOCKET_PROTOCOL_PREFIX)) {
          continue;
        }
        if (token != null) {
          throw new AuthenticationException("multiple base64.bearer.authorization tokens specified");
        }
        try {
          byte[] raw = java.util.Base64.getUrlDecoder().decode(p.substring(WEBSOCKET_PROTOCOL_PREFIX.length()));
          token = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
              .decode(java.nio.ByteBuffer.wrap(raw)).toString();
        } catch (IllegalArgumentException | java.nio.charset.CharacterCodingException e) {
          throw new AuthenticationException("invalid base64.bearer.authorization token encoding");
        }
        if (token.isEmpty()) {
          throw new AuthenticationException("invalid characters in base64.bearer.authorization token");
        }
      }
    }
    return Optional.ofNullable(token);
  }

  /**
   * The token of an {@code Authorization: Bearer <token>} header, as kube reads it: the scheme
   * is case-insensitive, and an empty token counts as none.
   */
  static Optional<String> bearerToken(String authorization) {
    String auth = authorization.strip();
    if (auth.isEmpty()) {
      return Optional.empty();
    }
    // the scheme, a space, the token up to the next space (if any); no split: every request has one
    int space = auth.indexOf(' ');
    if (space != BEARER.length() || !auth.regionMatches(true, 0, BEARER, 0, space)) {
      return Optional.empty();
    }
    int end = auth.indexOf(' ', space + 1);
    String token = end < 0 ? auth.substring(space + 1) : auth.substring(space + 1, end);
    return token.isEmpty() ? Optional.empty() : Optional.of(token);
  }
}
