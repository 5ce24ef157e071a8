package io.listwatch.apiserver.printers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** PriorityLevelConfigurations and FlowSchemas (kube's printFlowSchema and printPriorityLevelConfiguration). */
class FlowcontrolTableConvertorsTest {

  @Test
  void priorityLevelConfiguration_showsLimitedSharesAndQueuing_orNone() {
    PriorityLevelConfigurationTableConvertor c = new PriorityLevelConfigurationTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Type:string", "NominalConcurrencyShares:string",
        "Queues:string", "HandSize:string", "QueueLengthLimit:string", "Age:string");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"workload-low","creationTimestamp":"2026-01-01T11:55:00Z"},
         "spec":{"type":"Limited","limited":{"nominalConcurrencyShares":100,
          "limitResponse":{"type":"Queue","queuing":{"queues":128,"handSize":6,"queueLengthLimit":50}}}}}
        """)).containsExactly("workload-low", "Limited", 100L, 128L, 6L, 50L, "5m");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"catch-all\"},\"spec\":{\"type\":\"Limited\","
        + "\"limited\":{\"nominalConcurrencyShares\":5,\"limitResponse\":{\"type\":\"Reject\"}}}}"))
        .containsExactly("catch-all", "Limited", 5L, "<none>", "<none>", "<none>", "<unknown>");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"exempt\"},\"spec\":{\"type\":\"Exempt\",\"exempt\":{}}}"))
        .containsExactly("exempt", "Exempt", "<none>", "<none>", "<none>", "<none>", "<unknown>");
  }

  @Test
  void flowSchema_showsLevelPrecedenceMethod_andTheDanglingConditionAsMissingPL() {
    FlowSchemaTableConvertor c = new FlowSchemaTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "PriorityLevel:string", "MatchingPrecedence:string",
        "DistinguisherMethod:string", "Age:string", "MissingPL:string");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"catch-all","creationTimestamp":"2026-01-01T11:55:00Z"},
         "spec":{"priorityLevelConfiguration":{"name":"catch-all"},"matchingPrecedence":10000,
          "distinguisherMethod":{"type":"ByUser"}},
         "status":{"conditions":[{"type":"Other","status":"True"},{"type":"Dangling","status":"False"}]}}
        """)).containsExactly("catch-all", "catch-all", 10000L, "ByUser", "5m", "False");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"exempt\"},\"spec\":{\"priorityLevelConfiguration\":"
        + "{\"name\":\"exempt\"},\"matchingPrecedence\":1}}"))
        .containsExactly("exempt", "exempt", 1L, "<none>", "<unknown>", "?");
  }
}
