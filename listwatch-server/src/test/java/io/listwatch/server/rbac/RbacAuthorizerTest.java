package io.listwatch.server.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.server.authz.Attributes;
import io.listwatch.server.authz.Decision;
import io.listwatch.server.authz.RuleResolver;
import java.util.List;
import org.junit.jupiter.api.Test;

class RbacAuthorizerTest {

  private static final PolicyRule READ_PODS = PolicyRule.resource(List.of("get", "list", "watch"), List.of(""),
      List.of("pods"), List.of());
  private static final UserInfo ALICE = UserInfo.of("alice", List.of("system:authenticated"));

  private static Attributes pods(UserInfo user, String verb, String namespace) {
    return Attributes.resource(user, verb, "", "pods", "", namespace, "");
  }

  @Test
  void roleBinding_grantsItsRole_onlyInItsNamespace() {
    TestPolicy p = new TestPolicy().role("ns1", "reader", READ_PODS)
        .roleBinding("ns1", "alice-reads", "Role", "reader", "User:alice");
    RbacAuthorizer authz = new RbacAuthorizer(p.cache);

    Decision d = authz.authorize(pods(ALICE, "list", "ns1"));
    assertThat(d.allowed()).isTrue();
    assertThat(d.reason()).isEqualTo("RBAC: allowed by RoleBinding \"alice-reads/ns1\" of Role \"reader\" to User \"alice\"");
    assertThat(authz.authorize(pods(ALICE, "list", "ns2")).kind()).isEqualTo(Decision.Kind.NO_OPINION);
    assertThat(authz.authorize(pods(ALICE, "list", "")).allowed()).as("all namespaces").isFalse();
    assertThat(authz.authorize(pods(ALICE, "delete", "ns1")).allowed()).isFalse();
    assertThat(authz.authorize(pods(UserInfo.of("bob", List.of()), "list", "ns1")).allowed()).isFalse();
  }

  @Test
  void roleBinding_toClusterRole_grantsItsRulesInTheBindingsNamespaceOnly() {
    TestPolicy p = new TestPolicy().clusterRole("pod-reader", READ_PODS)
        .roleBinding("ns1", "b", "ClusterRole", "pod-reader", "User:alice");
    RbacAuthorizer authz = new RbacAuthorizer(p.cache);

    assertThat(authz.authorize(pods(ALICE, "watch", "ns1")).reason())
        .isEqualTo("RBAC: allowed by RoleBinding \"b/ns1\" of ClusterRole \"pod-reader\" to User \"alice\"");
    assertThat(authz.authorize(pods(ALICE, "watch", "ns2")).allowed()).isFalse();
  }

  @Test
  void clusterRoleBinding_grantsEverywhere_byGroup() {
    TestPolicy p = new TestPolicy().clusterRole("pod-reader", READ_PODS)
        .clusterRoleBinding("readers", "pod-reader", "Group:devs");
    RbacAuthorizer authz = new RbacAuthorizer(p.cache);
    UserInfo dev = UserInfo.of("carol", List.of("devs"));

    Decision d = authz.authorize(pods(dev, "list", ""));
    assertThat(d.reason())
        .isEqualTo("RBAC: allowed by ClusterRoleBinding \"readers\" of ClusterRole \"pod-reader\" to Group \"devs\"");
    assertThat(authz.authorize(pods(dev, "get", "anywhere")).allowed()).isTrue();
    assertThat(authz.authorize(pods(ALICE, "get", "anywhere")).allowed()).isFalse();
  }

  @Test
  void serviceAccountSubject_matchesItsUserName_defaultingToTheBindingsNamespace() {
    TestPolicy p = new TestPolicy().role("ns1", "reader", READ_PODS)
        .roleBinding("ns1", "local", "Role", "reader", "ServiceAccount:builder")
        .roleBinding("ns1", "remote", "Role", "reader", "ServiceAccount:other/deployer");
    RbacAuthorizer authz = new RbacAuthorizer(p.cache);
    UserInfo builder = UserInfo.of("system:serviceaccount:ns1:builder", List.of());
    UserInfo deployer = UserInfo.of("system:serviceaccount:other:deployer", List.of());
    UserInfo wrongNamespace = UserInfo.of("system:serviceaccount:ns2:builder", List.of());

    assertThat(authz.authorize(pods(builder, "get", "ns1")).reason())
        .isEqualTo("RBAC: allowed by RoleBinding \"local/ns1\" of Role \"reader\" to ServiceAccount \"builder/ns1\"");
    assertThat(authz.authorize(pods(deployer, "get", "ns1")).reason())
        .isEqualTo("RBAC: allowed by RoleBinding \"remote/ns1\" of Role \"reader\" to ServiceAccount \"deployer/other\"");
    assertThat(authz.authorize(pods(wrongNamespace, "get", "ns1")).allowed()).isFalse();
  }

  @Test
  void bindingToMissingRole_grantsNothing_andSaysWhy() {
    TestPolicy p = new TestPolicy().roleBinding("ns1", "b", "Role", "ghost", "User:alice");
    Decision d = new RbacAuthorizer(p.cache).authorize(pods(ALICE, "get", "ns1"));

    assertThat(d.kind()).isEqualTo(Decision.Kind.NO_OPINION);
    assertThat(d.reason()).isEqualTo("RBAC: role.rbac.authorization.k8s.io \"ghost\" not found");
  }

