package io.listwatch.server.rbac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.server.authz.Authorizer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** kube's escalation prevention: you cannot grant what you do not hold (unless allowed to escalate or bind). */
class EscalationCheckTest {

  private static final PolicyRule READ_PODS = PolicyRule.resource(List.of("get", "list", "watch"), List.of(""),
      List.of("pods"), List.of());
  private static final PolicyRule WRITE_PODS = PolicyRule.resource(List.of("create", "delete"), List.of(""),
      List.of("pods"), List.of());
  private static final UserInfo ALICE = UserInfo.of("alice", List.of("system:authenticated"));

  private static EscalationCheck check(TestPolicy p, RbacKind kind) {
    RbacAuthorizer rbac = new RbacAuthorizer(p.cache);
    return new EscalationCheck(kind, rbac, rbac);
  }

  /** alice administers ns1 (the bootstrap admin role there). */
  private static TestPolicy namespaceAdmin() {
    return new TestPolicy().bootstrap().roleBinding("ns1", "alice-admin", "ClusterRole", "admin", "User:alice");
  }

  @Test
  void role_withRulesTheUserHolds_isAllowed() {
    EscalationCheck roles = check(namespaceAdmin(), RbacKind.ROLE);
    ObjectNode role = TestPolicy.roleJson("Role", "ns1", "pod-reader", READ_PODS);

    assertThatCode(() -> roles.admit(ALICE, "ns1", role, null)).doesNotThrowAnyException();
  }

  @Test
  void role_withRulesTheUserLacks_isForbidden_withKubesMessage() {
    EscalationCheck roles = check(namespaceAdmin(), RbacKind.ROLE);
    ObjectNode role = TestPolicy.roleJson("Role", "ns2", "pod-writer", READ_PODS, WRITE_PODS);

    StatusException e = catchThrowableOfType(StatusException.class, () -> roles.admit(ALICE, "ns2", role, null));

    assertThat(e.code()).isEqualTo(403);
    assertThat(e.status().reason()).isEqualTo("Forbidden");
    assertThat(e.status().message()).isEqualTo("roles.rbac.authorization.k8s.io \"pod-writer\" is forbidden: "
        + "user \"alice\" (groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently "
        + "held:\n{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"get\" \"list\" \"watch\" \"create\" \"delete\"]}");
  }

  @Test
  void role_withEscalateVerb_mayGrantAnything() {
    PolicyRule escalate = PolicyRule.resource(List.of("escalate", "create"), List.of(RbacKind.GROUP),
        List.of("roles"), List.of());
    TestPolicy p = new TestPolicy().role("ns1", "escalator", escalate)
        .roleBinding("ns1", "b", "Role", "escalator", "User:alice");
    ObjectNode role = TestPolicy.roleJson("Role", "ns1", "everything",
        PolicyRule.resource(List.of("*"), List.of("*"), List.of("*"), List.of()));

    assertThatCode(() -> check(p, RbacKind.ROLE).admit(ALICE, "ns1", role, null))
        .doesNotThrowAnyException();
  }

  @Test
  void clusterRole_needsTheRulesClusterWide_notInSomeNamespace() {
    EscalationCheck clusterRoles = check(namespaceAdmin(), RbacKind.CLUSTER_ROLE);
    ObjectNode role = TestPolicy.roleJson("ClusterRole", "", "pod-reader", READ_PODS);

    StatusException e = catchThrowableOfType(StatusException.class, () -> clusterRoles.admit(ALICE, "", role, null));

    assertThat(e.code()).isEqualTo(403);
    assertThat(e.status().message()).startsWith("clusterroles.rbac.authorization.k8s.io \"pod-reader\" is forbidden: "
        + "user \"alice\" (groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions");
  }

  @Test
  void clusterRole_withAggregationRule_needsFullAuthority() {
    TestPolicy p = new TestPolicy().clusterRole("reader", READ_PODS).clusterRoleBinding("r", "reader", "User:alice");
    ObjectNode role = TestPolicy.roleJson("ClusterRole", "", "gather", READ_PODS);
    role.putObject("aggregationRule").putArray("clusterRoleSelectors").addObject().putObject("matchLabels")
        .put("x", "y");

    StatusException e = catchThrowableOfType(StatusException.class,
        () -> check(p, RbacKind.CLUSTER_ROLE).admit(ALICE, "", role, null));

    assertThat(e.status().message()).isEqualTo("clusterroles.rbac.authorization.k8s.io \"gather\" is forbidden: "
        + "must have cluster-admin privileges to use the aggregationRule");
  }

