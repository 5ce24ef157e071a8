package io.listwatch.apiserver.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.LabelSelector;
import io.listwatch.apiserver.apiextensions.cel.MatchConditionPrograms;
import java.util.ArrayList;
import java.util.List;

/**
 * One webhook of a Mutating- or ValidatingWebhookConfiguration, as the dispatcher uses it (kube's
 * {@code WebhookAccessor}). Fields a stored configuration always has (the server defaults them on
 * write) are defaulted here too, as kube's v1 defaults say, so a configuration read from anywhere
 * is safe to use.
 *
 * @param uid kube's {@code <configuration>/<webhook>/<index>}: what reinvocation remembers
 * @param configurationName the configuration's name
 * @param name the webhook's name
 * @param rules its rules
 * @param failurePolicy {@code Fail} or {@code Ignore}
 * @param matchPolicy {@code Equivalent} or {@code Exact}
 * @param namespaceSelector what the namespace's labels must match
 * @param objectSelector what the object's (or old object's) labels must match
 * @param sideEffects {@code None}, {@code NoneOnDryRun}, {@code Some}, {@code Unknown}, or null when unset
 * @param timeoutSeconds how long a call may take
 * @param reinvocationPolicy {@code Never} or {@code IfNeeded} (mutating webhooks)
 * @param clientConfig the {@code clientConfig} JSON
 * @param matchConditions its compiled match conditions
 */
record AdmissionWebhook(String uid, String configurationName, String name, List<Rule> rules, String failurePolicy,
    String matchPolicy, LabelSelector namespaceSelector, LabelSelector objectSelector, String sideEffects,
    int timeoutSeconds, String reinvocationPolicy, JsonNode clientConfig, MatchConditionPrograms matchConditions) {

  /** One {@code RuleWithOperations}; {@code scope} "*" when unset. */
  record Rule(List<String> operations, List<String> apiGroups, List<String> apiVersions, List<String> resources,
      String scope) {

    static Rule of(JsonNode rule) {
      return new Rule(strings(rule.path("operations")), strings(rule.path("apiGroups")),
          strings(rule.path("apiVersions")), strings(rule.path("resources")), rule.path("scope").asText("*"));
    }
  }

  /** Whether a failed call lets the write through. */
  boolean ignoresFailures() {
    return "Ignore".equals(failurePolicy);
  }

  /** The webhooks of one configuration, in order. */
  static List<AdmissionWebhook> of(JsonNode configuration) {
    String configName = configuration.path("metadata").path("name").asText("");
    List<AdmissionWebhook> hooks = new ArrayList<>();
    int i = 0;
    for (JsonNode w : configuration.path("webhooks")) {
      String name = w.path("name").asText("");
      List<Rule> rules = new ArrayList<>();
      w.path("rules").forEach(r -> rules.add(Rule.of(r)));
      hooks.add(new AdmissionWebhook(configName + "/" + name + "/" + i++, configName, name, List.copyOf(rules),
          w.path("failurePolicy").asText("Fail"), w.path("matchPolicy").asText("Equivalent"),
          selector(w.path("namespaceSelector")), selector(w.path("objectSelector")),
          w.hasNonNull("sideEffects") ? w.get("sideEffects").asText() : null,
          w.path("timeoutSeconds").asInt(10), w.path("reinvocationPolicy").asText("Never"),
          w.path("clientConfig"), MatchConditionPrograms.compile(w.path("matchConditions"))));
    }
    return List.copyOf(hooks);
  }

  private static LabelSelector selector(JsonNode selector) {
    return selector.isObject() ? LabelSelector.fromObject(selector) : LabelSelector.everything();
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(s -> out.add(s.asText()));
    return List.copyOf(out);
  }
}