  @Test
  void bootstrapPolicy_discoveryAndHealthForEveryone_andNothingElse() {
    RbacAuthorizer authz = new RbacAuthorizer(new TestPolicy().bootstrap().cache);
    UserInfo anonymous = UserInfo.ANONYMOUS;

    assertThat(authz.authorize(Attributes.nonResource(ALICE, "get", "/apis/apps/v1")).allowed()).isTrue();
    assertThat(authz.authorize(Attributes.nonResource(ALICE, "get", "/api")).allowed()).isTrue();
    assertThat(authz.authorize(Attributes.nonResource(anonymous, "get", "/healthz")).reason()).isEqualTo(
        "RBAC: allowed by ClusterRoleBinding \"system:public-info-viewer\" of ClusterRole "
            + "\"system:public-info-viewer\" to Group \"system:unauthenticated\"");
    assertThat(authz.authorize(Attributes.nonResource(anonymous, "get", "/api")).allowed()).isFalse();
    assertThat(authz.authorize(Attributes.nonResource(ALICE, "get", "/metrics")).allowed()).isFalse();
    assertThat(authz.authorize(Attributes.resource(ALICE, "create", "authorization.k8s.io",
        "selfsubjectaccessreviews", "", "", "")).allowed()).isTrue();
    assertThat(authz.authorize(pods(ALICE, "list", "default")).allowed()).isFalse();
  }

  @Test
  void bootstrapPolicy_aggregatedRoles_nestAdminOverEditOverView() {
    TestPolicy p = new TestPolicy().bootstrap()
        .roleBinding("ns1", "v", "ClusterRole", "view", "User:viewer")
        .roleBinding("ns1", "e", "ClusterRole", "edit", "User:editor")
        .roleBinding("ns1", "a", "ClusterRole", "admin", "User:admin");
    RbacAuthorizer authz = new RbacAuthorizer(p.cache);
    UserInfo viewer = UserInfo.of("viewer", List.of());
    UserInfo editor = UserInfo.of("editor", List.of());
    UserInfo admin = UserInfo.of("admin", List.of());
    Attributes secrets = Attributes.resource(viewer, "get", "", "secrets", "", "ns1", "s");

    assertThat(authz.authorize(pods(viewer, "list", "ns1")).allowed()).isTrue();
    assertThat(authz.authorize(pods(viewer, "create", "ns1")).allowed()).isFalse();
    assertThat(authz.authorize(secrets).allowed()).as("view cannot read secrets").isFalse();
    assertThat(authz.authorize(pods(editor, "create", "ns1")).allowed()).isTrue();
    assertThat(authz.authorize(pods(editor, "list", "ns1")).allowed()).as("edit includes view").isTrue();
    assertThat(authz.authorize(Attributes.resource(editor, "create", RbacKind.GROUP, "rolebindings", "", "ns1",
        "")).allowed()).isFalse();
    assertThat(authz.authorize(Attributes.resource(admin, "create", RbacKind.GROUP, "rolebindings", "", "ns1",
        "")).allowed()).isTrue();
    assertThat(authz.authorize(pods(admin, "delete", "ns1")).allowed()).as("admin includes edit").isTrue();
  }

  @Test
  void rulesFor_listsResourceAndNonResourceRulesApart() {
    TestPolicy p = new TestPolicy().bootstrap().role("ns1", "reader", READ_PODS)
        .roleBinding("ns1", "b", "Role", "reader", "User:alice");
    RuleResolver.SubjectRules rules = new RbacAuthorizer(p.cache).rulesFor(ALICE, "ns1");

    assertThat(rules.resourceRules()).contains(
        new RuleResolver.ResourceRule(List.of("get", "list", "watch"), List.of(""), List.of("pods"), List.of()));
    assertThat(rules.nonResourceRules()).anySatisfy(r -> assertThat(r.nonResourceURLs()).contains("/apis/*"));
    assertThat(rules.incomplete()).isFalse();
    assertThat(new RbacAuthorizer(p.cache).rulesFor(ALICE, "ns2").resourceRules()).doesNotContain(
        new RuleResolver.ResourceRule(List.of("get", "list", "watch"), List.of(""), List.of("pods"), List.of()));
  }

  @Test
  void metrics_needGetOnTheMetricsPath_whichClusterAdminHas() {
    TestPolicy p = new TestPolicy().bootstrap()
        .clusterRole("metrics-reader", PolicyRule.nonResource(List.of("get"), List.of("/metrics")))
        .clusterRoleBinding("prometheus", "metrics-reader", "User:prometheus")
        .clusterRoleBinding("ops-admin", "cluster-admin", "Group:ops");
    RbacAuthorizer authz = new RbacAuthorizer(p.cache);

    assertThat(authz.authorize(Attributes.nonResource(UserInfo.of("prometheus", List.of()), "get", "/metrics"))
        .allowed()).isTrue();
    assertThat(authz.authorize(Attributes.nonResource(UserInfo.of("op", List.of("ops")), "get", "/metrics"))
        .reason()).isEqualTo("RBAC: allowed by ClusterRoleBinding \"ops-admin\" of ClusterRole \"cluster-admin\" to "
        + "Group \"ops\"");
    assertThat(authz.authorize(Attributes.nonResource(ALICE, "get", "/metrics")).allowed()).isFalse();
  }

  @Test
  void deletedBinding_grantsNoMore() {
    TestPolicy p = new TestPolicy().role("ns1", "reader", READ_PODS)
        .roleBinding("ns1", "b", "Role", "reader", "User:alice");
    RbacAuthorizer authz = new RbacAuthorizer(p.cache);
    assertThat(authz.authorize(pods(ALICE, "get", "ns1")).allowed()).isTrue();

    p.cache.roleBindingsListener().onReplace(List.of(), 99);

    assertThat(authz.authorize(pods(ALICE, "get", "ns1")).allowed()).isFalse();
  }
}
