package io.listwatch.apiserver.admission.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's rules_test cases: scopes, operations, groups, versions, resources and subresources. */
class RuleMatcherTest {

  private static AdmissionWebhook.Rule rule(List<String> ops, List<String> groups, List<String> versions,
      List<String> resources, String scope) {
    return new AdmissionWebhook.Rule(ops, groups, versions, resources, scope);
  }

  private static final List<String> ANY = List.of("*");

  private static RuleMatcher.Target target(String op, String group, String version, String resource, String sub,
      String ns) {
    return new RuleMatcher.Target(op, group, version, resource, sub, ns);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        // resources and subresources
        Arguments.of(rule(ANY, ANY, ANY, List.of("pods"), "*"), target("CREATE", "", "v1", "pods", "", "ns"), true),
        Arguments.of(rule(ANY, ANY, ANY, List.of("pods"), "*"), target("UPDATE", "", "v1", "pods", "status", "ns"), false),
        Arguments.of(rule(ANY, ANY, ANY, List.of("pods/status"), "*"), target("UPDATE", "", "v1", "pods", "status", "ns"), true),
        Arguments.of(rule(ANY, ANY, ANY, List.of("pods/*"), "*"), target("UPDATE", "", "v1", "pods", "status", "ns"), true),
        Arguments.of(rule(ANY, ANY, ANY, List.of("pods/*"), "*"), target("UPDATE", "", "v1", "pods", "", "ns"), true),
        Arguments.of(rule(ANY, ANY, ANY, List.of("*"), "*"), target("UPDATE", "", "v1", "pods", "status", "ns"), false),
        Arguments.of(rule(ANY, ANY, ANY, List.of("*/*"), "*"), target("UPDATE", "", "v1", "pods", "status", "ns"), true),
        Arguments.of(rule(ANY, ANY, ANY, List.of("*/status"), "*"), target("UPDATE", "apps", "v1", "deployments", "status", "ns"), true),
        // operations, groups, versions
        Arguments.of(rule(List.of("CREATE"), ANY, ANY, ANY, "*"), target("DELETE", "", "v1", "pods", "", "ns"), false),
        Arguments.of(rule(List.of("DELETE"), ANY, ANY, ANY, "*"), target("DELETE", "", "v1", "pods", "", "ns"), true),
        Arguments.of(rule(ANY, List.of("apps"), ANY, ANY, "*"), target("CREATE", "", "v1", "pods", "", "ns"), false),
        Arguments.of(rule(ANY, List.of("apps"), List.of("v1beta1"), ANY, "*"), target("CREATE", "apps", "v1", "deployments", "", "ns"), false),
        // scopes: a Namespace is cluster-scoped
        Arguments.of(rule(ANY, ANY, ANY, ANY, "Namespaced"), target("CREATE", "", "v1", "pods", "", "ns"), true),
        Arguments.of(rule(ANY, ANY, ANY, ANY, "Namespaced"), target("CREATE", "", "v1", "nodes", "", ""), false),
        Arguments.of(rule(ANY, ANY, ANY, ANY, "Namespaced"), target("CREATE", "", "v1", "namespaces", "", "ns"), false),
        Arguments.of(rule(ANY, ANY, ANY, ANY, "Cluster"), target("CREATE", "", "v1", "namespaces", "", "ns"), true),
        Arguments.of(rule(ANY, ANY, ANY, ANY, "Cluster"), target("CREATE", "", "v1", "pods", "", "ns"), false),
        Arguments.of(rule(ANY, ANY, ANY, ANY, "Cluster"), target("CREATE", "", "v1", "nodes", "", ""), true));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void matches_asKubesRules(AdmissionWebhook.Rule rule, RuleMatcher.Target target, boolean expected) {
    assertThat(RuleMatcher.matches(rule, target)).isEqualTo(expected);
  }
}
