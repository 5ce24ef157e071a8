package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * FlowSchemas (flowcontrol.apiserver.k8s.io/v1), kube 1.32's strategy, defaults and validation.
 * Defaults: {@code spec.matchingPrecedence: 1000} when 0 or unset.
 *
 * <p>Validation ({@code ValidateFlowSchema}, the same on create and update):
 * {@code matchingPrecedence} 1 to 10000, 1 only for the schema named {@code exempt};
 * {@code distinguisherMethod.type} ByUser or ByNamespace when the method is given;
 * {@code priorityLevelConfiguration.name} required, a DNS subdomain; each rule has subjects (kind
 * User, Group or ServiceAccount, with the matching member and only it, and its name; a service
 * account's namespace a DNS label and its name {@code *} or a DNS subdomain) and resource or
 * non-resource rules: verbs ({@code *} alone, or of get, list, create, update, delete,
 * deletecollection, patch, watch, proxy), api groups, resources ({@code *} alone), namespaces
 * ({@code *} alone, or DNS labels; required unless {@code clusterScope}), non-resource URLs
 * ({@code *} alone, or paths from {@code /}, without white-space or {@code //}, {@code *} only as
 * a {@code /*} suffix); the mandatory {@code exempt} and {@code catch-all} schemas keep their
 * fixed spec ({@link MandatoryFlowcontrolConfiguration}); the status conditions
 * ({@link FlowcontrolStatusValidation}), also on {@code /status}. The server clears the status
 * on create, keeps it on update and bumps the generation on a spec change (the definition's
 * flags). Stateless.
 */
final class FlowSchemaStrategy implements RestStrategy {

  /** kube's {@code FlowSchemaMaxMatchingPrecedence}. */
  private static final long MAX_MATCHING_PRECEDENCE = 10000;
  private static final List<String> VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch",
      "proxy", "update", "watch");
  private static final List<String> SUBJECT_KINDS = List.of("Group", "ServiceAccount", "User");
  private static final String NS_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

  @Override
  public void defaults(ObjectNode obj) {
    if (obj.path("spec") instanceof ObjectNode spec) {
      JsonNode precedence = spec.path("matchingPrecedence");
      if (!NumericFields.given(precedence) || (precedence.isIntegralNumber() && precedence.longValue() == 0)) {
        spec.put("matchingPrecedence", 1000);
      }
    }
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    String name = obj.path("metadata").path("name").asText("");
    JsonNode spec = obj.path("spec");
    validateSpec(name, spec, errors);
    ObjectNode mandatory = MandatoryFlowcontrolConfiguration.flowSchemaSpec(name);
    if (mandatory != null && !MandatoryFlowcontrolConfiguration.semanticallyEqual(spec, mandatory)) {
      errors.add(FieldErrors.invalid("spec", specLiteral(spec), "spec of '" + name + "' must equal the fixed value"));
    }
    FlowcontrolStatusValidation.validate(obj, errors);
  }

  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    FlowcontrolStatusValidation.refuse("FlowSchema", obj);
  }

  /** kube's {@code ValidateFlowSchemaSpec}. */
  private static void validateSpec(String name, JsonNode spec, List<Status.Cause> errors) {
    long precedence = spec.path("matchingPrecedence").asLong(0);
    if (precedence <= 0) {
      errors.add(FieldErrors.invalid("spec.matchingPrecedence", precedence, "must be a positive value"));
    }
    if (precedence > MAX_MATCHING_PRECEDENCE) {
      errors.add(FieldErrors.invalid("spec.matchingPrecedence", precedence,
          "must not be greater than " + MAX_MATCHING_PRECEDENCE));
    }
    if (precedence == 1 && !name.equals("exempt")) {
      errors.add(FieldErrors.invalid("spec.matchingPrecedence", precedence,
          "only the schema named 'exempt' may have matchingPrecedence 1"));
    }
    JsonNode method = spec.path("distinguisherMethod");
    if (NumericFields.given(method)) {
      String type = method.path("type").asText("");
      if (!type.equals("ByUser") && !type.equals("ByNamespace")) {
        errors.add(FieldErrors.notSupported("spec.distinguisherMethod.type",
            GoLiteral.struct("flowcontrol.FlowDistinguisherMethod", "Type", FieldErrors.goValue(type)),
            List.of("ByNamespace", "ByUser")));
      }
    }
    String level = spec.path("priorityLevelConfiguration").path("name").asText("");
    if (level.isEmpty()) {
      errors.add(FieldErrors.required("spec.priorityLevelConfiguration.name", "must reference a priority level"));
    } else {
      for (String msg : NameSyntax.isDns1123Subdomain(level)) {
        errors.add(FieldErrors.invalid("spec.priorityLevelConfiguration.name", level, msg));
      }
    }
    JsonNode rules = spec.path("rules");
    for (int i = 0; i < rules.size(); i++) {
      validateRule(rules.get(i), "spec.rules[" + i + "]", errors);
    }
  }

  /** kube's {@code ValidateFlowSchemaPolicyRulesWithSubjects}. */
  private static void validateRule(JsonNode rule, String path, List<Status.Cause> errors) {
    JsonNode subjects = rule.path("subjects");
    if (subjects.isEmpty()) {
      errors.add(FieldErrors.required(path + ".subjects", "subjects must contain at least one value"));
    }
    for (int i = 0; i < subjects.size(); i++) {
      validateSubject(subjects.get(i), path + ".subjects[" + i + "]", errors);
    }
    JsonNode resourceRules = rule.path("resourceRules");
    JsonNode nonResourceRules = rule.path("nonResourceRules");
    if (resourceRules.isEmpty() && nonResourceRules.isEmpty()) {
      errors.add(FieldErrors.required(path, "at least one of resourceRules and nonResourceRules has to be non-empty"));
    }
    for (int i = 0; i < resourceRules.size(); i++) {
      validateResourceRule(resourceRules.get(i), path + ".resourceRules[" + i + "]", errors);
    }
    for (int i = 0; i < nonResourceRules.size(); i++) {
      validateNonResourceRule(nonResourceRules.get(i), path + ".nonResourceRules[" + i + "]", errors);
    }
  }

  /**
   * kube's {@code ValidateFlowSchemaSubject}: of the members serviceAccount, user and group (in
   * that order), the kind's is required and checked, the others forbidden.
   */
  private static void validateSubject(JsonNode subject, String path, List<Status.Cause> errors) {
    String kind = subject.path("kind").asText("");
    if (!SUBJECT_KINDS.contains(kind)) {
      errors.add(FieldErrors.notSupported(path + ".kind", kind, SUBJECT_KINDS));
      return;
    }
    for (String memberKind : List.of("ServiceAccount", "User", "Group")) {
      String member = Character.toLowerCase(memberKind.charAt(0)) + memberKind.substring(1);
      JsonNode value = subject.path(member);
      if (!kind.equals(memberKind)) {
        if (NumericFields.given(value)) {
          errors.add(FieldErrors.forbidden(path + "." + member,
              member + " is forbidden when subject kind is not '" + memberKind + "'"));
        }
      } else if (!value.isObject()) {
        errors.add(FieldErrors.required(path + "." + member, member + " is required when subject kind is '" + kind + "'"));
      } else if (kind.equals("ServiceAccount")) {
        validateServiceAccount(value, path + ".serviceAccount", errors);
      } else if (value.path("name").asText("").isEmpty()) {
        errors.add(FieldErrors.required(path + "." + member + ".name", ""));
      }
    }
  }

  /** kube's {@code ValidateServiceAccountSubject} of a given member. */
  private static void validateServiceAccount(JsonNode sa, String path, List<Status.Cause> errors) {
    String name = sa.path("name").asText("");
    if (name.isEmpty()) {
      errors.add(FieldErrors.required(path + ".name", ""));
    } else if (!name.equals("*")) {
      for (String msg : NameSyntax.isDns1123Subdomain(name)) {
        errors.add(FieldErrors.invalid(path + ".name", name, msg));
      }
    }
    String namespace = sa.path("namespace").asText("");
    if (namespace.isEmpty()) {
      errors.add(FieldErrors.required(path + ".namespace", "must specify namespace for service account"));
    }
    for (String msg : namespace.isEmpty() ? List.<String>of() : NameSyntax.isDns1123Label(namespace)) {
      errors.add(FieldErrors.invalid(path + ".namespace", namespace, msg));
    }
  }

  /** kube's {@code ValidateFlowSchemaResourcePolicyRule}. */
  private static void validateResourceRule(JsonNode rule, String path, List<Status.Cause> errors) {
    validateVerbs(strings(rule.path("verbs")), path, errors);
    List<String> groups = strings(rule.path("apiGroups"));
    if (groups.isEmpty()) {
      errors.add(FieldErrors.required(path + ".apiGroups", "resource rules must supply at least one api group"));
    } else if (groups.size() > 1 && groups.contains("*")) {
      errors.add(FieldErrors.invalid(path + ".apiGroups", groups, "if '*' is present, must not specify other api groups"));
    }
    List<String> resources = strings(rule.path("resources"));
    if (resources.isEmpty()) {
      errors.add(FieldErrors.required(path + ".resources", "resource rules must supply at least one resource"));
    } else if (resources.size() > 1 && resources.contains("*")) {
      errors.add(FieldErrors.invalid(path + ".resources", resources, "if '*' is present, must not specify other resources"));
    }
    List<String> namespaces = strings(rule.path("namespaces"));
    if (namespaces.isEmpty() && !rule.path("clusterScope").asBoolean(false)) {
      errors.add(FieldErrors.required(path + ".namespaces",
          "resource rules that are not cluster scoped must supply at least one namespace"));
    } else if (namespaces.contains("*")) {
      if (namespaces.size() > 1) {
        errors.add(FieldErrors.invalid(path + ".namespaces", namespaces, "if '*' is present, must not specify other namespaces"));
      }
    } else {
      for (int i = 0; i < namespaces.size(); i++) {
        for (String msg : NameSyntax.isDns1123Label(namespaces.get(i))) {
          errors.add(FieldErrors.invalid(path + ".namespaces[" + i + "]", namespaces.get(i), NS_INTRO + msg));
        }
      }
    }
  }

  /** kube's {@code ValidateFlowSchemaNonResourcePolicyRule}. */
  private static void validateNonResourceRule(JsonNode rule, String path, List<Status.Cause> errors) {
    validateVerbs(strings(rule.path("verbs")), path, errors);
    List<String> urls = strings(rule.path("nonResourceURLs"));
    if (urls.isEmpty()) {
      errors.add(FieldErrors.required(path + ".nonResourceURLs", "nonResourceURLs must contain at least one value"));
    } else if (urls.contains("*")) {
      if (urls.size() > 1) {
        errors.add(FieldErrors.invalid(path + ".nonResourceURLs", urls,
            "if '*' is present, must not specify other non-resource URLs"));
      }
    } else {
      for (int i = 0; i < urls.size(); i++) {
        String problem = nonResourceUrlProblem(urls.get(i));
        if (problem != null) {
          errors.add(FieldErrors.invalid(path + ".nonResourceURLs[" + i + "]", urls.get(i), problem));
        }
      }
    }
  }

  private static void validateVerbs(List<String> verbs, String path, List<Status.Cause> errors) {
    if (verbs.isEmpty()) {
      errors.add(FieldErrors.required(path + ".verbs", "verbs must contain at least one value"));
    } else if (verbs.contains("*")) {
      if (verbs.size() > 1) {
        errors.add(FieldErrors.invalid(path + ".verbs", verbs, "if '*' is present, must not specify other verbs"));
      }
    } else if (!Set.copyOf(VERBS).containsAll(verbs)) {
      errors.add(FieldErrors.notSupported(path + ".verbs", verbs, VERBS));
    }
  }

  /** kube's {@code ValidateNonResourceURLPath}: null when {@code url} is a valid path, else why not. */
  static String nonResourceUrlProblem(String url) {
    if (url.isEmpty()) {
      return "must not be empty";
    }
    if (url.equals("/")) {
      return null;
    }
    if (!url.startsWith("/")) {
      return "must start with slash";
    }
    if (url.contains(" ")) {
      return "must not contain white-space";
    }
    if (url.contains("//")) {
      return "must not contain double slash";
    }
    long wildcards = url.chars().filter(c -> c == '*').count();
    if (wildcards > 1 || (wildcards == 1 && !url.endsWith("/*"))) {
      return "wildcard can only do suffix matching";
    }
    return null;
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(v -> out.add(v.asText("")));
    return out;
  }

  /**
   * The spec as kube prints it in its error ({@code %#v} of the internal struct); the addresses
   * of set pointers are not reproduced and the rules are abbreviated.
   */
  private static GoLiteral specLiteral(JsonNode spec) {
    return GoLiteral.struct("flowcontrol.FlowSchemaSpec",
        "PriorityLevelConfiguration", GoLiteral.struct("flowcontrol.PriorityLevelConfigurationReference", "Name",
            FieldErrors.goValue(spec.path("priorityLevelConfiguration").path("name").asText(""))).text(),
        "MatchingPrecedence", String.valueOf(spec.path("matchingPrecedence").asLong(0)),
        "DistinguisherMethod", PriorityLevelConfigurationStrategy.pointer("flowcontrol.FlowDistinguisherMethod",
            spec.path("distinguisherMethod")),
        "Rules", "[]flowcontrol.PolicyRulesWithSubjects{...}");
  }
}
