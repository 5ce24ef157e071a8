package io.listwatch.server.rbac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.UserInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

class RbacValidationTest {

  private static final UserInfo ROOT = UserInfo.of("root", List.of("system:masters"));

  private static StatusException invalid(RbacValidation.Kind kind, ObjectNode obj, ObjectNode old) {
    return catchThrowableOfType(StatusException.class, () -> new RbacValidation(kind).admit(ROOT, "ns1", obj, old));
  }

  @Test
  void rule_withoutVerbs_isInvalid() {
    ObjectNode role = TestPolicy.roleJson("Role", "ns1", "r");
    role.withArray("rules").addObject().putArray("apiGroups").add("");
    ((ObjectNode) role.get("rules").get(0)).putArray("resources").add("pods");

    StatusException e = invalid(RbacValidation.Kind.ROLE, role, null);

    assertThat(e.code()).isEqualTo(422);
    assertThat(e.status().message()).isEqualTo("Role.rbac.authorization.k8s.io \"r\" is invalid: "
        + "rules[0].verbs: Required value: verbs must contain at least one value");
    assertThat(e.status().details().causes()).containsExactly(new Status.Cause("FieldValueRequired",
        "Required value: verbs must contain at least one value", "rules[0].verbs"));
  }

  @Test
  void resourceRule_withoutGroupsOrResources_listsBoth() {
    ObjectNode role = TestPolicy.roleJson("ClusterRole", "", "r");
    role.withArray("rules").addObject().putArray("verbs").add("get");

    assertThat(invalid(RbacValidation.Kind.CLUSTER_ROLE, role, null).status().details().causes())
        .extracting(Status.Cause::field).containsExactly("rules[0].apiGroups", "rules[0].resources");
  }

  @Test
  void nonResourceURLs_inARole_areInvalid_butFineInAClusterRole() {
    PolicyRule metrics = PolicyRule.nonResource(List.of("get"), List.of("/metrics"));

    assertThat(invalid(RbacValidation.Kind.ROLE, TestPolicy.roleJson("Role", "ns1", "r", metrics), null)
        .status().message()).isEqualTo("Role.rbac.authorization.k8s.io \"r\" is invalid: rules[0].nonResourceURLs: "
        + "Invalid value: []string{\"/metrics\"}: namespaced rules cannot apply to non-resource URLs");
    assertThatCode(() -> new RbacValidation(RbacValidation.Kind.CLUSTER_ROLE).admit(ROOT, "",
        TestPolicy.roleJson("ClusterRole", "", "m", metrics), null)).doesNotThrowAnyException();
  }

  @Test
  void roleRef_cannotChange() {
    ObjectNode old = TestPolicy.bindingJson("RoleBinding", "ns1", "b", "ClusterRole", "view", "User:alice");
    ObjectNode updated = TestPolicy.bindingJson("RoleBinding", "ns1", "b", "ClusterRole", "edit", "User:alice");

    assertThat(invalid(RbacValidation.Kind.ROLE_BINDING, updated, old).status().message()).isEqualTo(
        "RoleBinding.rbac.authorization.k8s.io \"b\" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"
            + "\"rbac.authorization.k8s.io\", Kind:\"ClusterRole\", Name:\"edit\"}: cannot change roleRef");
  }

  @Test
  void clusterRoleBinding_mustReferenceAClusterRole() {
    ObjectNode b = TestPolicy.bindingJson("ClusterRoleBinding", "", "b", "Role", "r", "User:alice");

    assertThat(invalid(RbacValidation.Kind.CLUSTER_ROLE_BINDING, b, null).status().message()).isEqualTo(
        "ClusterRoleBinding.rbac.authorization.k8s.io \"b\" is invalid: roleRef.kind: Unsupported value: \"Role\": "
            + "supported values: \"ClusterRole\"");
  }

  @Test
  void subjects_needAKnownKindAndTheRightGroup() {
    ObjectNode b = TestPolicy.bindingJson("ClusterRoleBinding", "", "b", "ClusterRole", "view",
        "User:alice", "ServiceAccount:sa", "Robot:r2");
    ((ObjectNode) b.get("subjects").get(0)).put("apiGroup", "");

    StatusException e = invalid(RbacValidation.Kind.CLUSTER_ROLE_BINDING, b, null);

    assertThat(e.status().details().causes()).containsExactly(
        new Status.Cause("FieldValueNotSupported",
            "Unsupported value: \"\": supported values: \"rbac.authorization.k8s.io\"", "subjects[0].apiGroup"),
        new Status.Cause("FieldValueRequired", "Required value", "subjects[1].namespace"),
        new Status.Cause("FieldValueNotSupported", "Unsupported value: \"Robot\": supported values: "
            + "\"ServiceAccount\", \"User\", \"Group\"", "subjects[2].kind"));
  }

  @Test
  void bindingDefaults_fillTheRbacGroup() {
    ObjectNode b = TestPolicy.bindingJson("RoleBinding", "ns1", "b", "ClusterRole", "view", "User:alice", "Group:g");
    ((ObjectNode) b.get("roleRef")).remove("apiGroup");
    b.get("subjects").forEach(s -> ((ObjectNode) s).remove("apiGroup"));

    RbacValidation.BINDING_DEFAULTS.admit(ROOT, "ns1", b, null);

    assertThat(b.at("/roleRef/apiGroup").asText()).isEqualTo("rbac.authorization.k8s.io");
    assertThat(b.at("/subjects/0/apiGroup").asText()).isEqualTo("rbac.authorization.k8s.io");
    assertThat(b.at("/subjects/1/apiGroup").asText()).isEqualTo("rbac.authorization.k8s.io");
    assertThatCode(() -> new RbacValidation(RbacValidation.Kind.ROLE_BINDING).admit(ROOT, "ns1", b, null))
        .doesNotThrowAnyException();
  }

  @Test
  void aggregationRule_needsASelector() {
    ObjectNode role = TestPolicy.roleJson("ClusterRole", "", "agg");
    role.putObject("aggregationRule").putArray("clusterRoleSelectors");

    assertThat(invalid(RbacValidation.Kind.CLUSTER_ROLE, role, null).status().message()).isEqualTo(
        "ClusterRole.rbac.authorization.k8s.io \"agg\" is invalid: aggregationRule.clusterRoleSelectors: Required "
            + "value: at least one clusterRoleSelector required if aggregationRule is non-nil");
  }
}
