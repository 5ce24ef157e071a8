package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;

/**
 * IngressClasses (networking.k8s.io/v1), kube's validation ({@code ValidateIngressClass},
 * {@code ValidateIngressClassUpdate}): {@code spec.controller} required, a domain-prefixed path
 * of at most 250 bytes, immutable; {@code spec.parameters}, when given, with a DNS-1123
 * subdomain {@code apiGroup}, a required path-segment {@code kind} and {@code name}, and a
 * required {@code scope} of Cluster (no {@code namespace}) or Namespace (a {@code namespace}
 * that is a namespace name). Defaults ({@code SetDefaults_IngressClass}): a parameters reference
 * without a scope gets {@code scope: Cluster}. Stateless.
 */
final class IngressClassStrategy implements RestStrategy {

  private static final int MAX_CONTROLLER_LENGTH = 250;
  private static final List<String> SCOPES = List.of("Cluster", "Namespace");

  @Override
  public void defaults(ObjectNode obj) {
    if (obj.path("spec").path("parameters") instanceof ObjectNode parameters) {
      Fields.defaultIfAbsent(parameters, "scope", "Cluster");
    }
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode spec = obj.path("spec");
    if (old != null) {
      JsonNode oldController = old.path("spec").path("controller");
      if (!spec.path("controller").asText("").equals(oldController.asText(""))) {
        errors.add(FieldErrors.invalid("spec.controller", spec.path("controller").asText(""), "field is immutable"));
      }
    }
    String controller = spec.path("controller").asText("");
    if (NameSyntax.byteLength(controller) > MAX_CONTROLLER_LENGTH) {
      errors.add(FieldErrors.tooLong("spec.controller", MAX_CONTROLLER_LENGTH));
    }
    DomainPrefixedPath.validate("spec.controller", controller, errors);
    JsonNode parameters = spec.path("parameters");
    if (parameters.isObject()) {
      parameters(parameters, errors);
    }
  }

  /** kube's {@code validateIngressClassParametersReference}. */
  private static void parameters(JsonNode params, List<Status.Cause> errors) {
    String path = "spec.parameters";
    if (NumericFields.given(params.path("apiGroup"))) {
      String group = params.path("apiGroup").asText("");
      for (String msg : NameSyntax.isDns1123Subdomain(group)) {
        errors.add(FieldErrors.invalid(path + ".apiGroup", group, msg));
      }
    }
    pathSegment(params, "kind", errors);
    pathSegment(params, "name", errors);
    JsonNode scope = params.path("scope");
    if (!NumericFields.given(scope)) {
      errors.add(FieldErrors.required(path + ".scope", ""));
      return;
    }
    JsonNode namespace = params.path("namespace");
    switch (scope.asText("")) {
      case "Namespace" -> {
        if (!NumericFields.given(namespace)) {
          errors.add(FieldErrors.required(path + ".namespace", "`parameters.scope` is set to 'Namespace'"));
        } else {
          for (String msg : NameSyntax.isDns1123Label(namespace.asText(""))) {
            errors.add(FieldErrors.invalid(path + ".namespace", namespace.asText(""), msg));
          }
        }
      }
      case "Cluster" -> {
        if (NumericFields.given(namespace)) {
          errors.add(FieldErrors.forbidden(path + ".namespace", "`parameters.scope` is set to 'Cluster'"));
        }
      }
      default -> errors.add(FieldErrors.notSupported(path + ".scope", scope.asText(""), SCOPES));
    }
  }

  /** A required reference field that must be a path segment. */
  private static void pathSegment(JsonNode params, String field, List<Status.Cause> errors) {
    String path = "spec.parameters." + field;
    String value = params.path(field).asText("");
    if (value.isEmpty()) {
      errors.add(FieldErrors.required(path, field + " is required"));
      return;
    }
    for (String msg : NameSyntax.isValidPathSegmentName(value)) {
      errors.add(FieldErrors.invalid(path, value, msg));
    }
  }
}
