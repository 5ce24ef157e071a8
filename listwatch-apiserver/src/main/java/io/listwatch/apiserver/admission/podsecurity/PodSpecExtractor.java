package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Optional;

/**
 * The pod a workload would make (kube's {@code DefaultPodSpecExtractor}): the pod template of the
 * built-in resources that embed one. A ReplicationController without a template has none to
 * check; the other kinds' templates are values in kube, so a missing one reads as empty.
 * Stateless.
 */
public final class PodSpecExtractor {

  /** The pod metadata and spec to evaluate; missing nodes where the object has none. */
  public record PodTemplate(JsonNode metadata, JsonNode spec) {
  }

  /** Where the template sits in each resource ("group/plural"), as a JSON pointer. */
  private static final Map<String, String> TEMPLATES = Map.of(
      "/replicationcontrollers", "/spec/template",
      "/podtemplates", "/template",
      "apps/replicasets", "/spec/template",
      "apps/deployments", "/spec/template",
      "apps/statefulsets", "/spec/template",
      "apps/daemonsets", "/spec/template",
      "batch/jobs", "/spec/template",
      "batch/cronjobs", "/spec/jobTemplate/spec/template");

  private PodSpecExtractor() {
  }

  /** Whether {@code group}/{@code plural} embeds a pod template. */
  public static boolean hasPodSpec(String group, String plural) {
    return TEMPLATES.containsKey(group + "/" + plural);
  }

  /** The template of {@code object}, a {@code group}/{@code plural}; empty when it has none to check. */
  public static Optional<PodTemplate> extract(String group, String plural, JsonNode object) {
    String pointer = TEMPLATES.get(group + "/" + plural);
    if (pointer == null) {
      return Optional.empty();
    }
    JsonNode template = object.at(pointer);
    if (plural.equals("replicationcontrollers") && !Containers.set(template)) {
      return Optional.empty();
    }
    return Optional.of(new PodTemplate(template.path("metadata"), template.path("spec")));
  }
}
