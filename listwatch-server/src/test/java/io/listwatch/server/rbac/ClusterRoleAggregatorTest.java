package io.listwatch.server.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterRoleAggregatorTest {

  private static final PolicyRule READ_PODS = PolicyRule.resource(List.of("get", "list", "watch"), List.of(""),
      List.of("pods"), List.of());
  private static final PolicyRule READ_SECRETS = PolicyRule.resource(List.of("get"), List.of(""),
      List.of("secrets"), List.of());

  private static ObjectNode labelled(String name, String label, PolicyRule... rules) {
    ObjectNode o = TestPolicy.roleJson("ClusterRole", "", name, rules);
    ((ObjectNode) o.get("metadata")).putObject("labels").put(label, "true");
    return o;
  }

  private static ObjectNode aggregated(String name, String label) {
    ObjectNode o = TestPolicy.roleJson("ClusterRole", "", name);
    o.putObject("aggregationRule").putArray("clusterRoleSelectors").addObject().putObject("matchLabels")
        .put(label, "true");
    return o;
  }

  @Test
  void aggregatedRules_unionOfMatchingRoles_inNameOrder_eachRuleOnce() {
    TestPolicy p = new TestPolicy()
        .clusterRole(aggregated("monitoring", "example.com/aggregate-to-monitoring"))
        .clusterRole(labelled("z-secrets", "example.com/aggregate-to-monitoring", READ_SECRETS, READ_PODS))
        .clusterRole(labelled("a-pods", "example.com/aggregate-to-monitoring", READ_PODS))
        .clusterRole(labelled("unrelated", "other", PolicyRule.nonResource(List.of("get"), List.of("/x"))));

    Role monitoring = p.cache.clusterRole("monitoring").orElseThrow();

    assertThat(ClusterRoleAggregator.aggregatedRules(monitoring, p.cache.clusterRoles()))
        .containsExactly(READ_PODS, READ_SECRETS);
  }

  @Test
  void aggregatedRules_matchExpressions() {
    ObjectNode agg = TestPolicy.roleJson("ClusterRole", "", "agg");
    ObjectNode expr = agg.putObject("aggregationRule").putArray("clusterRoleSelectors").addObject()
        .putArray("matchExpressions").addObject().put("key", "tier").put("operator", "In");
    expr.putArray("values").add("gold").add("silver");
    ObjectNode gold = TestPolicy.roleJson("ClusterRole", "", "gold", READ_PODS);
    ((ObjectNode) gold.get("metadata")).putObject("labels").put("tier", "gold");
    ObjectNode bronze = TestPolicy.roleJson("ClusterRole", "", "bronze", READ_SECRETS);
    ((ObjectNode) bronze.get("metadata")).putObject("labels").put("tier", "bronze");
    TestPolicy p = new TestPolicy().clusterRole(agg).clusterRole(gold).clusterRole(bronze);

    assertThat(ClusterRoleAggregator.aggregatedRules(p.cache.clusterRole("agg").orElseThrow(), p.cache.clusterRoles()))
        .containsExactly(READ_PODS);
  }

  @Test
  void aggregatedRules_neverIncludeTheRoleItself() {
    ObjectNode self = aggregated("self", "l");
    ((ObjectNode) self.get("metadata")).putObject("labels").put("l", "true");
    self.withArray("rules").add(READ_PODS.toJson());
    TestPolicy p = new TestPolicy().clusterRole(self);

    assertThat(ClusterRoleAggregator.aggregatedRules(p.cache.clusterRole("self").orElseThrow(),
        p.cache.clusterRoles())).isEmpty();
  }
}
