package io.listwatch.apiserver.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.core.Quantity;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a ResourceQuota's status should say, measured from the objects of its namespace (kube's
 * {@code quota.CalculateUsage} and the resource quota controller's {@code syncResourceQuota}):
 * {@code status.hard} is {@code spec.hard}; {@code status.used} has, for each hard resource an
 * evaluator tracks, the sum of what the namespace's objects in the quota's scopes use, and keeps
 * the last value of a hard resource nothing tracks. Stateless.
 */
public final class QuotaUsage {

  /** The objects of one evaluator's resource in a namespace. */
  @FunctionalInterface
  public interface ObjectLister {
    List<? extends JsonNode> list(QuotaEvaluator evaluator, String namespace);
  }

  private QuotaUsage() {
  }

  /**
   * The status {@code quota} should have ({@code hard} and {@code used}, in canonical form),
   * measuring with {@code evaluators} the objects {@code lister} lists, at {@code now}.
   */
  public static ObjectNode status(JsonNode quota, Collection<QuotaEvaluator> evaluators, ObjectLister lister,
      Instant now) {
    ResourceList hard = ResourceList.fromJson(quota.path("spec").path("hard"));
    String namespace = quota.path("metadata").path("namespace").asText();
    List<ScopeSelector> scopes = ScopeSelector.of(quota);
    Set<String> matched = new LinkedHashSet<>();
    for (QuotaEvaluator e : evaluators) {
      matched.addAll(e.matchingResources(hard.names()));
    }
    ResourceList measured = ResourceList.EMPTY;
    for (QuotaEvaluator e : evaluators) {
      List<String> tracked = e.matchingResources(matched);
      if (tracked.isEmpty()) {
        continue;
      }
      ResourceList used = ResourceList.EMPTY;
      for (String name : tracked) {
        used = used.with(name, Quantity.ZERO);
      }
      for (JsonNode object : lister.list(e, namespace)) {
        if (scopes.stream().allMatch(s -> e.matchesScope(s, object))) {
          used = used.add(e.usage(object, now));
        }
      }
      measured = measured.add(used);
    }
    ResourceList used = ResourceList.fromJson(quota.path("status").path("used"));
    for (var m : measured.mask(matched).amounts().entrySet()) {
      used = used.with(m.getKey(), m.getValue());
    }
    ObjectNode status = JsonNodeFactory.instance.objectNode();
    status.set("hard", hard.toJson());
    status.set("used", used.mask(hard.names()).toJson());
    return status;
  }

  /**
   * Whether {@code quota}'s stored status differs from {@code status} (amounts compared, not
   * spellings), or it has none yet.
   */
  public static boolean differs(JsonNode quota, JsonNode status) {
    JsonNode current = quota.path("status");
    if (!current.path("hard").isObject() || !current.path("used").isObject()) {
      return true;
    }
    return !ResourceList.fromJson(current.path("hard")).sameAmounts(ResourceList.fromJson(status.path("hard")))
        || !ResourceList.fromJson(current.path("used")).sameAmounts(ResourceList.fromJson(status.path("used")));
  }
}
