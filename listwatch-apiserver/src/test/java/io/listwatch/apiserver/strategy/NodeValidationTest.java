package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.StrategyCases.causes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** kube's {@code TestValidateNode}, {@code TestValidateNodeUpdate} and taint cases. */
class NodeValidationTest {

  private final NodeStrategy strategy = new NodeStrategy();

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"taints":[{"key":"k","value":"v","effect":"NoSchedule"},{"key":"k","effect":"NoExecute"}]}  |
      {"taints":[{"key":"-k","effect":"NoSchedule"}]}                     | metadata.taints[0].key: Invalid value: "-k": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
      {"taints":[{"key":"k","value":"v v","effect":"NoSchedule"}]}        | metadata.taints[0].value: Invalid value: "v v": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')
      {"taints":[{"key":"k"}]}                                            | metadata.taints[0].effect: Required value
      {"taints":[{"key":"k","effect":"NoScheduleNoAdmit"}]}               | metadata.taints[0].effect: Unsupported value: "NoScheduleNoAdmit": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"
      {"taints":[{"key":"k","value":"a","effect":"NoSchedule"},{"key":"k","value":"b","effect":"NoSchedule"}]} | metadata.taints[1]: Duplicate value: core.Taint{Key:"k", Value:"b", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair
      {"podCIDRs":["10.0.0.0/24"]}                                        |
      {"podCIDRs":["10.0.0.0/24","fd00::/64"]}                            |
      {"podCIDR":"10.0.0.0/33"}                                           | spec.podCIDRs[0]: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)
      {"podCIDRs":["192.168.1.1"]}                                        | spec.podCIDRs[0]: Invalid value: "192.168.1.1": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)
      {"podCIDRs":["10.0.0.0/24","10.1.0.0/24"]}                          | spec.podCIDRs: Invalid value: []string{"10.0.0.0/24", "10.1.0.0/24"}: may specify no more than one CIDR for each IP family
      {"podCIDRs":["10.0.0.0/24","10.0.0.0/24"]}                          | spec.podCIDRs: Invalid value: []string{"10.0.0.0/24", "10.0.0.0/24"}: may specify no more than one CIDR for each IP family; spec.podCIDRs[1]: Duplicate value: "10.0.0.0/24"
      {"podCIDRs":["10.0.0.0/24","fd00::/64","fd01::/64"]}                | spec.podCIDRs: Invalid value: []string{"10.0.0.0/24", "fd00::/64", "fd01::/64"}: may specify no more than one CIDR for each IP family
      """)
  void spec(String spec, String causes) {
    assertThat(causes(strategy, "{\"spec\":" + spec + "}"))
        .containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split("; ")));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"capacity":{"cpu":"4","pods":"110"}}     |
      {"capacity":{"memory":"-1"}}              | status.capacity.memory: Invalid value: "-1": must be greater than or equal to 0
      {"allocatable":{"pods":"1500m"}}          | status.allocatable.pods: Invalid value: "1500m": must be an integer
      """)
  void status(String status, String cause) {
    assertThat(causes(strategy, "{\"status\":" + status + "}"))
        .containsExactlyElementsOf(cause == null ? List.of() : List.of(cause));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"spec":{}}                                  | {"spec":{"podCIDRs":["10.0.0.0/24"],"providerID":"p"}}  |
      {"spec":{"podCIDRs":["10.0.0.0/24"]}}        | {"spec":{"podCIDRs":["10.0.1.0/24"]}}                   | spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid
      {"spec":{"podCIDRs":["10.0.0.0/24"]}}        | {"spec":{}}                                             | spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid
      {"spec":{"providerID":"a"}}                  | {"spec":{"providerID":"b"}}                             | spec.providerID: Forbidden: node updates may not change providerID except from "" to valid
      {"spec":{"externalID":"a"}}                  | {"spec":{"externalID":"b"}}                             | spec.externalID: Forbidden: may not be updated
      {"spec":{"unschedulable":false}}             | {"spec":{"unschedulable":true,"taints":[{"key":"k","effect":"NoSchedule"}]}} |
      {"status":{}}                                | {"status":{"addresses":[{"type":"InternalIP","address":"1.2.3.4"},{"type":"InternalIP","address":"1.2.3.4"}]}} | status.addresses[1]: Duplicate value: core.NodeAddress{Type:"InternalIP", Address:"1.2.3.4"}
      """)
  void update(String old, String updated, String cause) {
    assertThat(causes(strategy, updated, old)).containsExactlyElementsOf(cause == null ? List.of() : List.of(cause));
  }

  @Test
  void configSource_isDroppedOnCreate_andOnUpdateUnlessStored() {
    ObjectNode created = InMemoryCore.json("{\"spec\":{\"configSource\":{}},\"status\":{\"config\":{}}}");
    strategy.prepareForCreate(created, Instant.EPOCH);
    assertThat(created).isEqualTo(InMemoryCore.json("{\"spec\":{},\"status\":{}}"));

    ObjectNode updated = InMemoryCore.json("{\"spec\":{\"configSource\":{}}}");
    strategy.prepareForUpdate(updated, InMemoryCore.json("{\"spec\":{}}"));
    assertThat(updated).isEqualTo(InMemoryCore.json("{\"spec\":{}}"));

    String stored = "{\"spec\":{\"configSource\":{\"configMap\":{\"namespace\":\"kube-system\",\"name\":\"c\",\"kubeletConfigKey\":\"k\"}}}}";
    assertThat(causes(strategy, "{\"spec\":{\"configSource\":{\"configMap\":{\"uid\":\"u\"}}}}", stored)).containsExactly(
        "spec.configSource.configMap.uid: Forbidden: uid must not be set in spec",
        "spec.configSource.configMap.namespace: Required value: namespace must be set",
        "spec.configSource.configMap.name: Required value: name must be set",
        "spec.configSource.configMap.kubeletConfigKey: Required value: kubeletConfigKey must be set");
    assertThat(causes(strategy, "{\"spec\":{\"configSource\":{}}}", stored))
        .containsExactly("spec.configSource: Invalid value: \"\": exactly one reference subfield must be non-nil");
  }

  @Test
  void endToEnd_badTaint_andStatusKeptOnMainUpdates() {
    try (InMemoryCore core = InMemoryCore.start()) {
      StatusException e = core.refusal("POST", "/api/v1/nodes", Map.of(),
          "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":\"Bad\"}]}}");
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("Node \"n\" is invalid: metadata.taints[0].effect: Unsupported value: \"Bad\": "
          + "supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"");

      core.send("POST", "/api/v1/nodes", Map.of(), "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},"
          + "\"status\":{\"capacity\":{\"pods\":\"110\"}}}");
      ObjectNode updated = StrategyCases.body(core.send("PUT", "/api/v1/nodes/n", Map.of(),
          "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"spec\":{\"unschedulable\":true},"
              + "\"status\":{\"capacity\":{\"pods\":\"1\"}}}"));
      assertThat(updated.path("spec").path("unschedulable").asBoolean()).isTrue();
      assertThat(updated.path("status").path("capacity").path("pods").asText()).isEqualTo("110");
    }
  }

  @Test
  void endToEnd_statusWrites_keepTheSpec_dropConfig_andAreValidated() {
    try (InMemoryCore core = InMemoryCore.start()) {
      String node = "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"spec\":{%s},\"status\":{%s}}";
      core.send("POST", "/api/v1/nodes", Map.of(), node.formatted("\"podCIDR\":\"10.0.0.0/24\"", ""));
      ObjectNode status = StrategyCases.body(core.send("PUT", "/api/v1/nodes/n/status", Map.of(),
          node.formatted("\"unschedulable\":true", "\"capacity\":{\"pods\":\"110\"},\"config\":{\"error\":\"x\"}")));
      assertThat(status.path("spec").path("podCIDR").asText()).isEqualTo("10.0.0.0/24");
      assertThat(status.path("spec").has("unschedulable")).isFalse();
      assertThat(status.path("status").path("capacity").path("pods").asText()).isEqualTo("110");
      assertThat(status.path("status").has("config")).isFalse();

      StatusException bad = core.refusal("PUT", "/api/v1/nodes/n/status", Map.of(),
          node.formatted("", "\"capacity\":{\"pods\":\"-1\"}"));
      assertThat(bad.getMessage()).isEqualTo("Node \"n\" is invalid: status.capacity.pods: Invalid value: \"-1\": must be greater than or equal to 0");
    }
  }
}
