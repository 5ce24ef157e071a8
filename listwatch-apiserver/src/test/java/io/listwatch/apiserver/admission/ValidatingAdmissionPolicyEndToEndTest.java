package io.listwatch.apiserver.admission;

import static io.listwatch.apiserver.admission.PolicyTestCore.BINDINGS;
import static io.listwatch.apiserver.admission.PolicyTestCore.DEPLOYMENTS;
import static io.listwatch.apiserver.admission.PolicyTestCore.POLICIES;
import static io.listwatch.apiserver.admission.PolicyTestCore.deployment;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.request.ApiResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The ValidatingAdmissionPolicy plug-in in the core, with the examples of kubernetes.io's
 * "Validating Admission Policy" page: policies and bindings written through the API, then
 * Deployments denied, warned about or let through as kube-apiserver does.
 */
class ValidatingAdmissionPolicyEndToEndTest {


  /** The docs' first policy. */
  private static final String DEMO_POLICY = """
      {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy",
       "metadata":{"name":"demo-policy.example.com"},
       "spec":{"failurePolicy":"Fail",
        "matchConstraints":{"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],
          "operations":["CREATE","UPDATE"],"resources":["deployments"]}]},
        "validations":[{"expression":"object.spec.replicas <= 5"}]}}""";

  private static final String DEMO_BINDING = """
      {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding",
       "metadata":{"name":"demo-binding-test.example.com"},
       "spec":{"policyName":"demo-policy.example.com","validationActions":%s,
        "matchResources":{"namespaceSelector":{"matchLabels":{"environment":"test"}}}}}""";

  private final PolicyTestCore api = new PolicyTestCore();

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void docsExample_deniesTooManyReplicas_inMatchedNamespaces_withKubesMessageAndCode() {
    api.created(POLICIES, DEMO_POLICY);
    api.created(BINDINGS, DEMO_BINDING.formatted("[\"Deny\"]"));

    StatusException e = api.refused("test", deployment("nginx", 6));
    assertThat(e.code()).isEqualTo(422);
    assertThat(e.reason()).isEqualTo("Invalid");
    String why = "ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com'"
        + " denied request: failed expression: object.spec.replicas <= 5";
    assertThat(e.status().message()).isEqualTo("deployments.apps \"nginx\" is forbidden: " + why);
    assertThat(e.status().details().causes()).extracting(c -> c.message()).containsExactly(why);
    assertThat(e.status().details().kind()).isEqualTo("deployments");
    assertThat(e.status().details().group()).isEqualTo("apps");

    api.created(DEPLOYMENTS.formatted("test"), deployment("small", 5));
    api.created(DEPLOYMENTS.formatted("prod"), deployment("big", 6));
  }

  @Test
  void update_isCheckedToo() {
    api.created(POLICIES, DEMO_POLICY);
    api.created(BINDINGS, DEMO_BINDING.formatted("[\"Deny\"]"));
    api.created(DEPLOYMENTS.formatted("test"), deployment("nginx", 2));
    String grown = deployment("nginx", 7);
    api.synced();
    StatusException e = api.core.refusal("PUT", DEPLOYMENTS.formatted("test") + "/nginx", Map.of(), grown);
    assertThat(e.code()).isEqualTo(422);
  }

  @Test
  void delete_isChecked_withTheStoredObjectAsOldObject() {
    api.created(POLICIES, """
        {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy",
         "metadata":{"name":"no-delete-protected"},
         "spec":{"matchConstraints":{"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],
            "operations":["DELETE"],"resources":["deployments"]}]},
          "validations":[{"expression":"object == null && !('protected' in oldObject.metadata.labels)",
            "message":"protected deployments may not be deleted"}]}}""");
    api.created(BINDINGS, DEMO_BINDING.formatted("[\"Deny\"]").replace("demo-policy.example.com", "no-delete-protected"));
    api.created(DEPLOYMENTS.formatted("test"), deployment("open", 1));
    api.created(DEPLOYMENTS.formatted("test"), deployment("kept", 1).replace("\"app\":\"nginx\"}},", "\"app\":\"nginx\",\"protected\":\"yes\"}},"));
    api.synced();
    assertThat(api.core.send("DELETE", DEPLOYMENTS.formatted("test") + "/open", Map.of(), null).code()).isEqualTo(200);
    StatusException e = api.core.refusal("DELETE", DEPLOYMENTS.formatted("test") + "/kept", Map.of(), null);
    assertThat(e.code()).isEqualTo(422);
    assertThat(e.status().message()).isEqualTo("deployments.apps \"kept\" is forbidden: ValidatingAdmissionPolicy"
        + " 'no-delete-protected' with binding 'demo-binding-test.example.com' denied request:"
        + " protected deployments may not be deleted");
  }

