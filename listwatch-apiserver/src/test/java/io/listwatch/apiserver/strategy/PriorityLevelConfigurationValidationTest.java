package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube 1.32's {@code ValidatePriorityLevelConfiguration} and the flowcontrol/v1 defaults: each
 * row a PriorityLevelConfiguration's name and spec (cases of kube's
 * {@code TestPriorityLevelConfigurationValidation}) and every cause of the create, or none; then
 * the kind through the core (create, get, update, {@code /status}, Table).
 */
class PriorityLevelConfigurationValidationTest {

  private static final String PLS = "/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations";
  private static final String PL = "{\"apiVersion\":\"flowcontrol.apiserver.k8s.io/v1\",\"kind\":\"PriorityLevelConfiguration\","
      + "\"metadata\":{\"name\":\"%s\"},\"spec\":%s}";
  private static final PriorityLevelConfigurationStrategy STRATEGY = new PriorityLevelConfigurationStrategy();
  private static final String SPEC_EXEMPT_BAD = "spec: Invalid value: flowcontrol.PriorityLevelConfigurationSpec{Type:\"Limited\", "
      + "Limited:(*flowcontrol.LimitedPriorityLevelConfiguration)(0xc000000000), Exempt:(*flowcontrol.ExemptPriorityLevelConfiguration)";

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      exempt         | {"type":"Exempt","exempt":{"nominalConcurrencyShares":0,"lendablePercent":0}} |
      exempt         | {"type":"Exempt"} |
      exempt         | {"type":"Exempt","exempt":{"nominalConcurrencyShares":-1,"lendablePercent":101}} | spec.exempt.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer ;; spec.exempt.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive
      exempt         | {"type":"Exempt","exempt":{"nominalConcurrencyShares":-1,"lendablePercent":-1}} | spec.exempt.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer ;; spec.exempt.lendablePercent: Invalid value: -1: must be between 0 and 100, inclusive
      exempt         | {"type":"Exempt","exempt":{"nominalConcurrencyShares":42,"lendablePercent":33}} |
      exempt         | {"type":"Limited","exempt":{},"limited":{"nominalConcurrencyShares":42,"limitResponse":{"type":"Reject"}}} | spec.type: Invalid value: "Limited": type must be 'Exempt' if and only if name is 'exempt' ;; spec.exempt: Forbidden: must be nil if the type is Limited ;; SPEC_EXEMPT_BAD(0xc000000000)}: spec of 'exempt' except the 'spec.exempt' field must equal the fixed value
      exempt         | {"type":"Exempt","limited":{"nominalConcurrencyShares":42,"limitResponse":{"type":"Reject"}}} | spec.limited: Forbidden: must be nil if the type is not Limited ;; spec: Invalid value: flowcontrol.PriorityLevelConfigurationSpec{Type:"Exempt", Limited:(*flowcontrol.LimitedPriorityLevelConfiguration)(0xc000000000), Exempt:(*flowcontrol.ExemptPriorityLevelConfiguration)(nil)}: spec of 'exempt' except the 'spec.exempt' field must equal the fixed value
      broken-limited | {"type":"Limited","exempt":{}} | spec.exempt: Forbidden: must be nil if the type is Limited ;; spec.limited: Required value: must not be empty when type is Limited
      broken-limited | {"type":"Limited"} | spec.limited: Required value: must not be empty when type is Limited
      broken-limited | {"type":"Fast"} | spec.type: Unsupported value: "Fast": supported values: "Exempt", "Limited"
      max-in-flight  | {"type":"Limited","limited":{"nominalConcurrencyShares":42,"limitResponse":{"type":"Reject"}}} |
      jail           | {"type":"Limited","limited":{"nominalConcurrencyShares":0,"limitResponse":{"type":"Reject"}}} |
      system-foo     | {"type":"Limited","limited":{"nominalConcurrencyShares":-1,"lendablePercent":101,"borrowingLimitPercent":-1,"limitResponse":{"type":"Reject"}}} | spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer ;; spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive ;; spec.limited.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer
      system-foo     | {"type":"Limited","limited":{"nominalConcurrencyShares":100,"limitResponse":{"type":"Reject","queuing":{"queues":512,"handSize":4,"queueLengthLimit":100}}}} | spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited
      system-foo     | {"type":"Limited","limited":{"nominalConcurrencyShares":100,"limitResponse":{"type":"Queue"}}} | spec.limited.limitResponse.queuing: Required value: must not be empty if limited.limitResponse.type is Limited
      system-foo     | {"type":"Limited","limited":{"limitResponse":{"type":"Drop"}}} | spec.limited.limitResponse.type: Unsupported value: "Drop": supported values: "Queue", "Reject"
      system-foo     | {"type":"Limited","limited":{"nominalConcurrencyShares":100,"limitResponse":{"type":"Queue","queuing":{"queues":512,"handSize":4,"queueLengthLimit":100}}}} |
      system-foo     | {"type":"Limited","limited":{"nominalConcurrencyShares":100,"limitResponse":{"type":"Queue","queuing":{"queues":512,"handSize":8,"queueLengthLimit":100}}}} | spec.limited.limitResponse.queuing.handSize: Invalid value: 8: required entropy bits of deckSize 512 and handSize 8 should not be greater than 60
      system-foo     | {"type":"Limited","limited":{"nominalConcurrencyShares":100,"limitResponse":{"type":"Queue","queuing":{"queues":128,"handSize":10,"queueLengthLimit":100}}}} | spec.limited.limitResponse.queuing.handSize: Invalid value: 10: required entropy bits of deckSize 128 and handSize 10 should not be greater than 60
      system-foo     | {"type":"Limited","limited":{"nominalConcurrencyShares":100,"limitResponse":{"type":"Queue","queuing":{"queues":2147483647,"handSize":3,"queueLengthLimit":100}}}} | spec.limited.limitResponse.queuing.queues: Invalid value: 2147483647: must not be greater than 10000000 ;; spec.limited.limitResponse.queuing.handSize: Invalid value: 3: required entropy bits of deckSize 2147483647 and handSize 3 should not be greater than 60
      system-foo     | {"type":"Limited","limited":{"nominalConcurrencyShares":100,"limitResponse":{"type":"Queue","queuing":{"queues":10000000,"handSize":2,"queueLengthLimit":100}}}} |
      system-foo     | {"type":"Limited","limited":{"nominalConcurrencyShares":100,"limitResponse":{"type":"Queue","queuing":{"queues":7,"handSize":8,"queueLengthLimit":100}}}} | spec.limited.limitResponse.queuing.handSize: Invalid value: 8: should not be greater than queues (7)
      system-foo     | {"type":"Limited","limited":{"nominalConcurrencyShares":100,"limitResponse":{"type":"Queue","queuing":{"queues":-1,"handSize":-2,"queueLengthLimit":-3}}}} | spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: -3: must be positive ;; spec.limited.limitResponse.queuing.queues: Invalid value: -1: must be positive ;; spec.limited.limitResponse.queuing.handSize: Invalid value: -2: must be positive
      catch-all      | {"type":"Limited","limited":{"nominalConcurrencyShares":5,"lendablePercent":0,"limitResponse":{"type":"Reject"}}} |
      catch-all      | {"type":"Limited","limited":{"nominalConcurrencyShares":5,"limitResponse":{"type":"Reject"}}} |
      catch-all      | {"type":"Limited","limited":{"nominalConcurrencyShares":42,"limitResponse":{"type":"Reject"}}} | spec: Invalid value: flowcontrol.PriorityLevelConfigurationSpec{Type:"Limited", Limited:(*flowcontrol.LimitedPriorityLevelConfiguration)(0xc000000000), Exempt:(*flowcontrol.ExemptPriorityLevelConfiguration)(nil)}: spec of 'catch-all' must equal the fixed value
      system-foo     | {"type":"Exempt"} | spec.type: Invalid value: "Exempt": type must be 'Exempt' if and only if name is 'exempt'
      """)
  void create(String name, String spec, String causes) {
    List<String> expected = causes == null ? List.of()
        : List.of(causes.replace("SPEC_EXEMPT_BAD", SPEC_EXEMPT_BAD).split(" ;; "));
    assertThat(StrategyCases.create(STRATEGY, PL.formatted(name, spec))).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void roundTripAnnotation_isForbidden() {
    String pl = "{\"metadata\":{\"name\":\"with-forbidden-annotation\",\"annotations\":"
        + "{\"flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares\":\"\"}},"
        + "\"spec\":{\"type\":\"Limited\",\"limited\":{\"nominalConcurrencyShares\":42,\"limitResponse\":{\"type\":\"Reject\"}}}}";
    assertThat(StrategyCases.create(STRATEGY, pl)).containsExactly("metadata.annotations: Forbidden: annotation "
        + "'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares' is forbidden");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      [] |
      [{"type":"ConcurrencyShared","status":"True"},{"type":"Other"}] |
      [{"type":"ConcurrencyShared"},{"type":"ConcurrencyShared"}] | status.conditions[1].type: Duplicate value: "ConcurrencyShared"
      [{"status":"True"}] | status.conditions[0].type: Required value: must not be empty
      """)
  void statusUpdate(String conditions, String causes) {
    try (InMemoryCore core = InMemoryCore.start()) {
      core.send("POST", PLS, Map.of(), PL.formatted("max-in-flight", "{\"type\":\"Limited\",\"limited\":{\"limitResponse\":{\"type\":\"Reject\"}}}"));
      ObjectNode stored = StrategyCases.body(core.send("GET", PLS + "/max-in-flight", Map.of(), null));
      stored.putObject("status").set("conditions", InMemoryCore.json("{\"c\":" + conditions + "}").get("c"));
      if (causes == null) {
        ObjectNode updated = StrategyCases.body(core.send("PUT", PLS + "/max-in-flight/status", Map.of(), stored.toString()));
        assertThat(updated.path("status").path("conditions").size()).isEqualTo(stored.path("status").path("conditions").size());
        return;
      }
      StatusException e = core.refusal("PUT", PLS + "/max-in-flight/status", Map.of(), stored.toString());
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.status().details().causes()).extracting(c -> c.field() + ": " + c.message())
          .containsExactlyElementsOf(List.of(causes.split(" ;; ")));
    }
  }

  @Test
  void createGetUpdate_throughTheCore_defaultsAndBumpsTheGeneration() {
    try (InMemoryCore core = InMemoryCore.start()) {
      ObjectNode created = StrategyCases.body(core.send("POST", PLS, Map.of(), PL.formatted("workload",
          "{\"type\":\"Limited\",\"limited\":{\"limitResponse\":{\"type\":\"Queue\",\"queuing\":{}}}}")));
      assertThat(created.path("spec")).isEqualTo(InMemoryCore.json("{\"type\":\"Limited\",\"limited\":"
          + "{\"nominalConcurrencyShares\":30,\"lendablePercent\":0,"
          + "\"limitResponse\":{\"type\":\"Queue\",\"queuing\":{\"handSize\":8,\"queues\":64,\"queueLengthLimit\":50}}}}"));
      assertThat(created.path("metadata").path("generation").asLong()).isEqualTo(1);

      ObjectNode got = StrategyCases.body(core.send("GET", PLS + "/workload", Map.of(), null));
      assertThat(got.path("spec")).isEqualTo(created.path("spec"));
      ((ObjectNode) got.path("spec").path("limited")).put("nominalConcurrencyShares", 10);
      ObjectNode updated = StrategyCases.body(core.send("PUT", PLS + "/workload", Map.of(), got.toString()));
      assertThat(updated.path("spec").path("limited").path("nominalConcurrencyShares").asInt()).isEqualTo(10);
      assertThat(updated.path("metadata").path("generation").asLong()).isEqualTo(2);

      ((ObjectNode) updated.path("spec").path("limited")).put("lendablePercent", 200);
      StatusException e = core.refusal("PUT", PLS + "/workload", Map.of(), updated.toString());
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.status().details().causes()).extracting(c -> c.field() + ": " + c.message())
          .containsExactly("spec.limited.lendablePercent: Invalid value: 200: must be between 0 and 100, inclusive");
    }
  }
}
