package io.listwatch.server.authz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.rest.ApiRoutes;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.protobuf.KubeProtobuf;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * kube's access reviews (authorization.k8s.io/v1), virtual resources that only answer
 * {@code create} with 201 and the request object plus its {@code status}:
 * <ul>
 *   <li>SelfSubjectAccessReview: may I? ({@code kubectl auth can-i}). Status
 *       {@code {allowed, denied?, reason?, evaluationError?}}.
 *   <li>SelfSubjectRulesReview: what may I do in a namespace? ({@code kubectl auth can-i
 *       --list}). Status {@code {resourceRules, nonResourceRules, incomplete, evaluationError?}}.
 *   <li>SubjectAccessReview (cluster-scoped) and LocalSubjectAccessReview (namespaced): may
 *       this user or these groups? For other components; the caller needs {@code create} on it.
 * </ul>
 * Members of system:masters may do anything, as in the request filters. Stateless beyond its
 * collaborators; thread-safe and non-blocking.
 */
public final class AccessReviews {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  static final String GROUP = "authorization.k8s.io";

  private final Authorizer authorizer;
  private final RuleResolver rules;

  private AccessReviews(Authorizer authorizer, RuleResolver rules) {
    this.authorizer = authorizer;
    this.rules = rules;
  }

  /** Serves the four reviews on {@code routes}; call before the server accepts requests. */
  public static void register(ResourceRegistry registry, ApiRoutes routes, Authorizer authorizer, RuleResolver rules) {
    AccessReviews reviews = new AccessReviews(authorizer, rules);
    routes.resources().register(def(registry, "selfsubjectaccessreviews"), "", reviews::selfSubjectAccessReview);
    routes.resources().register(def(registry, "selfsubjectrulesreviews"), "", reviews::selfSubjectRulesReview);
    routes.resources().register(def(registry, "subjectaccessreviews"), "", reviews::subjectAccessReview);
    routes.resources().register(def(registry, "localsubjectaccessreviews"), "", reviews::localSubjectAccessReview);
  }

  private static ResourceDefinition def(ResourceRegistry registry, String plural) {
    return registry.find(GROUP, "v1", plural).orElseThrow(() -> new IllegalStateException("no " + plural));
  }

  CompletableFuture<ApiResponse> selfSubjectAccessReview(RequestInfo info, ApiRequest request) {
    ObjectNode review = body(request, "SelfSubjectAccessReview");
    JsonNode spec = review.path("spec");
    List<Status.Cause> causes = new ArrayList<>();
    checkOneOf(spec, causes);
    invalidIfAny("SelfSubjectAccessReview", causes);
    return answer(review, attributes(request.user(), spec));
  }

  CompletableFuture<ApiResponse> subjectAccessReview(RequestInfo info, ApiRequest request) {
    ObjectNode review = body(request, "SubjectAccessReview");
    JsonNode spec = review.path("spec");
    invalidIfAny("SubjectAccessReview", subjectAccessCauses(spec));
    return answer(review, attributes(subject(spec), spec));
  }

  CompletableFuture<ApiResponse> localSubjectAccessReview(RequestInfo info, ApiRequest request) {
    ObjectNode review = body(request, "LocalSubjectAccessReview");
    JsonNode spec = review.path("spec");
    List<Status.Cause> causes = subjectAccessCauses(spec);
    if (spec.path("nonResourceAttributes").isObject()) {
      causes.add(new Status.Cause(Reasons.FIELD_VALUE_INVALID, "Invalid value: " + spec.get("nonResourceAttributes")
          + ": disallowed on this kind of request", "spec.nonResourceAttributes"));
    }
    invalidIfAny("LocalSubjectAccessReview", causes);
    String namespace = spec.path("resourceAttributes").path("namespace").asText("");
    if (!info.namespace().equals(namespace)) {
      throw StatusException.badRequest("spec.resourceAttributes.namespace must match namespace: " + info.namespace());
    }
    return answer(review, attributes(subject(spec), spec));
  }