  @Test
  void binding_toRoleTheUserHolds_isAllowed() {
    EscalationCheck bindings = check(namespaceAdmin(), RbacKind.ROLE_BINDING);
    ObjectNode binding = TestPolicy.bindingJson("RoleBinding", "ns1", "bob-views", "ClusterRole", "view", "User:bob");

    assertThatCode(() -> bindings.admit(ALICE, "ns1", binding, null)).doesNotThrowAnyException();
  }

  @Test
  void binding_toClusterAdmin_byNamespaceAdmin_isForbidden() {
    EscalationCheck bindings = check(namespaceAdmin(), RbacKind.ROLE_BINDING);
    ObjectNode binding = TestPolicy.bindingJson("RoleBinding", "ns1", "root", "ClusterRole", "cluster-admin",
        "User:alice");

    StatusException e = catchThrowableOfType(StatusException.class, () -> bindings.admit(ALICE, "ns1", binding, null));

    assertThat(e.code()).isEqualTo(403);
    assertThat(e.status().message()).isEqualTo("rolebindings.rbac.authorization.k8s.io \"root\" is forbidden: "
        + "user \"alice\" (groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently "
        + "held:\n{APIGroups:[\"*\"], Resources:[\"*\"], Verbs:[\"*\"]}\n{NonResourceURLs:[\"*\"], Verbs:[\"*\"]}");
  }

  @Test
  void clusterRoleBinding_withBindVerbOnThatRole_isAllowed_withoutHoldingIt() {
    PolicyRule bind = PolicyRule.resource(List.of("bind"), List.of(RbacKind.GROUP), List.of("clusterroles"),
        List.of("cluster-admin"));
    TestPolicy p = new TestPolicy().bootstrap().clusterRole("binder", bind)
        .clusterRoleBinding("binder", "binder", "User:alice");
    ObjectNode root = TestPolicy.bindingJson("ClusterRoleBinding", "", "root", "ClusterRole", "cluster-admin",
        "User:bob");
    ObjectNode other = TestPolicy.bindingJson("ClusterRoleBinding", "", "edit", "ClusterRole", "edit", "User:bob");
    EscalationCheck bindings = check(p, RbacKind.CLUSTER_ROLE_BINDING);

    assertThatCode(() -> bindings.admit(ALICE, "", root, null)).doesNotThrowAnyException();
    assertThat(catchThrowableOfType(StatusException.class, () -> bindings.admit(ALICE, "", other, null)).code())
        .as("bind names cluster-admin only").isEqualTo(403);
  }

  @Test
  void binding_toMissingRole_isForbidden_sayingItIsNotFound() {
    StatusException e = catchThrowableOfType(StatusException.class, () -> check(namespaceAdmin(),
        RbacKind.ROLE_BINDING).admit(ALICE, "ns1", TestPolicy.bindingJson("RoleBinding", "ns1", "b", "Role",
        "ghost", "User:bob"), null));

    assertThat(e.status().message()).isEqualTo(
        "rolebindings.rbac.authorization.k8s.io \"b\" is forbidden: role.rbac.authorization.k8s.io \"ghost\" not found");
  }

  @Test
  void systemMasters_mayGrantAnything() {
    UserInfo root = UserInfo.of("root", List.of("system:masters"));
    ObjectNode binding = TestPolicy.bindingJson("ClusterRoleBinding", "", "x", "ClusterRole", "cluster-admin",
        "User:bob");

    assertThatCode(() -> check(new TestPolicy(), RbacKind.CLUSTER_ROLE_BINDING).admit(root, "", binding,
        null)).doesNotThrowAnyException();
  }

  @Test
  void alwaysAllow_mayBindAnything() {
    ObjectNode binding = TestPolicy.bindingJson("ClusterRoleBinding", "", "x", "ClusterRole", "cluster-admin",
        "User:bob");
    TestPolicy p = new TestPolicy().bootstrap();

    assertThatCode(() -> new EscalationCheck(RbacKind.CLUSTER_ROLE_BINDING, new RbacAuthorizer(p.cache),
        Authorizer.ALWAYS_ALLOW).admit(ALICE, "", binding, null)).doesNotThrowAnyException();
  }

  @Test
  void update_ofFinalizersOnly_isNotChecked() {
    ObjectNode old = TestPolicy.roleJson("Role", "ns2", "r", WRITE_PODS);
    ObjectNode updated = old.deepCopy();
    ((ObjectNode) updated.get("metadata")).putArray("finalizers").add("example.com/keep");

    assertThatCode(() -> check(namespaceAdmin(), RbacKind.ROLE).admit(ALICE, "ns2", updated, old))
        .doesNotThrowAnyException();
  }
}
