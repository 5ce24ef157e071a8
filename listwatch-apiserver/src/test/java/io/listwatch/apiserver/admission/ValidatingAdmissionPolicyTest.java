package io.listwatch.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.registry.ResourceRegistry;
import io.listwatch.apiserver.request.AuditAnnotations;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * The plug-in alone, on objects it reads from a stub of the watch cache: the audit annotations
 * (Audit action, auditAnnotations), matching rules, and configuration errors, as kube's
 * dispatcher answers them.
 */
class ValidatingAdmissionPolicyTest {

  /** Objects by plural. */
  private final Map<String, List<ObjectNode>> objects = new java.util.HashMap<>();

  private final Listers listers = new Listers() {
    @Override
    public Optional<ObjectNode> get(String group, String plural, String namespace, String name) {
      return list(group, plural, namespace).stream()
          .filter(o -> o.path("metadata").path("name").asText().equals(name)).findFirst();
    }

    @Override
    public List<ObjectNode> list(String group, String plural, String namespace) {
      return objects.getOrDefault(plural, List.of()).stream()
          .filter(o -> namespace.isEmpty() || o.path("metadata").path("namespace").asText().equals(namespace))
          .map(ObjectNode::deepCopy).toList();
    }
  };

  private void add(String plural, String json) {
    objects.computeIfAbsent(plural, k -> new ArrayList<>()).add(InMemoryCore.json(json));
  }

  private static String policy(String name, String spec) {
    return """
        {"metadata":{"name":"%s","resourceVersion":"1"},"spec":{"failurePolicy":"Fail",
          "matchConstraints":{"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],
            "operations":["CREATE","UPDATE"],"resources":["deployments"]}]},%s}}""".formatted(name, spec);
  }

  private static String binding(String name, String policy, String actions) {
    return """
        {"metadata":{"name":"%s"},"spec":{"policyName":"%s","validationActions":%s}}""".formatted(name, policy, actions);
  }

  private static AdmissionAttributes create(String name, int replicas, Map<String, String> labels) {
    ObjectNode d = InMemoryCore.json("""
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%s","namespace":"default"},
         "spec":{"replicas":%d}}""".formatted(name, replicas));
    labels.forEach((k, v) -> d.with("metadata").with("labels").put(k, v));
    return new AdmissionAttributes(AdmissionAttributes.Operation.CREATE,
        ResourceRegistry.builtins().find("apps", "v1", "deployments").orElseThrow(), "", "default", name, d, null,
        AdmissionAttributes.SERVER, false, new Warnings(), new AuditAnnotations());
  }

  private StatusException refusal(AdmissionAttributes a) {
    try {
      new ValidatingAdmissionPolicy(listers).validate(a).join();
      return null;
    } catch (CompletionException e) {
      return (StatusException) e.getCause();
    }
  }

  @Test
  void warnAndAudit_recordKubesWarning_andValidationFailureAnnotation() {
    add("validatingadmissionpolicies", policy("p", """
        "validations":[{"expression":"true"},{"expression":"object.spec.replicas <= 5","message":"too many"}]"""));
    add("validatingadmissionpolicybindings", binding("b", "p", "[\"Warn\",\"Audit\"]"));
    AdmissionAttributes a = create("d", 6, Map.of());
    assertThat(refusal(a)).isNull();
    assertThat(a.warnings().list())
        .containsExactly("Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': too many");
    assertThat(a.auditAnnotations().map()).containsExactly(Map.entry(
        "validation.policy.admission.k8s.io/validation_failure",
        "[{\"message\":\"too many\",\"policy\":\"p\",\"binding\":\"b\",\"expressionIndex\":1,"
            + "\"validationActions\":[\"Warn\",\"Audit\"]}]"));
  }

  @Test
  void auditAnnotations_arePublishedUnderThePolicysName() {
    add("validatingadmissionpolicies", policy("demo-policy.example.com", """
        "auditAnnotations":[{"key":"high-replica-count",
          "valueExpression":"object.spec.replicas > 50 ? 'Deployment spec.replicas set to ' + string(object.spec.replicas) : null"}]"""));
    add("validatingadmissionpolicybindings", binding("b", "demo-policy.example.com", "[\"Audit\"]"));
    AdmissionAttributes big = create("d", 60, Map.of());
    assertThat(refusal(big)).isNull();
    assertThat(big.auditAnnotations().map()).containsExactly(
        Map.entry("demo-policy.example.com/high-replica-count", "Deployment spec.replicas set to 60"));
    AdmissionAttributes small = create("d", 6, Map.of());
    assertThat(refusal(small)).isNull();
    assertThat(small.auditAnnotations().map()).isEmpty();
  }

  @Test
  void auditAnnotation_ofTheWrongType_deniesUnderFail() {
    add("validatingadmissionpolicies", policy("p", """
        "auditAnnotations":[{"key":"k","valueExpression":"object.spec.replicas"}]"""));
    add("validatingadmissionpolicybindings", binding("b", "p", "[\"Deny\"]"));
    StatusException e = refusal(create("d", 1, Map.of()));
    assertThat(e).isNotNull();
  }

  @Test
  void objectSelector_andExcludedResources_andResourceNames() {
    add("validatingadmissionpolicies", """
        {"metadata":{"name":"p","resourceVersion":"1"},"spec":{"failurePolicy":"Fail",
          "matchConstraints":{"objectSelector":{"matchLabels":{"checked":"yes"}},
            "resourceRules":[{"apiGroups":["*"],"apiVersions":["*"],"operations":["*"],"resources":["*"]}],
            "excludeResourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],"operations":["*"],
              "resources":["deployments"],"resourceNames":["excluded"]}]},
          "validations":[{"expression":"false","message":"no"}]}}""");
    add("validatingadmissionpolicybindings", binding("b", "p", "[\"Deny\"]"));
    assertThat(refusal(create("d", 1, Map.of()))).isNull();
    assertThat(refusal(create("d", 1, Map.of("checked", "yes")))).isNotNull();
    assertThat(refusal(create("excluded", 1, Map.of("checked", "yes")))).isNull();
  }

  @Test
  void aParamKindThisServerCannotRead_isAConfigurationError() {
    add("validatingadmissionpolicies", policy("p", """
        "paramKind":{"apiVersion":"rules.example.com/v1","kind":"ReplicaLimit"},
        "validations":[{"expression":"object.spec.replicas <= params.maxReplicas"}]"""));
    add("validatingadmissionpolicybindings", """
        {"metadata":{"name":"b"},"spec":{"policyName":"p","validationActions":["Deny"],
          "paramRef":{"name":"x","parameterNotFoundAction":"Deny"}}}""");
    StatusException e = refusal(create("d", 1, Map.of()));
    assertThat(e.status().message()).isEqualTo("deployments.apps \"d\" is forbidden: ValidatingAdmissionPolicy 'p'"
        + " denied request: failed to configure policy: failed to find resource referenced by paramKind:"
        + " 'rules.example.com/v1, Kind=ReplicaLimit'");
  }

  @Test
  void aPolicyWithoutBindings_isNotEvaluated() {
    add("validatingadmissionpolicies", policy("p", "\"validations\":[{\"expression\":\"false\"}]"));
    add("validatingadmissionpolicybindings", binding("b", "other", "[\"Deny\"]"));
    assertThat(refusal(create("d", 1, Map.of()))).isNull();
  }
}
