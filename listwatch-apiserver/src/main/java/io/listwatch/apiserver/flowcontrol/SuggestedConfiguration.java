package io.listwatch.apiserver.flowcontrol;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.strategy.MandatoryFlowcontrolConfiguration;
import java.util.List;

/**
 * kube's suggested API Priority and Fairness configuration (the {@code suggested} set of
 * apiserver's flowcontrol bootstrap, kube 1.32), which kube-apiserver creates at start beside
 * the mandatory one ({@code io.listwatch.apiserver.strategy.MandatoryFlowcontrolConfiguration})
 * unless objects of these names exist. The PriorityLevelConfigurations, each Limited and
 * queuing: {@code system} (30 shares, 64 queues, hand 6, 50 long), {@code node-high} (40,
 * 64/6/50), {@code leader-election} (10, 16/4/50), {@code workload-high} (40, 128/6/50),
 * {@code workload-low} (100, 128/6/50) and {@code global-default} (20, 128/6/50). The
 * FlowSchemas: {@code probes} (2, exempt: GETs of /healthz, /readyz, /livez by anyone),
 * {@code system-leader-election} (100), {@code endpoint-controller} (150),
 * {@code workload-leader-election} (200), {@code system-node-high} (400), {@code system-nodes}
 * (500), {@code kube-controller-manager} and {@code kube-scheduler} (800),
 * {@code kube-system-service-accounts} (900), {@code service-accounts} (9000) and
 * {@code global-default} (9900: every authenticated and unauthenticated user, by user).
 *
 * <p>Stateless: every call builds fresh objects the caller may change.
 */
public final class SuggestedConfiguration {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final List<String> ALL = List.of("*");
  private static final List<String> GET_CREATE_UPDATE = List.of("get", "create", "update");

  private SuggestedConfiguration() {
  }

  /** The suggested PriorityLevelConfigurations. */
  public static List<ObjectNode> priorityLevelConfigurations() {
    return List.of(level("system", 30, 33, 64, 6), level("node-high", 40, 25, 64, 6),
        level("leader-election", 10, 0, 16, 4), level("workload-high", 40, 50, 128, 6),
        level("workload-low", 100, 90, 128, 6), level("global-default", 20, 50, 128, 6));
  }

  /** The suggested FlowSchemas. */
  public static List<ObjectNode> flowSchemas() {
    ObjectNode probes = schema("probes", "exempt", 2, "");
    ObjectNode probeRule = rule(probes, groups("system:unauthenticated", "system:authenticated"));
    probeRule.putArray("nonResourceRules").addObject().<ObjectNode>set("verbs", strings(List.of("get")))
        .set("nonResourceURLs", strings(List.of("/healthz", "/readyz", "/livez")));

    ObjectNode leader = schema("system-leader-election", "leader-election", 100, "ByUser");
    ArrayNode leaderSubjects = users("system:kube-controller-manager", "system:kube-scheduler");
    leaderSubjects.add(kubeSystemServiceAccount("*"));
    ArrayNode leaderRules = rule(leader, leaderSubjects).putArray("resourceRules");
    resourceRule(leaderRules, GET_CREATE_UPDATE, "", List.of("endpoints", "configmaps"), List.of("kube-system"), false);
    resourceRule(leaderRules, GET_CREATE_UPDATE, "coordination.k8s.io", List.of("leases"), List.of("kube-system"), false);

    ObjectNode endpoints = schema("endpoint-controller", "workload-high", 150, "ByUser");
    ArrayNode endpointSubjects = users("system:kube-controller-manager");
    endpointSubjects.add(kubeSystemServiceAccount("endpoint-controller"));
    endpointSubjects.add(kubeSystemServiceAccount("endpointslicemirroring-controller"));
    ArrayNode endpointRules = rule(endpoints, endpointSubjects).putArray("resourceRules");
    resourceRule(endpointRules, GET_CREATE_UPDATE, "", List.of("endpoints"), ALL, false);

    ObjectNode workloadLeader = schema("workload-leader-election", "leader-election", 200, "ByUser");
    ArrayNode workloadSubjects = JSON.arrayNode().add(kubeSystemServiceAccount("*"));
    ArrayNode workloadRules = rule(workloadLeader, workloadSubjects).putArray("resourceRules");
    resourceRule(workloadRules, GET_CREATE_UPDATE, "", List.of("endpoints", "configmaps"), ALL, false);
    resourceRule(workloadRules, GET_CREATE_UPDATE, "coordination.k8s.io", List.of("leases"), ALL, false);

    ObjectNode nodeHigh = schema("system-node-high", "node-high", 400, "ByUser");
    ObjectNode nodeHighRule = rule(nodeHigh, groups("system:nodes"));
    ArrayNode nodeHighRules = nodeHighRule.putArray("resourceRules");
    resourceRule(nodeHighRules, ALL, "", List.of("nodes", "nodes/status"), List.of(), true);
    resourceRule(nodeHighRules, ALL, "coordination.k8s.io", List.of("leases"), ALL, false);

    return List.of(probes, leader, endpoints, workloadLeader, nodeHigh,
        everything(schema("system-nodes", "system", 500, "ByUser"), groups("system:nodes")),
        everything(schema("kube-controller-manager", "workload-high", 800, "ByNamespace"),
            users("system:kube-controller-manager")),
        everything(schema("kube-scheduler", "workload-high", 800, "ByNamespace"), users("system:kube-scheduler")),
        everything(schema("kube-system-service-accounts", "workload-high", 900, "ByNamespace"),
            JSON.arrayNode().add(kubeSystemServiceAccount("*"))),
        everything(schema("service-accounts", "workload-low", 9000, "ByUser"), groups("system:serviceaccounts")),
        everything(schema("global-default", "global-default", 9900, "ByUser"),
            groups("system:unauthenticated", "system:authenticated")));
  }

