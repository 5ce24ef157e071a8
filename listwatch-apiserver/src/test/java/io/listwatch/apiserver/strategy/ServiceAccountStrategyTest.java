package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.InMemoryCore;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** kube's ServiceAccount strategy: secret references keep only their name; nothing else is validated. */
class ServiceAccountStrategyTest {

  @Test
  void secretReferences_keepOnlyTheirName_onCreateAndUpdate() {
    try (InMemoryCore core = InMemoryCore.start()) {
      ObjectNode created = StrategyCases.body(core.send("POST", "/api/v1/namespaces/default/serviceaccounts", Map.of(),
          "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":\"sa\"},"
              + "\"secrets\":[{\"name\":\"s\",\"namespace\":\"x\",\"uid\":\"u\"}],\"imagePullSecrets\":[{\"name\":\"Not_A_Name\"}]}"));
      assertThat(created.path("secrets")).isEqualTo(InMemoryCore.json("{\"a\":[{\"name\":\"s\"}]}").path("a"));
      assertThat(created.path("imagePullSecrets").get(0).path("name").asText()).isEqualTo("Not_A_Name");

      ObjectNode updated = StrategyCases.body(core.send("PUT", "/api/v1/namespaces/default/serviceaccounts/sa", Map.of(),
          "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":\"sa\"},"
              + "\"secrets\":[{\"name\":\"t\",\"kind\":\"Secret\"}]}"));
      assertThat(updated.path("secrets")).isEqualTo(InMemoryCore.json("{\"a\":[{\"name\":\"t\"}]}").path("a"));
    }
  }
}
