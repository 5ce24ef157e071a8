package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.StrategyCases.causes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** kube's {@code TestValidateResourceQuota} and {@code ...Update} cases. */
class ResourceQuotaValidationTest {

  private static final String RQ = "{\"apiVersion\":\"v1\",\"kind\":\"ResourceQuota\",\"metadata\":{\"name\":\"q\"},%s}";

  private final ResourceQuotaStrategy strategy = new ResourceQuotaStrategy();

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"hard":{"cpu":"100","memory":"10000","requests.cpu":"100","pods":"5","example.com/dongle":"10","requests.hugepages-2Mi":"10Mi","gold.storageclass.storage.k8s.io/requests.storage":"10Gi"}} |
      {"hard":{"cpu":"-10"}}                             | spec.hard[cpu]: Invalid value: "-10": must be greater than or equal to 0
      {"hard":{"pods":"1500m"}}                          | spec.hard[pods]: Invalid value: "1500m": must be an integer
      {"hard":{"example.com/dongle":"1.5"}}              | spec.hard[example.com/dongle]: Invalid value: "1.5": must be an integer
      {"hard":{"storage":"10Gi"}}                        | spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota
      {"hard":{"foo":"1"}}                               | spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified; spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota
      {"hard":{"pods":"10"},"scopes":["BestEffort"]}     |
      {"hard":{"cpu":"10"},"scopes":["BestEffort"]}      | spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: unsupported scope applied to resource
      {"hard":{"pods":"1"},"scopes":["Bogus"]}           | spec.scopes: Invalid value: []core.ResourceQuotaScope{"Bogus"}: unsupported scope
      {"hard":{"pods":"1"},"scopes":["BestEffort","NotBestEffort"]} | spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}: conflicting scopes
      {"hard":{"pods":"1"},"scopes":["Terminating","NotTerminating"]} | spec.scopes: Invalid value: []core.ResourceQuotaScope{"Terminating", "NotTerminating"}: conflicting scopes
      {"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"In","values":["high"]}]}} |
      {"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"In"}]}} | spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector
      {"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"BestEffort","operator":"In","values":["x"]}]}} | spec.scopeSelector.matchExpressions.operator: Invalid value: "In": must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity
      {"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"Exists","values":["x"]}]}} | spec.scopeSelector.matchExpressions.values: Invalid value: []string{"x"}: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector
      {"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"Gt"}]}} | spec.scopeSelector.matchExpressions.operator: Invalid value: "Gt": not a valid selector operator
      {"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"Bogus","operator":"Exists"}]}} | spec.scopeSelector.matchExpressions.scopeName: Invalid value: "Bogus": unsupported scope
      """)
  void spec(String spec, String causes) {
    assertThat(causes(strategy, "{\"spec\":" + spec + "}"))
        .containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split("; ")));
  }

  @Test
  void update_scopesAreImmutable() {
    assertThat(causes(strategy, "{\"spec\":{\"hard\":{\"pods\":\"2\"},\"scopes\":[\"NotTerminating\"]}}",
        "{\"spec\":{\"hard\":{\"pods\":\"1\"},\"scopes\":[\"Terminating\"]}}"))
        .containsExactly("spec.scopes: Invalid value: []core.ResourceQuotaScope{\"NotTerminating\"}: field is immutable");
    assertThat(causes(strategy, "{\"spec\":{\"hard\":{\"pods\":\"2\"},\"scopes\":[\"Terminating\"]}}",
        "{\"spec\":{\"hard\":{\"pods\":\"1\"},\"scopes\":[\"Terminating\"]}}")).isEmpty();
  }

  @Test
  void endToEnd_statusOnlyThroughStatus_andValidatedThere() {
    try (InMemoryCore core = InMemoryCore.start()) {
      ObjectNode created = StrategyCases.body(core.send("POST", "/api/v1/namespaces/default/resourcequotas", Map.of(),
          RQ.formatted("\"spec\":{\"hard\":{\"pods\":\"10\"}},\"status\":{\"used\":{\"pods\":\"3\"}}")));
      assertThat(created.has("status") && created.path("status").has("used")).isFalse();

      ObjectNode main = StrategyCases.body(core.send("PUT", "/api/v1/namespaces/default/resourcequotas/q", Map.of(),
          RQ.formatted("\"spec\":{\"hard\":{\"pods\":\"10\"}},\"status\":{\"used\":{\"pods\":\"3\"}}")));
      // the client's status is not taken (the quota controller may have measured it meanwhile: 0 pods)
      assertThat(main.path("status").path("used").path("pods").asText("")).isNotEqualTo("3");

      ObjectNode status = StrategyCases.body(core.send("PUT", "/api/v1/namespaces/default/resourcequotas/q/status", Map.of(),
          RQ.formatted("\"spec\":{\"hard\":{\"pods\":\"99\"}},\"status\":{\"hard\":{\"pods\":\"10\"},\"used\":{\"pods\":\"3\"}}")));
      assertThat(status.path("status").path("used").path("pods").asText()).isEqualTo("3");
      assertThat(status.path("spec").path("hard").path("pods").asText()).isEqualTo("10");

      StatusException bad = core.refusal("PUT", "/api/v1/namespaces/default/resourcequotas/q/status", Map.of(),
          RQ.formatted("\"spec\":{\"hard\":{\"pods\":\"10\"}},\"status\":{\"used\":{\"pods\":\"-1\"}}"));
      assertThat(bad.getMessage()).isEqualTo(
          "ResourceQuota \"q\" is invalid: status.used[pods]: Invalid value: \"-1\": must be greater than or equal to 0");
    }
  }
}
