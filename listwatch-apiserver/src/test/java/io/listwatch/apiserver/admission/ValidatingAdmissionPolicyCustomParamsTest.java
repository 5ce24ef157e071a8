package io.listwatch.apiserver.admission;

import static io.listwatch.apiserver.admission.PolicyTestCore.BINDINGS;
import static io.listwatch.apiserver.admission.PolicyTestCore.DEPLOYMENTS;
import static io.listwatch.apiserver.admission.PolicyTestCore.POLICIES;
import static io.listwatch.apiserver.admission.PolicyTestCore.deployment;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.strategy.StrategyCasesAccess;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * ValidatingAdmissionPolicy params of a custom resource kind, with kubernetes.io's "Parameter
 * resources" example: the ReplicaLimit kind ({@code rules.example.com/v1}, namespaced, a
 * top-level {@code maxReplicas}) defined by a CustomResourceDefinition, the docs' policy
 * ({@code policy-with-param.yaml}), binding ({@code binding-with-param.yaml}) and param
 * ({@code replicalimit-param.yaml}), then Deployments denied, warned about or let through as
 * kube-apiserver 1.32 does; and a param kind whose definition does not exist yet.
 */
class ValidatingAdmissionPolicyCustomParamsTest {

  private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  private static final String LIMITS = "/apis/rules.example.com/v1/namespaces/%s/replicalimits";

  /** The ReplicaLimit kind the docs bring their own definition of ("Bring Your Own CRD"). */
  private static final String REPLICA_LIMIT_CRD = """
      {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
       "metadata":{"name":"replicalimits.rules.example.com"},
       "spec":{"group":"rules.example.com","scope":"Namespaced",
        "names":{"plural":"replicalimits","singular":"replicalimit","kind":"ReplicaLimit"},
        "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{
          "type":"object","properties":{"maxReplicas":{"type":"integer"}}}}}]}}""";

  /** The docs' {@code policy-with-param.yaml}. */
  private static final String POLICY = """
      {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy",
       "metadata":{"name":"replicalimit-policy.example.com"},
       "spec":{"failurePolicy":"%s","paramKind":{"apiVersion":"rules.example.com/v1","kind":"ReplicaLimit"},
        "matchConstraints":{"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],
          "operations":["CREATE","UPDATE"],"resources":["deployments"]}]},
        "validations":[{"expression":"object.spec.replicas <= params.maxReplicas","reason":"Invalid"}]}}""";

  private static final String WHY = "failed expression: object.spec.replicas <= params.maxReplicas";

  private final PolicyTestCore api = new PolicyTestCore("/apis/rules.example.com/v1/replicalimits");

  @AfterEach
  void stop() {
    api.close();
  }

  /** The docs' {@code binding-with-param.yaml}, with {@code validationActions} and {@code paramRef} given. */
  private static String binding(String actions, String paramRef) {
    return """
        {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding",
         "metadata":{"name":"replicalimit-binding-test.example.com"},
         "spec":{"policyName":"replicalimit-policy.example.com","validationActions":%s,"paramRef":%s,
          "matchResources":{"namespaceSelector":{"matchLabels":{"environment":"test"}}}}}""".formatted(actions, paramRef);
  }

  private static final String DOCS_PARAM_REF =
      "{\"name\":\"replica-limit-test.example.com\",\"namespace\":\"default\",\"parameterNotFoundAction\":\"Deny\"}";

  /** The docs' {@code replicalimit-param.yaml}, with {@code name}, {@code maxReplicas} and labels given. */
  private static String limit(String name, int max, String labels) {
    return """
        {"apiVersion":"rules.example.com/v1","kind":"ReplicaLimit",
         "metadata":{"name":"%s","namespace":"default","labels":%s},"maxReplicas":%d}""".formatted(name, labels, max);
  }

  /** Defines ReplicaLimit and waits until it is served. */
  private void defineReplicaLimit() {
    api.created(CRDS, REPLICA_LIMIT_CRD);
    Await.until("replicalimits served", Duration.ofSeconds(10), () -> api.code("GET", LIMITS.formatted("default"), null),
        c -> c == 200);
  }

  @Test
  void docsExample_replicaLimitParam_deniesOverTheLimit_withKubesMessage_andAdmitsWithin() {
    defineReplicaLimit();
    api.created(LIMITS.formatted("default"), limit("replica-limit-test.example.com", 3, "{}"));
    api.created(POLICIES, POLICY.formatted("Fail"));
    api.created(BINDINGS, binding("[\"Deny\"]", DOCS_PARAM_REF));

    StatusException e = api.refused("test", deployment("nginx", 4));
    assertThat(e.code()).isEqualTo(422);
    assertThat(e.reason()).isEqualTo("Invalid");
    String why = "ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding"
        + " 'replicalimit-binding-test.example.com' denied request: " + WHY;
    assertThat(e.status().message()).isEqualTo("deployments.apps \"nginx\" is forbidden: " + why);
    assertThat(e.status().details().causes()).extracting(c -> c.message()).containsExactly(why);

    api.created(DEPLOYMENTS.formatted("test"), deployment("nginx", 3));
    api.created(DEPLOYMENTS.formatted("prod"), deployment("big", 10));
  }

