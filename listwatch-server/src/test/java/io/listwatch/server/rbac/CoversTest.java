package io.listwatch.server.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's {@code Covers}: which granted rules the held rules do not cover. */
class CoversTest {

  private static PolicyRule rule(List<String> verbs, List<String> groups, List<String> resources) {
    return PolicyRule.resource(verbs, groups, resources, List.of());
  }

  private static PolicyRule named(List<String> verbs, List<String> groups, List<String> resources,
      List<String> names) {
    return PolicyRule.resource(verbs, groups, resources, names);
  }

  static Stream<Arguments> cases() {
    PolicyRule clusterAdmin = rule(List.of("*"), List.of("*"), List.of("*"));
    PolicyRule readPods = rule(List.of("get", "list", "watch"), List.of(""), List.of("pods"));
    return Stream.of(
        Arguments.of("* on everything covers any resource rule", List.of(clusterAdmin),
            List.of(rule(List.of("delete"), List.of("apps"), List.of("deployments", "deployments/status"))), true),
        Arguments.of("a resource rule covers no URL", List.of(clusterAdmin),
            List.of(PolicyRule.nonResource(List.of("get"), List.of("/metrics"))), false),
        Arguments.of("the same rule", List.of(readPods), List.of(readPods), true),
        Arguments.of("a subset of verbs", List.of(readPods), List.of(rule(List.of("get"), List.of(""),
            List.of("pods"))), true),
        Arguments.of("a verb not held", List.of(readPods), List.of(rule(List.of("get", "delete"), List.of(""),
            List.of("pods"))), false),
        Arguments.of("pieces covered by different held rules", List.of(readPods,
            rule(List.of("delete"), List.of(""), List.of("pods"))), List.of(rule(List.of("get", "delete"),
            List.of(""), List.of("pods"))), true),
        Arguments.of("another group", List.of(readPods), List.of(rule(List.of("get"), List.of("apps"),
            List.of("pods"))), false),
        Arguments.of("*/subresource covers any resource's subresource",
            List.of(rule(List.of("get"), List.of(""), List.of("*/status"))),
            List.of(rule(List.of("get"), List.of(""), List.of("pods/status", "services/status"))), true),
        Arguments.of("a resource does not cover its subresource", List.of(readPods),
            List.of(rule(List.of("get"), List.of(""), List.of("pods/status"))), false),
        Arguments.of("unnamed held covers named", List.of(readPods),
            List.of(named(List.of("get"), List.of(""), List.of("pods"), List.of("p1"))), true),
        Arguments.of("named held covers those names", List.of(named(List.of("get"), List.of(""), List.of("pods"),
            List.of("p1", "p2"))), List.of(named(List.of("get"), List.of(""), List.of("pods"), List.of("p2"))), true),
        Arguments.of("named held does not cover other names", List.of(named(List.of("get"), List.of(""),
            List.of("pods"), List.of("p1"))), List.of(named(List.of("get"), List.of(""), List.of("pods"),
            List.of("p3"))), false),
        Arguments.of("named held does not cover all names", List.of(named(List.of("get"), List.of(""),
            List.of("pods"), List.of("p1"))), List.of(readPods), false),
        Arguments.of("URL prefix covers deeper URLs",
            List.of(PolicyRule.nonResource(List.of("get"), List.of("/apis/*"))),
            List.of(PolicyRule.nonResource(List.of("get"), List.of("/apis/apps", "/apis/apps/*"))), true),
        Arguments.of("URL * covers every URL", List.of(PolicyRule.nonResource(List.of("*"), List.of("*"))),
            List.of(PolicyRule.nonResource(List.of("get", "post"), List.of("/metrics"))), true),
        Arguments.of("exact URL does not cover a prefix",
            List.of(PolicyRule.nonResource(List.of("get"), List.of("/healthz"))),
            List.of(PolicyRule.nonResource(List.of("get"), List.of("/healthz/*"))), false),
        Arguments.of("nothing held covers nothing granted", List.of(), List.of(), true),
        Arguments.of("nothing held", List.of(), List.of(readPods), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void uncovered_isEmpty_exactlyWhenHeldRulesCoverGrantedRules(String description, List<PolicyRule> held,
      List<PolicyRule> granted, boolean covered) {
    assertThat(Covers.uncovered(held, granted).isEmpty()).isEqualTo(covered);
  }

  @Test
  void uncovered_listsEachMissingPiece() {
    List<PolicyRule> missing = Covers.uncovered(
        List.of(rule(List.of("get"), List.of(""), List.of("pods"))),
        List.of(rule(List.of("get", "delete"), List.of(""), List.of("pods", "secrets"))));
    assertThat(missing).containsExactly(
        rule(List.of("delete"), List.of(""), List.of("pods")),
        rule(List.of("get"), List.of(""), List.of("secrets")),
        rule(List.of("delete"), List.of(""), List.of("secrets")));
  }

  @Test
  void compact_mergesVerbsOfTheSameResource() {
    List<PolicyRule> compacted = Covers.compact(List.of(
        rule(List.of("delete"), List.of(""), List.of("pods")),
        rule(List.of("get"), List.of(""), List.of("secrets")),
        rule(List.of("create"), List.of(""), List.of("pods")),
        PolicyRule.nonResource(List.of("get"), List.of("/metrics"))));
    assertThat(compacted).containsExactlyInAnyOrder(
        PolicyRule.nonResource(List.of("get"), List.of("/metrics")),
        rule(List.of("delete", "create"), List.of(""), List.of("pods")),
        rule(List.of("get"), List.of(""), List.of("secrets")));
  }
}
