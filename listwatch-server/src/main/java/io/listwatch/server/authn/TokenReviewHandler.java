package io.listwatch.server.authn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.rest.RestHandler;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * {@code POST /apis/authentication.k8s.io/v1/tokenreviews}: tells a component (a webhook, an
 * aggregated server) who a bearer token names. Answers 201 with the posted TokenReview and its
 * status: {@code authenticated: true} with the user and the audiences the token is valid for
 * among {@code spec.audiences} (the server's API audiences when none are given); or no
 * {@code authenticated} and an {@code error} saying why. The token is checked by the same
 * authenticators as requests. Thread-safe.
 */
public final class TokenReviewHandler implements RestHandler {

  private final BearerTokenAuthenticator tokens;

  public TokenReviewHandler(BearerTokenAuthenticator tokens) {
    this.tokens = tokens;
  }

  @Override
  public CompletableFuture<ApiResponse> handle(RequestInfo info, ApiRequest request) {
    if (!ApiRequest.POST.equals(request.method()) || !info.name().isEmpty()) {
      throw StatusException.methodNotAllowed();
    }
    ObjectNode review = ReviewBodies.read(request, "TokenReview", false);
    JsonNode spec = review.path("spec");
    String token = spec.path("token").asText("");
    if (token.isEmpty()) {
      throw StatusException.badRequest("token is required for TokenReview in authentication");
    }
    List<String> asked = ReviewBodies.strings(spec, "audiences", "spec.audiences");
    Set<String> audiences = asked.isEmpty() ? tokens.apiAudiences() : new LinkedHashSet<>(asked);
    ObjectNode status = review.putObject("status");
    try {
      Optional<TokenAuthenticator.Response> r = tokens.authenticateToken(token, audiences);
      if (r.isPresent()) {
        status.put("authenticated", true);
        status.set("user", ReviewBodies.userInfo(r.get().user().authenticated()));
        ArrayNode auds = status.putArray("audiences");
        r.get().audiences().forEach(auds::add);
      } else {
        status.putObject("user");
        status.put("error", "invalid bearer token");
      }
    } catch (AuthenticationException e) {
      status.putObject("user");
      status.put("error", e.getMessage());
    }
    return CompletableFuture.completedFuture(ApiResponse.created(review));
  }
}
