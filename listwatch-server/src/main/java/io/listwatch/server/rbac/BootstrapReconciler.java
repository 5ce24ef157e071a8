package io.listwatch.server.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.ListOptions;
import io.listwatch.apiserver.rest.ResourceStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the {@link BootstrapPolicy} at startup and keeps it complete, as kube's RBAC
 * post-start hook does: a missing object is created; an existing one whose
 * {@code rbac.authorization.kubernetes.io/autoupdate} annotation is not {@code "false"} gets
 * back what it lacks (rules, aggregation selectors, labels, annotations, binding subjects),
 * and keeps what an operator added. An aggregated role's rules are left to the aggregation
 * controller. Runs once, on the starting thread.
 */
final class BootstrapReconciler {

  private static final Logger LOG = LoggerFactory.getLogger(BootstrapReconciler.class);
  private static final ListOptions CONSISTENT = ListOptions.parse(Map.of());

  private BootstrapReconciler() {
  }

  static void reconcile(ResourceStore clusterRoles, ResourceStore clusterRoleBindings) {
    for (ObjectNode role : BootstrapPolicy.clusterRoles()) {
      ensure(clusterRoles, role);
    }
    for (ObjectNode binding : BootstrapPolicy.clusterRoleBindings()) {
      ensure(clusterRoleBindings, binding);
    }
  }

  private static void ensure(ResourceStore store, ObjectNode expected) {
    String name = expected.path("metadata").path("name").asText();
    Optional<?> existing = store.cacher().get("", name, CONSISTENT).join();
    if (existing.isEmpty()) {
      try {
        store.createInternal(expected).join();
        LOG.info("created {} {}", expected.path("kind").asText(), name);
        return;
      } catch (java.util.concurrent.CompletionException e) {
        if (!(e.getCause() instanceof io.listwatch.api.StatusException se && se.code() == 409)) {
          throw e;
        }
      }
    }
    store.updateInternal("", name, current -> {
      if (current.path("metadata").path("annotations").path(BootstrapPolicy.AUTOUPDATE_ANNOTATION).asText("true")
          .equals("false")) {
        return current;
      }
      reconcileInto(current, expected);
      return current;
    }).join();
  }

  /** Adds to {@code current} what {@code expected} has and it lacks. */
  static void reconcileInto(ObjectNode current, ObjectNode expected) {
    ObjectNode meta = (ObjectNode) current.path("metadata");
    for (String field : List.of("labels", "annotations")) {
      ObjectNode target = meta.get(field) instanceof ObjectNode o ? o : meta.putObject(field);
      expected.path("metadata").path(field).properties().forEach(e -> {
        if (!target.has(e.getKey())) {
          target.set(e.getKey(), e.getValue());
        }
      });
    }
    if (expected.has("aggregationRule")) {
      ObjectNode rule = current.get("aggregationRule") instanceof ObjectNode o ? o : current.putObject("aggregationRule");
      addMissing(rule, "clusterRoleSelectors", expected.path("aggregationRule").path("clusterRoleSelectors"));
    } else if (expected.has("rules")) {
      List<PolicyRule> have = PolicyRule.listFromJson(current.get("rules"));
      List<PolicyRule> missing = Covers.uncovered(have, PolicyRule.listFromJson(expected.get("rules")));
      if (!missing.isEmpty()) {
        // add the expected rules that are not covered whole
        ArrayNode rules = current.get("rules") instanceof ArrayNode a ? a : current.putArray("rules");
        for (JsonNode r : expected.get("rules")) {
          if (!Covers.uncovered(have, List.of(PolicyRule.fromJson(r))).isEmpty()) {
            rules.add(r);
          }
        }
      }
    }
    if (expected.has("subjects")) {
      addMissing(current, "subjects", expected.get("subjects"));
    }
  }

  private static void addMissing(ObjectNode target, String field, JsonNode expected) {
    ArrayNode have = target.get(field) instanceof ArrayNode a ? a : target.putArray(field);
    for (JsonNode e : expected) {
      boolean present = false;
      for (JsonNode h : have) {
        present |= h.equals(e);
      }
      if (!present) {
        have.add(e);
      }
    }
  }
}
