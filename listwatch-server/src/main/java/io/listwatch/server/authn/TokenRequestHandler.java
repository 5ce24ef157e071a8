package io.listwatch.server.authn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.ListOptions;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.rest.RestHandler;
import java.io.IOException;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * {@code POST /api/v1/namespaces/{ns}/serviceaccounts/{name}/token} (TokenRequest,
 * {@code kubectl create token}): issues a token for an existing service account. The body's
 * {@code spec.audiences} default to the server's API audiences and {@code spec.expirationSeconds}
 * to 3600; less than 600 (or more than 2^32) seconds is refused with kube's 422. Answers 201 with
 * the TokenRequest, its spec defaulted, and {@code status.token} and
 * {@code status.expirationTimestamp}; 404 when the service account does not exist. Binding a
 * token to an object ({@code spec.boundObjectRef}) is not supported and refused with 422.
 *
 * <p>Thread-safe; does not block (the account is read from the watch cache once it has caught
 * up with storage).
 */
public final class TokenRequestHandler implements RestHandler {

  static final long DEFAULT_EXPIRATION_SECONDS = 3600;
  static final long MIN_EXPIRATION_SECONDS = 600;
  static final long MAX_EXPIRATION_SECONDS = 1L << 32;
  private static final ListOptions CONSISTENT = ListOptions.parse(Map.of());

  private final Cacher serviceAccounts;
  private final ServiceAccountTokenGenerator generator;
  private final List<String> apiAudiences;
  private final ObjectMapper json = ReviewBodies.JSON;

  public TokenRequestHandler(Cacher serviceAccounts, ServiceAccountTokenGenerator generator,
      List<String> apiAudiences) {
    this.serviceAccounts = serviceAccounts;
    this.generator = generator;
    this.apiAudiences = List.copyOf(apiAudiences);
  }

  @Override
  public CompletableFuture<ApiResponse> handle(RequestInfo info, ApiRequest request) {
    if (!ApiRequest.POST.equals(request.method())) {
      throw StatusException.methodNotAllowed();
    }
    if (info.namespace().isEmpty() || info.name().isEmpty()) {
      throw StatusException.pathNotFound();
    }
    ObjectNode tr = ReviewBodies.read(request, "TokenRequest", true);
    ObjectNode meta = (ObjectNode) tr.get("metadata");
    meta.put("name", info.name());
    meta.put("namespace", info.namespace());
    ObjectNode spec = tr.get("spec") instanceof ObjectNode s ? s : tr.putObject("spec");
    List<String> audiences = ReviewBodies.strings(spec, "audiences", "spec.audiences");
    if (audiences.isEmpty()) {
      audiences = apiAudiences;
    }
    ArrayNode auds = spec.putArray("audiences");
    audiences.forEach(auds::add);
    long seconds = expirationSeconds(spec);
    spec.put("expirationSeconds", seconds);
    if (!spec.has("boundObjectRef")) {
      spec.putNull("boundObjectRef");
    }
    validate(spec, seconds);
    List<String> tokenAudiences = audiences;
    return serviceAccounts.get(info.namespace(), info.name(), CONSISTENT).thenApply(sa -> {
      CachedObject account = sa.orElseThrow(() -> StatusException.notFound("", "serviceaccounts", info.name()));
      ServiceAccountTokenGenerator.Token token = generator.issue(info.namespace(), info.name(), uid(account),
          tokenAudiences, Duration.ofSeconds(seconds));
      ObjectNode status = tr.putObject("status");
      status.put("token", token.token());
      status.put("expirationTimestamp", DateTimeFormatter.ISO_INSTANT.format(token.expiration()));
      return ApiResponse.created(tr);
    });
  }

  private static long expirationSeconds(ObjectNode spec) {
    JsonNode e = spec.get("expirationSeconds");
    if (e == null || e.isNull()) {
      return DEFAULT_EXPIRATION_SECONDS;
    }
    if (!e.canConvertToExactIntegral() || !e.canConvertToLong()) {
      throw StatusException.badRequest("spec.expirationSeconds must be an integer");
    }
    return e.longValue();
  }

  private static void validate(ObjectNode spec, long seconds) {
    List<Status.Cause> causes = new ArrayList<>();
    if (seconds < MIN_EXPIRATION_SECONDS) {
      causes.add(new Status.Cause(Reasons.FIELD_VALUE_INVALID,
          "Invalid value: " + seconds + ": may not specify a duration less than 10 minutes", "spec.expirationSeconds"));
    }
    if (seconds > MAX_EXPIRATION_SECONDS) {
      causes.add(new Status.Cause(Reasons.FIELD_VALUE_INVALID,
          "Invalid value: " + seconds + ": may not specify a duration larger than 2^32 seconds",
          "spec.expirationSeconds"));
    }
    if (spec.hasNonNull("boundObjectRef")) {
      causes.add(new Status.Cause(Reasons.FIELD_VALUE_FORBIDDEN,
          "Forbidden: this server does not bind tokens to objects", "spec.boundObjectRef"));
    }
    if (!causes.isEmpty()) {
      throw StatusException.invalid("authentication.k8s.io", "TokenRequest", "", causes);
    }
  }

  private String uid(CachedObject account) {
    try {
      return json.readTree(account.json()).path("metadata").path("uid").asText("");
    } catch (IOException e) {
      throw StatusException.internal("cannot read service account " + account.namespace() + "/" + account.name());
    }
  }
}
