package io.listwatch.apiserver.quota;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

/**
 * How quota measures the objects of one resource (kube's {@code quota.Evaluator},
 * {@code pkg/quota/v1/evaluator/core}): which quota resource names it tracks, which quota scopes
 * an object falls in, what one object uses, and what it must state when a quota constrains it.
 * Implementations are stateless.
 */
public interface QuotaEvaluator {

  /** The tracked resource's API group ("" for the core group). */
  String group();

  /** The tracked resource's plural name. */
  String plural();

  /** Whether an update of an object can change what it uses (creates always can). */
  boolean handlesUpdates();

  /** The names of {@code input} this evaluator tracks (kube's {@code MatchingResources}), in input order. */
  List<String> matchingResources(Collection<String> input);

  /** Whether {@code object} falls in {@code scope}; an evaluator without scopes matches none. */
  default boolean matchesScope(ScopeSelector scope, JsonNode object) {
    return false;
  }

  /**
   * What {@code object} must state because a quota constrains {@code required} (kube's
   * {@code Constraints}): null when nothing is missing, else kube's reason ("must specify ...").
   */
  default String constraints(Collection<String> required, JsonNode object) {
    return null;
  }

  /** What {@code object} uses at {@code now} (kube's {@code Usage}). */
  ResourceList usage(JsonNode object, Instant now);

  /**
   * Whether {@code quota} applies to {@code object} (kube's {@code generic.Matches}): its
   * {@code status.hard} names a resource this evaluator tracks, and the object falls in every
   * scope of the quota.
   */
  default boolean matches(JsonNode quota, JsonNode object) {
    if (matchingResources(ResourceList.fromJson(quota.path("status").path("hard")).names()).isEmpty()) {
      return false;
    }
    return ScopeSelector.of(quota).stream().allMatch(s -> matchesScope(s, object));
  }

  /** The object count resource name of a resource: {@code count/pods}, {@code count/deployments.apps}. */
  static String objectCountName(String group, String plural) {
    return group.isEmpty() ? "count/" + plural : "count/" + plural + "." + group;
  }
}
