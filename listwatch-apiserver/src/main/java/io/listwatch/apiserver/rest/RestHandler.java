package io.listwatch.apiserver.rest;

import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.RequestInfo;
import java.util.concurrent.CompletableFuture;

/**
 * Serves a virtual resource (an access or token review) or a subresource other than status
 * (e.g. {@code serviceaccounts/token}), registered with {@link ServedResources#register}. Called after
 * the filters admitted the request, with the user set. Implementations are thread-safe and do
 * not block the calling event loop.
 */
@FunctionalInterface
public interface RestHandler {

  /** Failures are StatusExceptions, thrown or in the future. */
  CompletableFuture<ApiResponse> handle(RequestInfo info, ApiRequest request);
}
