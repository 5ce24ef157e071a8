package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's validation of the RBAC kinds ({@code pkg/apis/rbac/validation/validation_test.go}:
 * {@code TestValidateRoleBinding}, {@code TestValidateClusterRoleBinding},
 * {@code TestValidatePolicyRule}, {@code TestValidateRoleBindingUpdate}, ...), through
 * {@link RoleStrategy} and {@link RoleBindingStrategy}, and one write end to end.
 */
class RbacValidationTest {

  private static String role(String kind, String rules) {
    return "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"" + kind + "\",\"metadata\":{\"name\":\"r\"},"
        + "\"rules\":" + rules + "}";
  }

  private static String binding(String kind, String roleRef, String subjects) {
    return "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"" + kind + "\",\"metadata\":{\"name\":\"b\"},"
        + "\"roleRef\":" + roleRef + ",\"subjects\":" + subjects + "}";
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      true  | [{"verbs":["get"],"apiGroups":[""],"resources":["pods"]}]
      false | [{"verbs":["get"],"nonResourceURLs":["/metrics"]}]
      false | [{"verbs":["get"],"apiGroups":["*"],"resources":["*"],"resourceNames":["a"]}]
      true  | []
      """)
  void rules_valid(boolean namespaced, String rules) {
    assertThat(StrategyCases.create(new RoleStrategy(namespaced), role("Role", rules))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      true  | [{"apiGroups":[""],"resources":["pods"]}]                    | rules[0].verbs: Required value: verbs must contain at least one value
      true  | [{"verbs":["get"],"nonResourceURLs":["/metrics"]}]          | rules[0].nonResourceURLs: Invalid value: []string{"/metrics"}: namespaced rules cannot apply to non-resource URLs
      false | [{"verbs":["get"],"nonResourceURLs":["/a"],"resources":["pods"]}] | rules[0].nonResourceURLs: Invalid value: []string{"/a"}: rules cannot apply to both regular resources and non-resource URLs
      false | [{"verbs":["get"],"resources":["pods"]}]                    | rules[0].apiGroups: Required value: resource rules must supply at least one api group
      false | [{"verbs":["get"],"apiGroups":[""]}]                        | rules[0].resources: Required value: resource rules must supply at least one resource
      """)
  void rules_invalid(boolean namespaced, String rules, String error) {
    assertThat(StrategyCases.create(new RoleStrategy(namespaced), role("Role", rules))).containsExactly(error);
  }

