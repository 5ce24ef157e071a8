package io.listwatch.server.rbac;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The default roles and bindings kube-apiserver creates (its bootstrap policy), limited to the
 * resources this server serves. Every object carries the label
 * {@code kubernetes.io/bootstrapping: rbac-defaults} and the annotation
 * {@code rbac.authorization.kubernetes.io/autoupdate: "true"}.
 *
 * <ul>
 *   <li>{@code cluster-admin}: everything; bound to the group system:masters.
 *   <li>{@code admin}, {@code edit}, {@code view}: aggregated from ClusterRoles labelled
 *       {@code rbac.authorization.k8s.io/aggregate-to-admin|edit|view: "true"}; the base rules
 *       are in {@code system:aggregate-to-admin|edit|view}. {@code edit} is aggregated into
 *       admin and {@code view} into edit, so admin &#8839; edit &#8839; view.
 *   <li>{@code system:discovery} (discovery, version and health paths) and
 *       {@code system:basic-user} (self access and rules reviews, self subject reviews): bound to
 *       system:authenticated.
 *   <li>{@code system:public-info-viewer} (health and version paths): bound to
 *       system:authenticated and system:unauthenticated.
 * </ul>
 * Stateless.
 */
public final class BootstrapPolicy {

  public static final String AUTOUPDATE_ANNOTATION = "rbac.authorization.kubernetes.io/autoupdate";
  public static final String BOOTSTRAPPING_LABEL = "kubernetes.io/bootstrapping";
  public static final String AGGREGATE_TO = "rbac.authorization.k8s.io/aggregate-to-";

  private static final List<String> READ = List.of("get", "list", "watch");
  private static final List<String> WRITE = List.of("create", "delete", "deletecollection", "patch", "update");
  private static final List<String> READ_WRITE = List.of("create", "delete", "deletecollection", "get", "list",
      "patch", "update", "watch");
  private static final String CORE = "";
  private static final String APPS = "apps";
  private static final String RBAC = "rbac.authorization.k8s.io";
  private static final String AUTHORIZATION = "authorization.k8s.io";
  private static final String AUTHENTICATION = "authentication.k8s.io";

  private BootstrapPolicy() {
  }

  /** The default ClusterRoles, in kube's order. */
  public static List<ObjectNode> clusterRoles() {
    List<ObjectNode> roles = new ArrayList<>();
    roles.add(role("cluster-admin", Map.of(), null,
        rule(List.of("*"), List.of("*"), "*"),
        PolicyRule.nonResource(List.of("*"), List.of("*"))));
    roles.add(role("admin", Map.of(), "admin"));
    roles.add(role("edit", Map.of(AGGREGATE_TO + "admin", "true"), "edit"));
    roles.add(role("view", Map.of(AGGREGATE_TO + "edit", "true"), "view"));
    roles.add(role("system:aggregate-to-admin", Map.of(AGGREGATE_TO + "admin", "true"), null,
        rule(List.of("create"), List.of(AUTHORIZATION), "localsubjectaccessreviews"),
        rule(READ_WRITE, List.of(RBAC), "rolebindings", "roles")));
    roles.add(role("system:aggregate-to-edit", Map.of(AGGREGATE_TO + "admin", "true", AGGREGATE_TO + "edit", "true"),
        null,
        rule(List.of("impersonate"), List.of(CORE), "serviceaccounts"),
        rule(WRITE, List.of(CORE), "pods"),
        rule(List.of("create"), List.of(CORE), "pods/eviction"),
        rule(WRITE, List.of(CORE), "configmaps", "events", "persistentvolumeclaims", "replicationcontrollers",
            "replicationcontrollers/scale", "secrets", "serviceaccounts", "services"),
        rule(List.of("create"), List.of(CORE), "serviceaccounts/token"),
        rule(WRITE, List.of(APPS), "daemonsets", "deployments", "deployments/scale", "replicasets",
            "replicasets/scale", "statefulsets", "statefulsets/scale"),
        rule(WRITE, List.of("autoscaling"), "horizontalpodautoscalers"),
        rule(WRITE, List.of("batch"), "cronjobs", "jobs"),
        rule(WRITE, List.of("networking.k8s.io"), "ingresses", "networkpolicies"),
        rule(WRITE, List.of("policy"), "poddisruptionbudgets"),
        rule(READ, List.of(CORE), "secrets")));
    roles.add(role("system:aggregate-to-view", Map.of(AGGREGATE_TO + "admin", "true", AGGREGATE_TO + "edit", "true",
        AGGREGATE_TO + "view", "true"), null,
        rule(READ, List.of(CORE), "configmaps", "endpoints", "persistentvolumeclaims", "persistentvolumeclaims/status",
            "pods", "replicationcontrollers", "replicationcontrollers/scale", "serviceaccounts", "services",
            "services/status"),
        rule(READ, List.of(CORE), "bindings", "events", "limitranges", "namespaces/status", "pods/status",
            "replicationcontrollers/status", "resourcequotas", "resourcequotas/status"),
        rule(READ, List.of(CORE), "namespaces"),
        rule(READ, List.of("discovery.k8s.io"), "endpointslices"),
        rule(READ, List.of(APPS), "controllerrevisions", "daemonsets", "daemonsets/status", "deployments",
            "deployments/scale", "deployments/status", "replicasets", "replicasets/scale", "replicasets/status",
            "statefulsets", "statefulsets/scale", "statefulsets/status"),
        rule(READ, List.of("autoscaling"), "horizontalpodautoscalers", "horizontalpodautoscalers/status"),
        rule(READ, List.of("batch"), "cronjobs", "cronjobs/status", "jobs", "jobs/status"),
        rule(READ, List.of("networking.k8s.io"), "ingresses", "ingresses/status", "networkpolicies"),
        rule(READ, List.of("policy"), "poddisruptionbudgets", "poddisruptionbudgets/status")));
    roles.add(role("system:discovery", Map.of(), null, PolicyRule.nonResource(List.of("get"),
        List.of("/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez", "/openapi", "/openapi/*", "/readyz",
            "/version", "/version/"))));
    roles.add(role("system:basic-user", Map.of(), null,
        rule(List.of("create"), List.of(AUTHORIZATION), "selfsubjectaccessreviews", "selfsubjectrulesreviews"),
        rule(List.of("create"), List.of(AUTHENTICATION), "selfsubjectreviews")));
    roles.add(role("system:public-info-viewer", Map.of(), null, PolicyRule.nonResource(List.of("get"),
        List.of("/healthz", "/livez", "/readyz", "/version", "/version/"))));
    return roles;
  }

