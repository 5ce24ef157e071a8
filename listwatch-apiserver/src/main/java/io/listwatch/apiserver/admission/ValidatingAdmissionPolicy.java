package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.apiextensions.cel.AdmissionExpression;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube's {@code ValidatingAdmissionPolicy} plug-in (validating phase): every
 * ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1) with at least one
 * ValidatingAdmissionPolicyBinding is checked against each write, as kube's
 * {@code policy/validating} dispatcher does.
 *
 * <h2>Dispatch</h2>
 * For each policy (by name) whose {@code matchConstraints} match the request
 * ({@link PolicyMatcher}), for each of its bindings (by name) whose {@code matchResources}
 * match, for each param the binding selects ({@link PolicyParams}), the policy is evaluated
 * ({@link CompiledPolicy}). A failed validation acts as the binding's
 * {@code validationActions} say:
 * <ul>
 *   <li>{@code Deny}: the write is refused with the FIRST denial, kube's Forbidden made with the
 *       validation's {@code reason} (default Invalid, 422):
 *       {@code deployments.apps "x" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b'
 *       denied request: <message>}, the same text as the only cause;</li>
 *   <li>{@code Warn}: a warning {@code Validation failed for ValidatingAdmissionPolicy 'p' with
 *       binding 'b': <message>};</li>
 *   <li>{@code Audit}: the audit annotation {@code validation.policy.admission.k8s.io/validation_failure}
 *       with kube's JSON ({@code [{"message":..,"policy":..,"binding":..,"expressionIndex":..,
 *       "validationActions":[..]}]}).</li>
 * </ul>
 * auditAnnotations are published as {@code <policy name>/<key>} (distinct values of several
 * bindings or params joined by ", "). A policy or binding that cannot be evaluated (a param kind
 * the server does not serve now, built-in or custom, a param missing with {@code parameterNotFoundAction: Deny}, ...)
 * denies under {@code failurePolicy: Fail} ({@code failed to configure binding: <why>}) and is
 * skipped under Ignore. Writes of the policies and bindings themselves are not checked, as in kube.
 *
 * <h2>Caching</h2>
 * Policies, bindings, params (of built-in or custom kinds) and namespaces are read through
 * {@link Listers} (the watch cache).
 * Each policy is compiled once per resourceVersion.
 *
 * <p>Thread-safe.
 */
public final class ValidatingAdmissionPolicy implements AdmissionPlugin {

  static final String GROUP = "admissionregistration.k8s.io";
  static final String POLICIES = "validatingadmissionpolicies";
  static final String BINDINGS = "validatingadmissionpolicybindings";
  private static final String FAILURE_ANNOTATION = "validation.policy.admission.k8s.io/validation_failure";
  private static final int MAX_AUDIT_ANNOTATION_VALUE_LENGTH = 10 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Listers listers;
  /** The compiled form of each policy, by name, with the resourceVersion it was compiled at. */
  private final Map<String, Cached> compiled = new ConcurrentHashMap<>();

  private record Cached(String resourceVersion, CompiledPolicy policy) {
  }

  /** A denial to answer with, kube's {@code policyDecisionWithMetadata}. */
  private record Denial(String policy, String binding, String message, String reason) {
  }

  public ValidatingAdmissionPolicy(Listers listers) {
    this.listers = listers;
  }

  /** Creates, updates and deletes: a policy's rules say which it checks. */
  @Override
  public boolean handles(AdmissionAttributes.Operation operation) {
    return true;
  }

