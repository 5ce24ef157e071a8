package io.listwatch.server.authn;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.rest.RestHandler;
import java.util.concurrent.CompletableFuture;

/**
 * {@code POST /apis/authentication.k8s.io/v1/selfsubjectreviews} ({@code kubectl auth whoami}):
 * answers 201 with the posted SelfSubjectReview and {@code status.userInfo}, the user the request
 * acts as (after impersonation). Stateless and thread-safe.
 */
public final class SelfSubjectReviewHandler implements RestHandler {

  @Override
  public CompletableFuture<ApiResponse> handle(RequestInfo info, ApiRequest request) {
    if (!ApiRequest.POST.equals(request.method()) || !info.name().isEmpty()) {
      throw StatusException.methodNotAllowed();
    }
    ObjectNode review = ReviewBodies.read(request, "SelfSubjectReview", true);
    review.putObject("status").set("userInfo", ReviewBodies.userInfo(request.user()));
    return CompletableFuture.completedFuture(ApiResponse.created(review));
  }
}
