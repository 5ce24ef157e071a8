package io.listwatch.api.meta;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ConditionsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant T1 = Instant.parse("2026-01-01T00:00:00.700Z");
  private static final Instant T2 = Instant.parse("2026-01-01T00:05:00Z");

  private static ObjectNode object(String json) throws Exception {
    return (ObjectNode) JSON.readTree(json);
  }

  @Test
  void aNewCondition_isAdded_withTheTimeInWholeSeconds() throws Exception {
    ObjectNode o = object("{\"metadata\":{\"name\":\"x\"}}");
    Conditions.set(o, "Established", "True", "InitialNamesAccepted", "accepted", T1);
    assertThat(o.path("status").path("conditions").toString()).isEqualTo("[{\"type\":\"Established\","
        + "\"lastTransitionTime\":\"2026-01-01T00:00:00Z\",\"status\":\"True\",\"reason\":\"InitialNamesAccepted\","
        + "\"message\":\"accepted\"}]");
  }

  @Test
  void theSameStatus_keepsItsTransitionTime_butTakesTheNewReasonAndMessage() throws Exception {
    ObjectNode o = object("{\"status\":{\"conditions\":[{\"type\":\"A\",\"status\":\"False\"},"
        + "{\"type\":\"Dangling\",\"status\":\"True\",\"lastTransitionTime\":\"2025-01-01T00:00:00Z\","
        + "\"reason\":\"NotFound\",\"message\":\"old\"}]}}");
    Conditions.set(o, "Dangling", "True", "NotFound", "new", T2);
    assertThat(o.at("/status/conditions/1/lastTransitionTime").asText()).isEqualTo("2025-01-01T00:00:00Z");
    assertThat(o.at("/status/conditions/1/message").asText()).isEqualTo("new");
    assertThat(o.at("/status/conditions/0").toString()).isEqualTo("{\"type\":\"A\",\"status\":\"False\"}");
  }

  @Test
  void aChangedStatus_movesTheTransitionTime() throws Exception {
    ObjectNode o = object("{\"status\":{\"conditions\":[{\"type\":\"Dangling\",\"status\":\"True\","
        + "\"lastTransitionTime\":\"2025-01-01T00:00:00Z\",\"reason\":\"NotFound\",\"message\":\"m\"}]}}");
    Conditions.set(o, "Dangling", "False", "Found", "exists", T2);
    assertThat(o.at("/status/conditions/0").toString()).isEqualTo("{\"type\":\"Dangling\",\"status\":\"False\","
        + "\"lastTransitionTime\":\"2026-01-01T00:05:00Z\",\"reason\":\"Found\",\"message\":\"exists\"}");
  }
}