  @Test
  void resourceRule_withoutGroupsOrResources_listsBoth() {
    assertThat(StrategyCases.create(new RoleStrategy(false), role("ClusterRole", "[{\"verbs\":[\"get\"]}]")))
        .extracting(e -> e.substring(0, e.indexOf(':'))).containsExactly("rules[0].apiGroups", "rules[0].resources");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"clusterRoleSelectors":[]}                                                      | aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil
      {}                                                                               | aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil
      {"clusterRoleSelectors":[{"matchExpressions":[{"key":"a","operator":"Near"}]}]}  | aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator
      """)
  void aggregationRule_invalid(String aggregationRule, String error) {
    String json = role("ClusterRole", "[]").replace("\"rules\":[]", "\"aggregationRule\":" + aggregationRule);
    assertThat(StrategyCases.create(new RoleStrategy(false), json)).first().isEqualTo(error);
  }

  @Test
  void aggregationRule_badSelector_isAlsoAnInvalidLabelSelector() {
    String json = role("ClusterRole", "[]").replace("\"rules\":[]",
        "\"aggregationRule\":{\"clusterRoleSelectors\":[{\"matchLabels\":{\"-a\":\"b\"}}]}");
    assertThat(StrategyCases.create(new RoleStrategy(false), json)).last()
        .isEqualTo("aggregationRule.clusterRoleSelectors[0]: Invalid value: \"null\": invalid label selector.");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      true  | {"kind":"Role","name":"r"}                      | [{"kind":"ServiceAccount","name":"sa"},{"kind":"User","name":"u"},{"kind":"Group","name":"g"}]
      true  | {"kind":"ClusterRole","name":"view"}            | []
      false | {"kind":"ClusterRole","name":"view"}            | [{"kind":"ServiceAccount","name":"sa","namespace":"ns"}]
      """)
  void bindings_valid(boolean namespaced, String roleRef, String subjects) {
    assertThat(StrategyCases.create(new RoleBindingStrategy(namespaced), binding("RoleBinding", roleRef, subjects))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      true  | {"apiGroup":"rbac","kind":"Role","name":"r"}   | []                                       | roleRef.apiGroup: Unsupported value: "rbac": supported values: "rbac.authorization.k8s.io"
      true  | {"kind":"Type","name":"r"}                      | []                                       | roleRef.kind: Unsupported value: "Type": supported values: "Role", "ClusterRole"
      false | {"kind":"Role","name":"r"}                      | []                                       | roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"
      true  | {"kind":"Role"}                                 | []                                       | roleRef.name: Required value
      true  | {"kind":"Role","name":"a/b"}                    | []                                       | roleRef.name: Invalid value: "a/b": may not contain '/'
      true  | {"kind":"Role","name":"r"}                      | [{"kind":"User"}]                        | subjects[0].name: Required value
      true  | {"kind":"Role","name":"r"}                      | [{"kind":"Robot","name":"r2"}]           | subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"
      true  | {"kind":"Role","name":"r"}                      | [{"kind":"ServiceAccount","name":"sa","apiGroup":"x"}] | subjects[0].apiGroup: Unsupported value: "x": supported values: ""
      true  | {"kind":"Role","name":"r"}                      | [{"kind":"User","name":"u","apiGroup":"x"}] | subjects[0].apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io"
      false | {"kind":"ClusterRole","name":"r"}               | [{"kind":"ServiceAccount","name":"sa"}]  | subjects[0].namespace: Required value
      true  | {"kind":"Role","name":"r"}                      | [{"kind":"ServiceAccount","name":"Bad_Name"}] | subjects[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
      """)
  void bindings_invalid(boolean namespaced, String roleRef, String subjects, String error) {
    assertThat(StrategyCases.create(new RoleBindingStrategy(namespaced), binding("RoleBinding", roleRef, subjects)))
        .containsExactly(error);
  }

  @Test
  void roleRef_cannotChange() {
    String old = binding("RoleBinding", "{\"kind\":\"ClusterRole\",\"name\":\"view\"}", "[{\"kind\":\"User\",\"name\":\"alice\"}]");

    assertThat(StrategyCases.update(new RoleBindingStrategy(true), old, old.replace("view", "edit"))).containsExactly(
        "roleRef: Invalid value: rbac.RoleRef{APIGroup:\"rbac.authorization.k8s.io\", Kind:\"ClusterRole\", Name:\"edit\"}: "
            + "cannot change roleRef");
    assertThat(StrategyCases.update(new RoleBindingStrategy(true), old, old.replace("alice", "bob"))).isEmpty();
  }

  @Test
  void endToEnd_bindingDefaultsTheRbacGroup_andARoleWithoutVerbsIsRefused() {
    try (InMemoryCore core = InMemoryCore.start()) {
      String path = "/apis/rbac.authorization.k8s.io/v1/namespaces/default/";
      var created = core.send("POST", path + "rolebindings", Map.of(), binding("RoleBinding",
          "{\"kind\":\"ClusterRole\",\"name\":\"view\"}", "[{\"kind\":\"User\",\"name\":\"alice\"},{\"kind\":\"Group\",\"name\":\"g\"}]"));
      assertThat(created.code()).isEqualTo(201);
      StringBuilder json = new StringBuilder();
      for (byte[] part : created.jsonParts().orElseThrow()) {
        json.append(new String(part, java.nio.charset.StandardCharsets.UTF_8));
      }
      assertThat(json.toString()).contains("\"roleRef\":{\"kind\":\"ClusterRole\",\"name\":\"view\",\"apiGroup\":"
          + "\"rbac.authorization.k8s.io\"}");

      StatusException e = core.refusal("POST", path + "roles", Map.of(),
          role("Role", "[{\"apiGroups\":[\"\"],\"resources\":[\"pods\"]}]"));
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("Role.rbac.authorization.k8s.io \"r\" is invalid: "
          + "rules[0].verbs: Required value: verbs must contain at least one value");
    }
  }
}
