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
 * CSINodes: kube 1.32's {@code ValidateCSINode} and {@code ValidateCSINodeUpdate}, from the cases
 * of kube's {@code TestCSINodeValidation} and {@code TestCSINodeUpdateValidation} (each row the
 * drivers of a node, and every cause kube gives, or none).
 */
class CSINodeValidationTest {

  private static final String QUALIFIED = "name part must consist of alphanumeric characters, '-', '_' or '.', and "
      + "must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
      + "for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

  private final CSINodeStrategy strategy = new CSINodeStrategy();

  private static String node(String drivers) {
    return "{\"metadata\":{\"name\":\"foo1\"},\"spec\":{\"drivers\":[" + drivers + "]}}";
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"name":"io.kubernetes.storage.csi.driver","nodeID":"nodeA","topologyKeys":["company.com/zone1","company.com/zone2"]} |
      {"name":"io-kubernetes-storage-csi-driver","nodeID":"nodeA"} |
      {"name":"1io-kubernetes-storage-2-csi-driver3","nodeID":"nodeA","allocatable":{"count":0}} |
      {"name":"io.kubernetes.storage.csi.driver","nodeID":"io.kubernetes.storage.csi.driver","topologyKeys":[]},{"name":"io.kubernetes.storage.csi.driver2","nodeID":"nodeA"} |
      {"name":"driver","nodeID":"@!#$%^&*()"} |
      {"name":"io.kubernetes.storage.csi.driver","nodeID":"nodeA"},{"name":"io.kubernetes.storage.csi.driver","nodeID":"nodeB"} | spec.drivers[1].name: Duplicate value: "io.kubernetes.storage.csi.driver"
      {"name":"io.kubernetes.storage.csi.driver","nodeID":""} | spec.drivers[0].nodeID: Required value
      {"name":"io.kubernetes.storage.csi.driver","nodeID":"nodeA","allocatable":{"count":-1}} | spec.drivers[0].allocatable.count: Invalid value: -1: must be greater than or equal to 0
      {"name":"io.kubernetes.storage.csi.driver","nodeID":"nodeA","topologyKeys":["company.com/zone1","company.com/zone1"]} | spec.drivers[0]: Duplicate value: "company.com/zone1"
      {"name":"io.kubernetes.storage.csi.driver","nodeID":"nodeA","topologyKeys":["company.com/zone1",""]} | spec.drivers[0]: Required value; spec.drivers[0]: Invalid value: "": name part must be non-empty; spec.drivers[0]: Invalid value: "": QUALIFIED
      {"name":"","nodeID":"nodeA"} | spec.drivers[0].name: Required value; spec.drivers[0].name: Invalid value: "": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
      {"name":"io.kubernetes.storage.csi.driver-with-a-name-that-is-longer-than-sixty-three-characters","nodeID":"nodeA"} | spec.drivers[0].name: Too long: may not be more than 63 bytes
      """)
  void create(String drivers, String causes) {
    assertThat(StrategyCases.create(strategy, node(drivers))).containsExactlyElementsOf(
        causes == null ? List.of() : List.of(causes.replace("QUALIFIED", QUALIFIED).split("; ")));
  }

  @Test
  void create_nodeIdUpTo256Characters() {
    String id256 = "a".repeat(256);
    assertThat(StrategyCases.create(strategy, node("{\"name\":\"d\",\"nodeID\":\"" + id256 + "\"}"))).isEmpty();
    assertThat(StrategyCases.create(strategy, node("{\"name\":\"d\",\"nodeID\":\"" + id256 + "b\"}")))
        .containsExactly("spec.drivers[0].nodeID: Invalid value: \"" + id256 + "b\": must be 256 characters or less");
  }

  private static final String OLD = node("{\"name\":\"io.kubernetes.storage.csi.driverA\",\"nodeID\":\"nodeA\","
      + "\"topologyKeys\":[\"company.com/zone1\",\"company.com/zone2\"]},{\"name\":\"io.kubernetes.storage.csi.driverB\","
      + "\"nodeID\":\"nodeA\",\"topologyKeys\":[\"company.com/zone1\"]}");

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"name":"io.kubernetes.storage.csi.driverA","nodeID":"nodeA","topologyKeys":["company.com/zone1","company.com/zone2"]},{"name":"io.kubernetes.storage.csi.driverB","nodeID":"nodeA","topologyKeys":["company.com/zone1"]},{"name":"io.kubernetes.storage.csi.driverC","nodeID":"nodeA"} |
      {"name":"io.kubernetes.storage.csi.driverB","nodeID":"nodeA","topologyKeys":["company.com/zone1"]} |
      {"name":"io.kubernetes.storage.csi.driverA","nodeID":"nodeB","topologyKeys":["company.com/zone1","company.com/zone2"]} | CSINodeDriver: Invalid value: storage.CSINodeDriver{Name:"io.kubernetes.storage.csi.driverA", NodeID:"nodeB", TopologyKeys:[]string{"company.com/zone1", "company.com/zone2"}, Allocatable:(*storage.VolumeNodeResources)(nil)}: field is immutable
      {"name":"io.kubernetes.storage.csi.driverB","nodeID":"nodeA","topologyKeys":["company.com/zone2"]} | CSINodeDriver: Invalid value: storage.CSINodeDriver{Name:"io.kubernetes.storage.csi.driverB", NodeID:"nodeA", TopologyKeys:[]string{"company.com/zone2"}, Allocatable:(*storage.VolumeNodeResources)(nil)}: field is immutable
      {"name":"io.kubernetes.storage.csi.driverB","nodeID":"nodeA","topologyKeys":["company.com/zone1"],"allocatable":{"count":5}} | CSINodeDriver: Invalid value: storage.CSINodeDriver{Name:"io.kubernetes.storage.csi.driverB", NodeID:"nodeA", TopologyKeys:[]string{"company.com/zone1"}, Allocatable:(*storage.VolumeNodeResources)(0xc000000000)}: field is immutable
      """)
  void update(String drivers, String causes) {
    assertThat(StrategyCases.update(strategy, OLD, node(drivers)))
        .containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split("; ")));
  }

  @Test
  void endToEnd_createGetUpdate() {
    try (InMemoryCore core = InMemoryCore.start()) {
      String path = "/apis/storage.k8s.io/v1/csinodes";
      assertThat(core.send("POST", path, Map.of(), "{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"CSINode\","
          + OLD.substring(1)).code()).isEqualTo(201);
      ObjectNode stored = StrategyCases.body(core.send("GET", path + "/foo1", Map.of(), null));
      assertThat(stored.path("spec").path("drivers")).hasSize(2);
      stored.withArray("/spec/drivers").remove(1);
      stored = StrategyCases.body(core.send("PUT", path + "/foo1", Map.of(), stored.toString()));
      assertThat(stored.path("spec").path("drivers")).hasSize(1);
      ((ObjectNode) stored.withArray("/spec/drivers").get(0)).put("nodeID", "nodeB");
      StatusException e = core.refusal("PUT", path + "/foo1", Map.of(), stored.toString());
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).startsWith("CSINode.storage.k8s.io \"foo1\" is invalid: CSINodeDriver: Invalid value: "
          + "storage.CSINodeDriver{Name:\"io.kubernetes.storage.csi.driverA\", NodeID:\"nodeB\"");
    }
  }
}