  @Test
  void warn_letsTheWriteThrough_withKubesWarningHeader() {
    api.created(POLICIES, DEMO_POLICY);
    api.created(BINDINGS, DEMO_BINDING.formatted("[\"Warn\",\"Audit\"]"));
    ApiResponse r = api.created(DEPLOYMENTS.formatted("test"), deployment("nginx", 6));
    assertThat(r.headers().get("Warning")).containsExactly(ApiResponse.warningHeader(
        "Validation failed for ValidatingAdmissionPolicy 'demo-policy.example.com' with binding"
            + " 'demo-binding-test.example.com': failed expression: object.spec.replicas <= 5"));
  }

  @Test
  void messageExpression_andReason_shapeTheRefusal() {
    api.created(POLICIES, """
        {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy",
         "metadata":{"name":"demo-policy.example.com"},
         "spec":{"matchConstraints":{"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],
            "operations":["CREATE","UPDATE"],"resources":["deployments"]}]},
          "validations":[{"expression":"object.spec.replicas > 50","reason":"Forbidden",
            "messageExpression":"'object.spec.replicas must be greater than 50, got ' + string(object.spec.replicas)"}]}}""");
    api.created(BINDINGS, DEMO_BINDING.formatted("[\"Deny\"]"));
    StatusException e = api.refused("test", deployment("nginx", 3));
    assertThat(e.code()).isEqualTo(403);
    assertThat(e.reason()).isEqualTo("Forbidden");
    assertThat(e.status().message()).endsWith("denied request: object.spec.replicas must be greater than 50, got 3");
  }

  @Test
  void variables_andMatchConditions() {
    api.created(POLICIES, """
        {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy",
         "metadata":{"name":"image-matches-namespace-environment.policy.example.com"},
         "spec":{"failurePolicy":"Fail",
          "matchConstraints":{"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],
            "operations":["CREATE","UPDATE"],"resources":["deployments"]}]},
          "matchConditions":[{"name":"exclude-nginx-big","expression":"object.metadata.name != 'exempt'"}],
          "variables":[
            {"name":"environment","expression":"'environment' in namespaceObject.metadata.labels ? namespaceObject.metadata.labels['environment'] : 'prod'"},
            {"name":"exempt","expression":"'exempt' in object.metadata.labels && object.metadata.labels['exempt'] == 'true'"},
            {"name":"containers","expression":"object.spec.template.spec.containers"},
            {"name":"containersToCheck","expression":"variables.containers.filter(c, c.image.contains('example.com/'))"}],
          "validations":[{"expression":"variables.exempt || variables.containersToCheck.all(c, c.image.startsWith(variables.environment + '.'))",
            "messageExpression":"'only ' + variables.environment + ' images are allowed in namespace ' + namespaceObject.metadata.name"}]}}""");
    api.created(BINDINGS, """
        {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding",
         "metadata":{"name":"image-binding"},
         "spec":{"policyName":"image-matches-namespace-environment.policy.example.com","validationActions":["Deny"]}}""");
    String bad = deployment("nginx", 1).replace("\"image\":\"nginx\"", "\"image\":\"example.com/nginx\"");
    StatusException e = api.refused("test", bad);
    assertThat(e.status().message()).endsWith("denied request: only test images are allowed in namespace test");
    api.created(DEPLOYMENTS.formatted("test"), bad.replace("example.com/nginx", "test.example.com/nginx"));
    api.created(DEPLOYMENTS.formatted("test"), bad.replace("\"name\":\"nginx\"", "\"name\":\"exempt\""));
  }

  private static final String REPLICA_LIMIT_POLICY = """
      {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy",
       "metadata":{"name":"replicalimit-policy.example.com"},
       "spec":{"failurePolicy":"Fail","paramKind":{"apiVersion":"v1","kind":"ConfigMap"},
        "matchConstraints":{"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],
          "operations":["CREATE","UPDATE"],"resources":["deployments"]}]},
        "validations":[{"expression":"object.spec.replicas <= int(params.data.maxReplicas)","reason":"Invalid",
          "messageExpression":"'object.spec.replicas must be no greater than ' + params.data.maxReplicas"}]}}""";

  private static String limit(String name, String namespace, int max, String labels) {
    return """
        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","namespace":"%s","labels":%s},
         "data":{"maxReplicas":"%d"}}""".formatted(name, namespace, labels, max);
  }

  private static String paramBinding(String name, String paramRef) {
    return """
        {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding",
         "metadata":{"name":"%s"},
         "spec":{"policyName":"replicalimit-policy.example.com","validationActions":["Deny"],"paramRef":%s,
          "matchResources":{"namespaceSelector":{"matchLabels":{"environment":"test"}}}}}""".formatted(name, paramRef);
  }

