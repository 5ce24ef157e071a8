package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a namespace's new enforce level says of the pods already in it (kube's
 * {@code EvaluatePodsInNamespace}): warnings for the client that raises the level, since the
 * pods keep running. At most {@link #MAX_PODS} pods are checked, one pod per controller first
 * (the others of a controller are alike), then the rest. Pods failing for the same reasons share
 * one line: {@code web-1 (and 2 other pods): allowPrivilegeEscalation != false, ...}, named
 * after the lexically first of them; lines come sorted after the heading
 * {@code existing pods in namespace "x" violate the new PodSecurity enforce level "..."}.
 *
 * <p>Not as kube: kube also stops after one second of checking; here the count alone bounds the
 * work. Stateless.
 */
public final class ExistingPods {

  /** kube's {@code defaultNamespaceMaxPodsToCheck}. */
  static final int MAX_PODS = 3000;

  private ExistingPods() {
  }

  /** The warnings for {@code pods}, the pods of {@code namespace}, under {@code enforce}. */
  public static List<String> warnings(Evaluator evaluator, String namespace, LevelVersion enforce,
      List<? extends JsonNode> pods) {
    List<JsonNode> prioritized = prioritize(pods);
    int total = prioritized.size();
    List<JsonNode> checked = prioritized.subList(0, Math.min(total, MAX_PODS));
    // reason -> [lexically first pod, count], in the order first seen
    Map<String, String> firstPod = new LinkedHashMap<>();
    Map<String, Integer> count = new LinkedHashMap<>();
    for (JsonNode pod : checked) {
      AggregateCheckResult r = AggregateCheckResult.of(evaluator.evaluate(enforce, pod.path("metadata"),
          pod.path("spec")));
      if (r.allowed()) {
        continue;
      }
      String reason = r.forbiddenReason();
      String name = pod.path("metadata").path("name").asText("");
      firstPod.merge(reason, name, (a, b) -> a.compareTo(b) <= 0 ? a : b);
      count.merge(reason, 1, Integer::sum);
    }
    List<String> warnings = new ArrayList<>();
    if (checked.size() < total) {
      warnings.add("new PodSecurity enforce level only checked against the first " + checked.size() + " of "
          + total + " existing pods");
    }
    if (!count.isEmpty()) {
      warnings.add("existing pods in namespace \"" + namespace + "\" violate the new PodSecurity enforce level \""
          + enforce + "\"");
    }
    List<String> lines = new ArrayList<>();
    count.forEach((reason, n) -> lines.add(firstPod.get(reason) + switch (n) {
      case 1 -> "";
      case 2 -> " (and 1 other pod)";
      default -> " (and " + (n - 1) + " other pods)";
    } + ": " + reason));
    lines.sort(null);
    warnings.addAll(lines);
    return warnings;
  }

  /** Pods without a controller and the first pod of each controller, then the other pods of controllers. */
  private static List<JsonNode> prioritize(List<? extends JsonNode> pods) {
    List<JsonNode> first = new ArrayList<>();
    List<JsonNode> duplicates = new ArrayList<>();
    Set<String> controllers = new HashSet<>();
    for (JsonNode pod : pods) {
      String controller = null;
      for (JsonNode ref : pod.path("metadata").path("ownerReferences")) {
        if (Containers.isTrue(ref.path("controller"))) {
          controller = ref.path("uid").asText("");
          break;
        }
      }
      if (controller == null || controllers.add(controller)) {
        first.add(pod);
      } else {
        duplicates.add(pod);
      }
    }
    first.addAll(duplicates);
    return first;
  }
}