  @Override
  public CompletableFuture<Void> validate(AdmissionAttributes a) {
    try {
      check(a);
      return CompletableFuture.completedFuture(null);
    } catch (StatusException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private void check(AdmissionAttributes a) {
    if (a.resource().group().equals(GROUP) && (a.resource().plural().equals(POLICIES)
        || a.resource().plural().equals(BINDINGS))) {
      return;
    }
    List<ObjectNode> bindings = listers.list(GROUP, BINDINGS, "");
    if (bindings.isEmpty()) {
      return;
    }
    Map<String, List<ObjectNode>> byPolicy = new HashMap<>();
    bindings.stream().sorted(Comparator.comparing(ValidatingAdmissionPolicy::name))
        .forEach(b -> byPolicy.computeIfAbsent(b.path("spec").path("policyName").asText(""), k -> new ArrayList<>()).add(b));
    List<ObjectNode> policies = new ArrayList<>(listers.list(GROUP, POLICIES, ""));
    policies.sort(Comparator.comparing(ValidatingAdmissionPolicy::name));
    forget(policies);
    List<Denial> denials = new ArrayList<>();
    Map<String, Object> request = null;
    Object namespaceObject = null;
    for (ObjectNode policy : policies) {
      List<ObjectNode> policyBindings = byPolicy.get(name(policy));
      if (policyBindings == null) {
        continue;
      }
      JsonNode spec = policy.path("spec");
      if (!PolicyMatcher.matches(spec.path("matchConstraints"), a, listers)) {
        continue;
      }
      String failurePolicy = spec.path("failurePolicy").asText("Fail");
      JsonNode paramKind = spec.get("paramKind");
      Optional<ResourceDefinition> paramResource = Optional.empty();
      if (paramKind != null && paramKind.isObject()) {
        paramResource = PolicyParams.resolve(paramKind, listers);
        if (paramResource.isEmpty()) {
          configError(failurePolicy, name(policy), null, "failed to configure policy: failed to find resource"
              + " referenced by paramKind: '" + PolicyParams.gvkString(paramKind) + "'", denials);
          continue;
        }
      } else {
        paramKind = null;
      }
      CompiledPolicy evaluator = compiled(policy);
      Map<String, List<String>> annotations = new LinkedHashMap<>();
      for (ObjectNode binding : policyBindings) {
        if (!PolicyMatcher.matches(binding.path("spec").get("matchResources"), a, listers)) {
          continue;
        }
        List<ObjectNode> params;
        try {
          params = PolicyParams.collect(paramKind, paramResource.orElse(null), binding.path("spec").get("paramRef"),
              a.namespace(), listers);
        } catch (PolicyParams.ConfigurationError e) {
          configError(failurePolicy, name(policy), name(binding), "failed to configure binding: " + e.getMessage(),
              denials);
          continue;
        }
        if (request == null) {
          request = PolicyRequest.request(a);
          namespaceObject = PolicyRequest.namespaceObject(a, listers);
        }
        for (ObjectNode param : params) {
          Map<String, Object> vars = new HashMap<>();
          vars.put("object", a.object() == null ? AdmissionExpression.nullValue() : AdmissionExpression.value(a.object()));
          vars.put("oldObject", a.oldObject() == null ? AdmissionExpression.nullValue()
              : AdmissionExpression.value(a.oldObject()));
          vars.put("request", request);
          vars.put("namespaceObject", namespaceObject);
          vars.put("params", param == null ? AdmissionExpression.nullValue() : AdmissionExpression.value(param));
          CompiledPolicy.Result result = evaluator.validate(vars);
          act(a, policy, binding, result, denials, annotations);
        }
      }
      annotations.forEach((key, values) -> a.addAnnotation(name(policy) + "/" + key, String.join(", ", values)));
    }
    if (!denials.isEmpty()) {
      throw refusal(a, denials.get(0));
    }
  }

  private void act(AdmissionAttributes a, ObjectNode policy, ObjectNode binding, CompiledPolicy.Result result,
      List<Denial> denials, Map<String, List<String>> annotations) {
    List<String> actions = new ArrayList<>();
    binding.path("spec").path("validationActions").forEach(v -> actions.add(v.asText()));
    for (int i = 0; i < result.decisions().size(); i++) {
      CompiledPolicy.Decision d = result.decisions().get(i);
      if (!d.deny()) {
        continue;
      }
      for (String action : actions) {
        switch (action) {
          case "Deny" -> denials.add(new Denial(name(policy), name(binding), d.message(), d.reason()));
          case "Warn" -> a.warnings().add("Validation failed for ValidatingAdmissionPolicy '" + name(policy)
              + "' with binding '" + name(binding) + "': " + d.message());
          case "Audit" -> a.addAnnotation(FAILURE_ANNOTATION, failureValue(binding, i, d.message()));
          default -> {
          }
        }
      }
    }
    for (CompiledPolicy.AnnotationResult r : result.annotations()) {
      if (r.error() != null) {
        denials.add(new Denial(name(policy), name(binding), r.error(), null));
      } else if (r.value() != null) {
        String value = r.value().length() > MAX_AUDIT_ANNOTATION_VALUE_LENGTH
            ? r.value().substring(0, MAX_AUDIT_ANNOTATION_VALUE_LENGTH) : r.value();
        Set<String> distinct = new LinkedHashSet<>(annotations.computeIfAbsent(r.key(), k -> new ArrayList<>()));
        if (distinct.add(value)) {
          annotations.get(r.key()).add(value);
        }
      }
    }
  }

  /** kube's {@code ValidationFailureValue} list, as JSON. */
  private static String failureValue(ObjectNode binding, int expressionIndex, String message) {
    ArrayNode list = JSON.createArrayNode();
    ObjectNode v = list.addObject();
    v.put("message", message);
    v.put("policy", binding.path("spec").path("policyName").asText(""));
    v.put("binding", name(binding));
    v.put("expressionIndex", expressionIndex);
    v.set("validationActions", binding.path("spec").path("validationActions").deepCopy());
    return list.toString();
  }

  private static void configError(String failurePolicy, String policy, String binding, String message,
      List<Denial> denials) {
    switch (failurePolicy) {
      case "Ignore" -> {
      }
      case "Fail" -> denials.add(new Denial(policy, binding, message, null));
      default -> denials.add(new Denial(policy, binding, "unrecognized failure policy: '" + failurePolicy + "'", null));
    }
  }

  /** kube's refusal: admission's Forbidden with the denial's reason and its code, and the message as a cause. */
  private static StatusException refusal(AdmissionAttributes a, Denial d) {
    String message = d.binding() == null
        ? "ValidatingAdmissionPolicy '" + d.policy() + "' denied request: " + d.message()
        : "ValidatingAdmissionPolicy '" + d.policy() + "' with binding '" + d.binding() + "' denied request: "
            + d.message();
    String reason = d.reason() == null || d.reason().isEmpty() ? "Invalid" : d.reason();
    Status forbidden = StatusException.forbidden(a.resource().group(), a.resource().plural(), objectName(a), message)
        .status();
    Status.Details details = forbidden.details().withCauses(List.of(new Status.Cause(null, message, null)));
    return new StatusException(Status.failure(code(reason), reason, forbidden.message(), details));
  }

  /** kube's {@code reasonToCode}. */
  private static int code(String reason) {
    return switch (reason) {
      case "Forbidden" -> 403;
      case "Unauthorized" -> 401;
      case "RequestEntityTooLarge" -> 413;
      default -> 422;
    };
  }

  /** kube's {@code extractResourceName}: the name, else the object's generateName, else "Unknown". */
  private static String objectName(AdmissionAttributes a) {
    if (!a.name().isEmpty()) {
      return a.name();
    }
    if (a.object() != null) {
      JsonNode meta = a.object().path("metadata");
      if (!meta.path("name").asText("").isEmpty()) {
        return meta.path("name").asText();
      }
      if (!meta.path("generateName").asText("").isEmpty()) {
        return meta.path("generateName").asText();
      }
    }
    return "Unknown";
  }

  private CompiledPolicy compiled(ObjectNode policy) {
    String rv = policy.path("metadata").path("resourceVersion").asText("");
    Cached c = compiled.compute(name(policy), (k, old) ->
        old != null && old.resourceVersion().equals(rv) ? old : new Cached(rv, new CompiledPolicy(policy)));
    return c.policy();
  }

  /** Drops the compiled forms of policies that are gone. */
  private void forget(List<ObjectNode> policies) {
    if (compiled.size() > policies.size()) {
      Set<String> names = new java.util.HashSet<>();
      policies.forEach(p -> names.add(name(p)));
      compiled.keySet().retainAll(names);
    }
  }

  static String name(JsonNode obj) {
    return obj.path("metadata").path("name").asText("");
  }
}