  @Test
  void params_byName_inTheRequestsNamespace_orTheGivenOne() {
    api.created(POLICIES, REPLICA_LIMIT_POLICY);
    api.created("/api/v1/namespaces/default/configmaps", limit("replica-limit-test.example.com", "default", 3, "{}"));
    api.created(BINDINGS, paramBinding("replicalimit-binding-test.example.com",
        "{\"name\":\"replica-limit-test.example.com\",\"namespace\":\"default\",\"parameterNotFoundAction\":\"Deny\"}"));
    StatusException e = api.refused("test", deployment("nginx", 4));
    assertThat(e.status().message()).isEqualTo("deployments.apps \"nginx\" is forbidden: ValidatingAdmissionPolicy"
        + " 'replicalimit-policy.example.com' with binding 'replicalimit-binding-test.example.com' denied request:"
        + " object.spec.replicas must be no greater than 3");
    api.created(DEPLOYMENTS.formatted("test"), deployment("nginx", 3));
  }

  @Test
  void params_bySelector_eachSelectedParamIsChecked() {
    api.created(POLICIES, REPLICA_LIMIT_POLICY);
    api.created("/api/v1/namespaces/test/configmaps", limit("loose", "test", 10, "{\"kind\":\"limit\"}"));
    api.created("/api/v1/namespaces/test/configmaps", limit("strict", "test", 2, "{\"kind\":\"limit\"}"));
    api.created("/api/v1/namespaces/test/configmaps", limit("other", "test", 1, "{\"kind\":\"other\"}"));
    api.created(BINDINGS, paramBinding("by-selector",
        "{\"selector\":{\"matchLabels\":{\"kind\":\"limit\"}},\"parameterNotFoundAction\":\"Allow\"}"));
    assertThat(api.refused("test", deployment("nginx", 3)).status().message())
        .endsWith("denied request: object.spec.replicas must be no greater than 2");
    api.created(DEPLOYMENTS.formatted("test"), deployment("nginx", 2));
  }

  @Test
  void parameterNotFoundAction_denyRefuses_allowSkipsTheBinding() {
    api.created(POLICIES, REPLICA_LIMIT_POLICY);
    api.created(BINDINGS, paramBinding("allow-missing",
        "{\"name\":\"missing\",\"parameterNotFoundAction\":\"Allow\"}"));
    api.created(DEPLOYMENTS.formatted("test"), deployment("a", 9));

    api.created(BINDINGS, paramBinding("deny-missing",
        "{\"name\":\"missing\",\"parameterNotFoundAction\":\"Deny\"}"));
    StatusException e = api.refused("test", deployment("b", 1));
    assertThat(e.code()).isEqualTo(422);
    assertThat(e.status().message()).isEqualTo("deployments.apps \"b\" is forbidden: ValidatingAdmissionPolicy"
        + " 'replicalimit-policy.example.com' with binding 'deny-missing' denied request: failed to configure binding:"
        + " no params found for policy binding with `Deny` parameterNotFoundAction");
  }

  @Test
  void evaluationErrors_followTheFailurePolicy() {
    String policy = DEMO_POLICY.replace("object.spec.replicas <= 5", "object.spec.missing <= 5");
    api.created(POLICIES, policy);
    api.created(BINDINGS, DEMO_BINDING.formatted("[\"Deny\"]"));
    assertThat(api.refused("test", deployment("nginx", 1)).status().message()).endsWith(
        "denied request: expression 'object.spec.missing <= 5' resulted in error: no such key: missing");

    ApiResponse current = api.core.send("GET", POLICIES + "/demo-policy.example.com", Map.of(), null);
    var stored = io.listwatch.apiserver.strategy.StrategyCasesAccess.body(current);
    stored.with("spec").put("failurePolicy", "Ignore");
    assertThat(api.core.send("PUT", POLICIES + "/demo-policy.example.com", Map.of(), stored.toString()).code())
        .isEqualTo(200);
    api.created(DEPLOYMENTS.formatted("test"), deployment("nginx", 1));
  }