  CompletableFuture<ApiResponse> selfSubjectRulesReview(RequestInfo info, ApiRequest request) {
    ObjectNode review = body(request, "SelfSubjectRulesReview");
    String namespace = review.path("spec").path("namespace").asText("");
    if (namespace.isEmpty()) {
      throw StatusException.badRequest("no namespace on request");
    }
    UserInfo user = request.user();
    List<RuleResolver.ResourceRule> resource = new ArrayList<>();
    List<RuleResolver.NonResourceRule> nonResource = new ArrayList<>();
    if (user.inGroup(UserInfo.MASTERS)) {
      resource.addAll(RuleResolver.EVERYTHING.resourceRules());
      nonResource.addAll(RuleResolver.EVERYTHING.nonResourceRules());
    }
    RuleResolver.SubjectRules found = rules.rulesFor(user, namespace);
    resource.addAll(found.resourceRules());
    nonResource.addAll(found.nonResourceRules());
    ObjectNode status = review.putObject("status");
    ArrayNode rr = status.putArray("resourceRules");
    for (RuleResolver.ResourceRule r : resource) {
      ObjectNode o = rr.addObject();
      strings(o, "verbs", r.verbs(), true);
      strings(o, "apiGroups", r.apiGroups(), false);
      strings(o, "resources", r.resources(), false);
      strings(o, "resourceNames", r.resourceNames(), false);
    }
    ArrayNode nr = status.putArray("nonResourceRules");
    for (RuleResolver.NonResourceRule r : nonResource) {
      ObjectNode o = nr.addObject();
      strings(o, "verbs", r.verbs(), true);
      strings(o, "nonResourceURLs", r.nonResourceURLs(), false);
    }
    status.put("incomplete", found.incomplete());
    if (!found.evaluationError().isEmpty()) {
      status.put("evaluationError", found.evaluationError());
    }
    return CompletableFuture.completedFuture(ApiResponse.created(review));
  }

  private CompletableFuture<ApiResponse> answer(ObjectNode review, Attributes attributes) {
    Decision d = attributes.user().inGroup(UserInfo.MASTERS) ? Decision.allow("") : authorizer.authorize(attributes);
    ObjectNode status = review.putObject("status");
    status.put("allowed", d.allowed());
    if (d.kind() == Decision.Kind.DENY) {
      status.put("denied", true);
    }
    if (d.reason() != null && !d.reason().isEmpty()) {
      status.put("reason", d.reason());
    }
    return CompletableFuture.completedFuture(ApiResponse.created(review));
  }

  /** kube's {@code ResourceAttributesFrom} / {@code NonResourceAttributesFrom}. */
  private static Attributes attributes(UserInfo user, JsonNode spec) {
    JsonNode r = spec.get("resourceAttributes");
    if (r != null && r.isObject()) {
      String version = r.path("version").asText("");
      return new Attributes(user, r.path("verb").asText(""), true, "", r.path("group").asText(""),
          version.isEmpty() ? "*" : version, r.path("resource").asText(""), r.path("subresource").asText(""),
          r.path("namespace").asText(""), r.path("name").asText(""));
    }
    JsonNode n = spec.path("nonResourceAttributes");
    return Attributes.nonResource(user, n.path("verb").asText(""), n.path("path").asText(""));
  }

  /** The user a (Local)SubjectAccessReview asks about: exactly as given, no groups added. */
  private static UserInfo subject(JsonNode spec) {
    List<String> groups = new ArrayList<>();
    spec.path("groups").forEach(g -> groups.add(g.asText()));
    Map<String, List<String>> extra = new java.util.LinkedHashMap<>();
    spec.path("extra").properties().forEach(e -> {
      List<String> values = new ArrayList<>();
      e.getValue().forEach(v -> values.add(v.asText()));
      extra.put(e.getKey(), values);
    });
    return new UserInfo(spec.path("user").asText(""), spec.path("uid").asText(""), groups, extra);
  }