  @Test
  void warn_letsTheWriteThrough_withKubesWarningHeader() {
    defineReplicaLimit();
    api.created(LIMITS.formatted("default"), limit("replica-limit-test.example.com", 3, "{}"));
    api.created(POLICIES, POLICY.formatted("Fail"));
    api.created(BINDINGS, binding("[\"Warn\"]", DOCS_PARAM_REF));

    ApiResponse r = api.created(DEPLOYMENTS.formatted("test"), deployment("nginx", 4));
    assertThat(r.headers().get("Warning")).containsExactly(ApiResponse.warningHeader(
        "Validation failed for ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding"
            + " 'replicalimit-binding-test.example.com': " + WHY));
    assertThat(api.created(DEPLOYMENTS.formatted("test"), deployment("small", 3)).headers().get("Warning")).isNull();
  }

  @Test
  void paramsBySelector_eachSelectedReplicaLimitIsChecked() {
    defineReplicaLimit();
    api.created(LIMITS.formatted("default"), limit("loose", 10, "{\"tier\":\"limit\"}"));
    api.created(LIMITS.formatted("default"), limit("strict", 2, "{\"tier\":\"limit\"}"));
    api.created(LIMITS.formatted("default"), limit("unselected", 1, "{\"tier\":\"other\"}"));
    api.created(POLICIES, POLICY.formatted("Fail"));
    api.created(BINDINGS, binding("[\"Deny\"]",
        "{\"namespace\":\"default\",\"selector\":{\"matchLabels\":{\"tier\":\"limit\"}},\"parameterNotFoundAction\":\"Deny\"}"));

    assertThat(api.refused("test", deployment("nginx", 3)).status().message()).endsWith("denied request: " + WHY);
    api.created(DEPLOYMENTS.formatted("test"), deployment("nginx", 2));
  }

  @Test
  void missingParamKind_isKubesConfigurationError_underFail_skippedUnderIgnore_andWorksOnceTheCrdIsServed() {
    api.created(POLICIES, POLICY.formatted("Fail"));
    api.created(BINDINGS, binding("[\"Deny\"]", DOCS_PARAM_REF));

    StatusException e = api.refused("test", deployment("nginx", 1));
    assertThat(e.code()).isEqualTo(422);
    String why = "ValidatingAdmissionPolicy 'replicalimit-policy.example.com' denied request: failed to configure"
        + " policy: failed to find resource referenced by paramKind: 'rules.example.com/v1, Kind=ReplicaLimit'";
    assertThat(e.status().message()).isEqualTo("deployments.apps \"nginx\" is forbidden: " + why);
    assertThat(e.status().details().causes()).extracting(c -> c.message()).containsExactly(why);
    // a policy's error comes before its bindings are matched, as kube's dispatcher orders them
    assertThat(api.refused("prod", deployment("nginx", 1)).status().message()).endsWith(why);

    var stored = StrategyCasesAccess.body(api.core.send("GET", POLICIES + "/replicalimit-policy.example.com", Map.of(), null));
    stored.with("spec").put("failurePolicy", "Ignore");
    assertThat(api.core.send("PUT", POLICIES + "/replicalimit-policy.example.com", Map.of(), stored.toString()).code())
        .isEqualTo(200);
    api.created(DEPLOYMENTS.formatted("test"), deployment("ignored", 9));

    // defined after the policy: used from the next request on, without a restart
    defineReplicaLimit();
    api.created(LIMITS.formatted("default"), limit("replica-limit-test.example.com", 3, "{}"));
    assertThat(api.refused("test", deployment("nginx", 4)).status().message()).endsWith("denied request: " + WHY);
    api.created(DEPLOYMENTS.formatted("test"), deployment("nginx", 3));
  }

  @Test
  void paramChangedOrDeleted_isSeenByTheNextRequest() {
    defineReplicaLimit();
    String param = LIMITS.formatted("default") + "/replica-limit-test.example.com";
    api.created(LIMITS.formatted("default"), limit("replica-limit-test.example.com", 3, "{}"));
    api.created(POLICIES, POLICY.formatted("Fail"));
    api.created(BINDINGS, binding("[\"Deny\"]", DOCS_PARAM_REF));
    api.refused("test", deployment("nginx", 5));

    var stored = StrategyCasesAccess.body(api.core.send("GET", param, Map.of(), null));
    stored.put("maxReplicas", 5);
    assertThat(api.core.send("PUT", param, Map.of(), stored.toString()).code()).isEqualTo(200);
    api.created(DEPLOYMENTS.formatted("test"), deployment("nginx", 5));

    assertThat(api.code("DELETE", param, null)).isEqualTo(200);
    assertThat(api.refused("test", deployment("other", 1)).status().message()).isEqualTo(
        "deployments.apps \"other\" is forbidden: ValidatingAdmissionPolicy 'replicalimit-policy.example.com'"
            + " with binding 'replicalimit-binding-test.example.com' denied request: failed to configure binding:"
            + " no params found for policy binding with `Deny` parameterNotFoundAction");
  }
}