  /** The default ClusterRoleBindings, each named after its ClusterRole. */
  public static List<ObjectNode> clusterRoleBindings() {
    return List.of(
        binding("cluster-admin", "system:masters"),
        binding("system:basic-user", "system:authenticated"),
        binding("system:discovery", "system:authenticated"),
        binding("system:public-info-viewer", "system:authenticated", "system:unauthenticated"));
  }

  private static PolicyRule rule(List<String> verbs, List<String> groups, String... resources) {
    return PolicyRule.resource(verbs, groups, List.of(resources), List.of());
  }

  private static ObjectNode metadata(ObjectNode obj, String name, Map<String, String> labels) {
    ObjectNode meta = obj.putObject("metadata");
    meta.put("name", name);
    ObjectNode l = meta.putObject("labels");
    l.put(BOOTSTRAPPING_LABEL, "rbac-defaults");
    labels.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> l.put(e.getKey(), e.getValue()));
    meta.putObject("annotations").put(AUTOUPDATE_ANNOTATION, "true");
    return meta;
  }

  /** @param aggregateFrom for an aggregated role, the suffix of its aggregate-to label; else null */
  private static ObjectNode role(String name, Map<String, String> labels, String aggregateFrom, PolicyRule... rules) {
    ObjectNode obj = JsonNodeFactory.instance.objectNode();
    obj.put("apiVersion", RBAC + "/v1").put("kind", "ClusterRole");
    metadata(obj, name, labels);
    if (aggregateFrom != null) {
      obj.putObject("aggregationRule").putArray("clusterRoleSelectors").addObject()
          .putObject("matchLabels").put(AGGREGATE_TO + aggregateFrom, "true");
    }
    ArrayNode r = obj.putArray("rules");
    for (PolicyRule rule : rules) {
      r.add(rule.toJson());
    }
    return obj;
  }

  private static ObjectNode binding(String role, String... groups) {
    ObjectNode obj = JsonNodeFactory.instance.objectNode();
    obj.put("apiVersion", RBAC + "/v1").put("kind", "ClusterRoleBinding");
    metadata(obj, role, Map.of());
    obj.putObject("roleRef").put("apiGroup", RBAC).put("kind", "ClusterRole").put("name", role);
    ArrayNode subjects = obj.putArray("subjects");
    for (String g : groups) {
      subjects.addObject().put("apiGroup", RBAC).put("kind", "Group").put("name", g);
    }
    return obj;
  }
}