  private static void checkOneOf(JsonNode spec, List<Status.Cause> causes) {
    boolean resource = spec.path("resourceAttributes").isObject();
    boolean nonResource = spec.path("nonResourceAttributes").isObject();
    if (resource && nonResource) {
      causes.add(new Status.Cause(Reasons.FIELD_VALUE_INVALID, "Invalid value: " + spec.get("nonResourceAttributes")
          + ": cannot be specified in combination with resourceAttributes", "spec.nonResourceAttributes"));
    }
    if (!resource && !nonResource) {
      causes.add(new Status.Cause(Reasons.FIELD_VALUE_INVALID, "Invalid value: \"null\": exactly one of "
          + "nonResourceAttributes or resourceAttributes must be specified", "spec.resourceAttributes"));
    }
  }

  /**
   * What makes the spec of a review of another subject's access (SubjectAccessReview,
   * LocalSubjectAccessReview) invalid: not exactly one of the attributes, or no subject.
   */
  private static List<Status.Cause> subjectAccessCauses(JsonNode spec) {
    List<Status.Cause> causes = new ArrayList<>();
    checkOneOf(spec, causes);
    checkSubject(spec, causes);
    return causes;
  }

  private static void checkSubject(JsonNode spec, List<Status.Cause> causes) {
    if (spec.path("user").asText("").isEmpty() && spec.path("groups").isEmpty()) {
      causes.add(new Status.Cause(Reasons.FIELD_VALUE_INVALID,
          "Invalid value: \"\": at least one of user or group must be specified", "spec.user"));
    }
  }

  private static void invalidIfAny(String kind, List<Status.Cause> causes) {
    if (!causes.isEmpty()) {
      throw StatusException.invalid(GROUP, kind, "", causes);
    }
  }

  private static ObjectNode body(ApiRequest request, String kind) {
    boolean protobuf = KubeProtobuf.isProtobufBody(request.mediaType());
    if (request.body().length == 0) {
      throw StatusException.badRequest("the request has no body");
    }
    JsonNode node;
    try {
      node = protobuf ? KubeProtobuf.decode(request.body(), GROUP + "/v1", kind) : MAPPER.readTree(request.body());
    } catch (IOException e) {
      throw StatusException.badRequest("the body of the request is not valid JSON: " + e.getMessage());
    }
    if (!(node instanceof ObjectNode review)) {
      throw StatusException.badRequest("the body of the request must be a JSON object");
    }
    String apiVersion = review.path("apiVersion").asText("");
    if (!apiVersion.isEmpty() && !apiVersion.equals(GROUP + "/v1")) {
      throw StatusException.badRequest("the API version in the data (" + apiVersion
          + ") does not match the expected API version (" + GROUP + "/v1)");
    }
    String k = review.path("kind").asText("");
    if (!k.isEmpty() && !k.equals(kind)) {
      throw StatusException.badRequest("the kind in the data (" + k + ") does not match the expected kind (" + kind + ")");
    }
    review.put("kind", kind);
    review.put("apiVersion", GROUP + "/v1");
    if (!(review.get("metadata") instanceof ObjectNode meta)) {
      review.putObject("metadata").putNull("creationTimestamp");
    } else if (!meta.has("creationTimestamp")) {
      meta.putNull("creationTimestamp");
    }
    review.remove("status");
    // keep kind, apiVersion, metadata first as kube writes them
    ObjectNode ordered = MAPPER.createObjectNode();
    ordered.set("kind", review.get("kind"));
    ordered.set("apiVersion", review.get("apiVersion"));
    ordered.set("metadata", review.get("metadata"));
    ordered.setAll(review);
    return ordered;
  }

  private static void strings(ObjectNode o, String field, List<String> values, boolean always) {
    if (always || !values.isEmpty()) {
      ArrayNode a = o.putArray(field);
      values.forEach(a::add);
    }
  }
}