  private static ObjectNode level(String name, int shares, int lendablePercent, int queues, int handSize) {
    ObjectNode spec = JSON.objectNode().put("type", "Limited");
    ObjectNode limited = spec.putObject("limited").put("nominalConcurrencyShares", shares)
        .put("lendablePercent", lendablePercent);
    limited.putObject("limitResponse").put("type", "Queue").putObject("queuing").put("queues", queues)
        .put("handSize", handSize).put("queueLengthLimit", 50);
    return MandatoryFlowcontrolConfiguration.object("PriorityLevelConfiguration", name, spec);
  }

  private static ObjectNode schema(String name, String level, int precedence, String distinguisher) {
    ObjectNode spec = JSON.objectNode();
    spec.putObject("priorityLevelConfiguration").put("name", level);
    spec.put("matchingPrecedence", precedence);
    if (!distinguisher.isEmpty()) {
      spec.putObject("distinguisherMethod").put("type", distinguisher);
    }
    spec.putArray("rules");
    return MandatoryFlowcontrolConfiguration.object("FlowSchema", name, spec);
  }

  private static ObjectNode rule(ObjectNode schema, ArrayNode subjects) {
    ObjectNode rule = ((ArrayNode) schema.path("spec").path("rules")).addObject();
    rule.set("subjects", subjects);
    return rule;
  }

  /** A schema whose one rule matches every request of {@code subjects}. */
  private static ObjectNode everything(ObjectNode schema, ArrayNode subjects) {
    ObjectNode rule = rule(schema, subjects);
    resourceRule(rule.putArray("resourceRules"), ALL, "*", ALL, ALL, true);
    rule.putArray("nonResourceRules").addObject().<ObjectNode>set("verbs", strings(ALL))
        .set("nonResourceURLs", strings(ALL));
    return schema;
  }

  private static void resourceRule(ArrayNode rules, List<String> verbs, String group, List<String> resources,
      List<String> namespaces, boolean clusterScope) {
    ObjectNode r = rules.addObject();
    r.set("verbs", strings(verbs));
    r.putArray("apiGroups").add(group);
    r.set("resources", strings(resources));
    if (clusterScope) {
      r.put("clusterScope", true);
    }
    if (!namespaces.isEmpty()) {
      r.set("namespaces", strings(namespaces));
    }
  }

  private static ArrayNode groups(String... names) {
    ArrayNode out = JSON.arrayNode();
    for (String n : names) {
      out.addObject().put("kind", "Group").putObject("group").put("name", n);
    }
    return out;
  }

  private static ArrayNode users(String... names) {
    ArrayNode out = JSON.arrayNode();
    for (String n : names) {
      out.addObject().put("kind", "User").putObject("user").put("name", n);
    }
    return out;
  }

  private static ObjectNode kubeSystemServiceAccount(String name) {
    ObjectNode s = JSON.objectNode().put("kind", "ServiceAccount");
    s.putObject("serviceAccount").put("namespace", "kube-system").put("name", name);
    return s;
  }

  private static ArrayNode strings(List<String> values) {
    ArrayNode out = JSON.arrayNode();
    values.forEach(out::add);
    return out;
  }
}
