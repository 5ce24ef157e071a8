package io.listwatch.server.rbac;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.cacher.CacheListener;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.cacher.WatchCacheEvent;
import java.util.List;
import java.util.Map;

/**
 * Builds RBAC objects as JSON and feeds them to a {@link PolicyCache} through its cacher
 * listeners, as the server's watch caches do. Confined to the test thread.
 */
final class TestPolicy {

  static final ObjectMapper JSON = new ObjectMapper();
  static final String RBAC = "rbac.authorization.k8s.io";

  final PolicyCache cache = new PolicyCache();
  private final CacheListener roles = cache.rolesListener();
  private final CacheListener clusterRoles = cache.clusterRolesListener();
  private final CacheListener roleBindings = cache.roleBindingsListener();
  private final CacheListener clusterRoleBindings = cache.clusterRoleBindingsListener();
  private long rv;

  TestPolicy() {
    for (CacheListener l : List.of(roles, clusterRoles, roleBindings, clusterRoleBindings)) {
      l.onReplace(List.of(), 0);
    }
  }

  /** A response body (or any JSON text) as a tree; fails the test if it is not JSON. */
  static JsonNode json(String body) {
    try {
      return JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new AssertionError("not JSON: " + body, e);
    }
  }

  static ObjectNode roleJson(String kind, String namespace, String name, PolicyRule... rules) {
    ObjectNode o = JSON.createObjectNode().put("apiVersion", RBAC + "/v1").put("kind", kind);
    ObjectNode meta = o.putObject("metadata").put("name", name);
    if (!namespace.isEmpty()) {
      meta.put("namespace", namespace);
    }
    ArrayNode r = o.putArray("rules");
    for (PolicyRule rule : rules) {
      r.add(rule.toJson());
    }
    return o;
  }

  /** {@code subjects}: "User:alice", "Group:devs", "ServiceAccount:ns/name" or "ServiceAccount:name". */
  static ObjectNode bindingJson(String kind, String namespace, String name, String roleKind, String roleName,
      String... subjects) {
    ObjectNode o = JSON.createObjectNode().put("apiVersion", RBAC + "/v1").put("kind", kind);
    ObjectNode meta = o.putObject("metadata").put("name", name);
    if (!namespace.isEmpty()) {
      meta.put("namespace", namespace);
    }
    o.putObject("roleRef").put("apiGroup", RBAC).put("kind", roleKind).put("name", roleName);
    ArrayNode s = o.putArray("subjects");
    for (String subject : subjects) {
      String k = subject.substring(0, subject.indexOf(':'));
      String n = subject.substring(subject.indexOf(':') + 1);
      ObjectNode sj = s.addObject().put("kind", k);
      if (k.equals("ServiceAccount")) {
        if (n.contains("/")) {
          sj.put("namespace", n.substring(0, n.indexOf('/')));
          n = n.substring(n.indexOf('/') + 1);
        }
        sj.put("apiGroup", "");
      } else {
        sj.put("apiGroup", RBAC);
      }
      sj.put("name", n);
    }
    return o;
  }

  TestPolicy role(String namespace, String name, PolicyRule... rules) {
    return add(roles, roleJson("Role", namespace, name, rules));
  }

  TestPolicy clusterRole(String name, PolicyRule... rules) {
    return add(clusterRoles, roleJson("ClusterRole", "", name, rules));
  }

  TestPolicy clusterRole(ObjectNode json) {
    return add(clusterRoles, json);
  }

  TestPolicy roleBinding(String namespace, String name, String roleKind, String roleName, String... subjects) {
    return add(roleBindings, bindingJson("RoleBinding", namespace, name, roleKind, roleName, subjects));
  }

  TestPolicy clusterRoleBinding(String name, String roleName, String... subjects) {
    return add(clusterRoleBindings, bindingJson("ClusterRoleBinding", "", name, "ClusterRole", roleName, subjects));
  }

  /** Adds the bootstrap policy, its aggregated roles filled as the controller would. */
  TestPolicy bootstrap() {
    BootstrapPolicy.clusterRoles().forEach(r -> add(clusterRoles, r));
    for (Role r : cache.clusterRoles()) {
      if (r.aggregation().isPresent()) {
        aggregate(r.name());
      }
    }
    // edit and admin aggregate roles that are aggregated themselves: a second pass settles them
    for (Role r : cache.clusterRoles()) {
      if (r.aggregation().isPresent()) {
        aggregate(r.name());
      }
    }
    BootstrapPolicy.clusterRoleBindings().forEach(b -> add(clusterRoleBindings, b));
    return this;
  }

  private void aggregate(String name) {
    Role role = cache.clusterRole(name).orElseThrow();
    ObjectNode json = BootstrapPolicy.clusterRoles().stream()
        .filter(o -> o.path("metadata").path("name").asText().equals(name)).findFirst().orElseThrow();
    ArrayNode rules = json.putArray("rules");
    ClusterRoleAggregator.aggregatedRules(role, cache.clusterRoles()).forEach(r -> rules.add(r.toJson()));
    add(clusterRoles, json);
  }

  private TestPolicy add(CacheListener listener, ObjectNode json) {
    String ns = json.path("metadata").path("namespace").asText("");
    String name = json.path("metadata").path("name").asText();
    try {
      CachedObject o = new CachedObject("/k/" + ns + "/" + name, ns, name, ++rv, JSON.writeValueAsBytes(json),
          Map.of(), Map.of());
      listener.onEvent(new WatchCacheEvent(WatchCacheEvent.Type.ADDED, o, null, 0));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    return this;
  }
}