  @Test
  void policiesAndBindings_areServed_withDefaults_andTables() {
    api.created(POLICIES, DEMO_POLICY.replace("\"failurePolicy\":\"Fail\",", ""));
    var policy = io.listwatch.apiserver.strategy.StrategyCasesAccess.body(
        api.core.send("GET", POLICIES + "/demo-policy.example.com", Map.of(), null));
    assertThat(policy.at("/spec/failurePolicy").asText()).isEqualTo("Fail");
    assertThat(policy.at("/spec/matchConstraints/matchPolicy").asText()).isEqualTo("Equivalent");
    assertThat(policy.at("/spec/matchConstraints/namespaceSelector").isObject()).isTrue();
    assertThat(policy.at("/spec/matchConstraints/objectSelector").isObject()).isTrue();
    assertThat(policy.at("/spec/matchConstraints/resourceRules/0/scope").asText()).isEqualTo("*");
    assertThat(policy.at("/metadata/generation").asLong()).isEqualTo(1);

    String full = """
        {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy",
         "metadata":{"name":"full"},
         "spec":{"failurePolicy":"Ignore","paramKind":{"apiVersion":"v1","kind":"ConfigMap"},
          "matchConstraints":{"matchPolicy":"Exact","namespaceSelector":{"matchLabels":{"a":"b"}},
            "objectSelector":{"matchExpressions":[{"key":"x","operator":"Exists"}]},
            "resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],"operations":["CREATE"],
              "resources":["deployments","deployments/scale"],"resourceNames":["a"],"scope":"Namespaced"}],
            "excludeResourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["*"],"resources":["pods"],"scope":"*"}]},
          "matchConditions":[{"name":"m","expression":"true"}],
          "variables":[{"name":"v","expression":"1"}],
          "validations":[{"expression":"variables.v == 1","message":"m","messageExpression":"'x'","reason":"Forbidden"}],
          "auditAnnotations":[{"key":"k","valueExpression":"'v'"}]}}""";
    api.created(POLICIES, full);
    var stored = io.listwatch.apiserver.strategy.StrategyCasesAccess.body(api.core.send("GET", POLICIES + "/full", Map.of(), null));
    assertThat(stored.get("spec")).isEqualTo(InMemoryCore.json(full).get("spec"));
    assertThat(stored.at("/status").isMissingNode() || stored.at("/status").isEmpty()).isTrue();

    StatusException invalid = api.core.refusal("POST", BINDINGS, Map.of(), """
        {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding",
         "metadata":{"name":"b"},"spec":{"policyName":"demo-policy.example.com"}}""");
    assertThat(invalid.code()).isEqualTo(422);
    assertThat(invalid.getMessage()).isEqualTo("ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io \"b\""
        + " is invalid: spec.validationActions: Required value: at least one validation action is required");
  }

  /** kubernetes.io's ServiceCIDR example policy (vap-servicecidr-default.yaml), with kube's CIDR library. */
  private static final String SERVICECIDRS_DEFAULT = """
      {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy",
       "metadata":{"name":"servicecidrs.default"},
       "spec":{"failurePolicy":"Fail",
        "matchConstraints":{"resourceRules":[{"apiGroups":["networking.k8s.io"],"apiVersions":["v1"],
          "operations":["CREATE","UPDATE"],"resources":["servicecidrs"]}]},
        "matchConditions":[{"name":"exclude-default-servicecidr","expression":"object.metadata.name != 'kubernetes'"}],
        "variables":[{"name":"allowed","expression":"['10.96.0.0/16','2001:db8::/64']"}],
        "validations":[{"expression":"object.spec.cidrs.all(newCIDR, variables.allowed.exists(allowedCIDR, cidr(allowedCIDR).containsCIDR(newCIDR)))"}]}}""";

  @Test
  void docsServiceCidrPolicy_isAccepted_andItsCidrRuleDecides() {
    api.created(POLICIES, SERVICECIDRS_DEFAULT);
    api.created(BINDINGS, """
        {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding",
         "metadata":{"name":"servicecidrs-default-binding"},
         "spec":{"policyName":"servicecidrs.default","validationActions":["Deny","Audit"]}}""");

    // The same rule on ConfigMaps (ServiceCIDR is not served): data.cidrs, comma-separated.
    api.created(POLICIES, SERVICECIDRS_DEFAULT.replace("servicecidrs.default", "configmap-cidrs")
        .replace("\"networking.k8s.io\"", "\"\"").replace("\"servicecidrs\"", "\"configmaps\"")
        .replace("object.spec.cidrs.all", "object.data.cidrs.split(',').all"));
    api.created(BINDINGS, DEMO_BINDING.formatted("[\"Deny\"]").replace("demo-policy.example.com", "configmap-cidrs"));
    api.synced();
    String configMap = """
        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s"},"data":{"cidrs":"%s"}}""";
    assertThat(api.core.send("POST", "/api/v1/namespaces/test/configmaps", Map.of(),
        configMap.formatted("inside", "10.96.10.0/24,2001:db8::/96")).code()).isEqualTo(201);
    StatusException e = api.core.refusal("POST", "/api/v1/namespaces/test/configmaps", Map.of(),
        configMap.formatted("outside", "10.96.0.0/24,10.97.0.0/24"));
    assertThat(e.code()).isEqualTo(422);
    assertThat(e.status().message()).endsWith("denied request: failed expression: object.data.cidrs.split(',')"
        + ".all(newCIDR, variables.allowed.exists(allowedCIDR, cidr(allowedCIDR).containsCIDR(newCIDR)))");
  }
}
