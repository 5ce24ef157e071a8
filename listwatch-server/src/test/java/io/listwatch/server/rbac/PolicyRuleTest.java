package io.listwatch.server.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.server.authz.Attributes;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's rule matching ({@code RuleAllows}), case by case as kube's RBAC documentation describes it. */
class PolicyRuleTest {

  private static final UserInfo ALICE = UserInfo.of("alice", List.of());

  static PolicyRule rule(List<String> verbs, List<String> groups, List<String> resources, List<String> names) {
    return PolicyRule.resource(verbs, groups, resources, names);
  }

  static Attributes request(String verb, String group, String resource, String subresource, String name) {
    return Attributes.resource(ALICE, verb, group, resource, subresource, "ns1", name);
  }

  static Stream<Arguments> resourceCases() {
    PolicyRule readPods = rule(List.of("get", "list", "watch"), List.of(""), List.of("pods"), List.of());
    PolicyRule anyVerb = rule(List.of("*"), List.of(""), List.of("pods"), List.of());
    PolicyRule anyGroup = rule(List.of("get"), List.of("*"), List.of("deployments"), List.of());
    PolicyRule anyResource = rule(List.of("get"), List.of("apps"), List.of("*"), List.of());
    PolicyRule podLogs = rule(List.of("get"), List.of(""), List.of("pods/log"), List.of());
    PolicyRule anyStatus = rule(List.of("get"), List.of(""), List.of("*/status"), List.of());
    PolicyRule podsSlashStar = rule(List.of("get"), List.of(""), List.of("pods/*"), List.of());
    PolicyRule named = rule(List.of("get", "list", "update", "create"), List.of(""), List.of("configmaps"),
        List.of("cfg"));
    return Stream.of(
        Arguments.of("listed verb", readPods, request("list", "", "pods", "", ""), true),
        Arguments.of("verb not listed", readPods, request("delete", "", "pods", "", "p"), false),
        Arguments.of("other group", readPods, request("get", "apps", "pods", "", "p"), false),
        Arguments.of("other resource", readPods, request("get", "", "secrets", "", "s"), false),
        Arguments.of("a resource rule does not grant its subresources", readPods,
            request("get", "", "pods", "status", "p"), false),
        Arguments.of("verb *", anyVerb, request("deletecollection", "", "pods", "", ""), true),
        Arguments.of("apiGroup *", anyGroup, request("get", "apps", "deployments", "", "d"), true),
        Arguments.of("resource * in its group", anyResource, request("get", "apps", "replicasets", "", ""), true),
        Arguments.of("resource * includes subresources", anyResource,
            request("get", "apps", "deployments", "status", "d"), true),
        Arguments.of("resource * not in another group", anyResource, request("get", "", "pods", "", ""), false),
        Arguments.of("resource/subresource", podLogs, request("get", "", "pods", "log", "p"), true),
        Arguments.of("resource/subresource is not the resource", podLogs, request("get", "", "pods", "", "p"), false),
        Arguments.of("*/subresource on any resource", anyStatus, request("get", "", "services", "status", "s"), true),
        Arguments.of("*/subresource is not the resource", anyStatus, request("get", "", "services", "", "s"), false),
        Arguments.of("*/subresource only that subresource", anyStatus, request("get", "", "pods", "log", "p"), false),
        Arguments.of("resource/* is literal in kube", podsSlashStar, request("get", "", "pods", "log", "p"), false),
        Arguments.of("resourceNames: that name", named, request("get", "", "configmaps", "", "cfg"), true),
        Arguments.of("resourceNames: another name", named, request("get", "", "configmaps", "", "other"), false),
        Arguments.of("resourceNames: a list has no name", named, request("list", "", "configmaps", "", ""), false),
        Arguments.of("resourceNames: a create has no name", named, request("create", "", "configmaps", "", ""), false),
        Arguments.of("resourceNames: a list pinned to the name by field selector", named,
            request("list", "", "configmaps", "", "cfg"), true),
        Arguments.of("a resource rule grants no path", readPods, Attributes.nonResource(ALICE, "get", "/api"), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("resourceCases")
  void allows_resourceRequests_asKubeMatchesRules(String description, PolicyRule rule, Attributes a, boolean allowed) {
    assertThat(rule.allows(a)).isEqualTo(allowed);
  }

  static Stream<Arguments> nonResourceCases() {
    return Stream.of(
        Arguments.of("exact path", "/healthz", "/healthz", true),
        Arguments.of("exact path is not a prefix", "/healthz", "/healthz/etcd", false),
        Arguments.of("trailing * is a prefix", "/healthz/*", "/healthz/etcd", true),
        Arguments.of("prefix* covers deeper paths", "/apis/*", "/apis/apps/v1", true),
        Arguments.of("prefix* without the slash", "/api*", "/apis", true),
        Arguments.of("prefix/* does not cover the bare path", "/api/*", "/api", false),
        Arguments.of("* covers everything", "*", "/metrics", true),
        Arguments.of("other path", "/version", "/metrics", false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nonResourceCases")
  void allows_nonResourceRequests_byExactPathOrTrailingStar(String description, String url, String path,
      boolean allowed) {
    PolicyRule rule = PolicyRule.nonResource(List.of("get"), List.of(url));
    assertThat(rule.allows(Attributes.nonResource(ALICE, "get", path))).isEqualTo(allowed);
  }

  @Test
  void allows_nonResource_needsTheVerb() {
    PolicyRule rule = PolicyRule.nonResource(List.of("get"), List.of("/metrics"));
    assertThat(rule.allows(Attributes.nonResource(ALICE, "post", "/metrics"))).isFalse();
  }

  @Test
  void nonResourceRule_grantsNoResource() {
    PolicyRule rule = PolicyRule.nonResource(List.of("*"), List.of("*"));
    assertThat(rule.allows(request("get", "", "pods", "", "p"))).isFalse();
  }

  @Test
  void compactString_isKubesFormat() {
    assertThat(rule(List.of("create", "delete"), List.of(""), List.of("pods"), List.of()).compactString())
        .isEqualTo("{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"create\" \"delete\"]}");
    assertThat(PolicyRule.nonResource(List.of("get"), List.of("/metrics")).compactString())
        .isEqualTo("{NonResourceURLs:[\"/metrics\"], Verbs:[\"get\"]}");
    assertThat(rule(List.of("get"), List.of(""), List.of("secrets"), List.of("s1")).compactString())
        .isEqualTo("{APIGroups:[\"\"], Resources:[\"secrets\"], ResourceNames:[\"s1\"], Verbs:[\"get\"]}");
  }
}
