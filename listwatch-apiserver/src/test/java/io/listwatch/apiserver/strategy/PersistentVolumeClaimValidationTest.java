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

/** kube's {@code TestValidatePersistentVolumeClaim} and {@code TestValidatePersistentVolumeClaimUpdate} cases. */
class PersistentVolumeClaimValidationTest {

  private static final String BASE = "\"accessModes\":[\"ReadWriteOnce\"],\"resources\":{\"requests\":{\"storage\":\"10G\"}}";
  private static final String CLASS = ",\"storageClassName\":\"fast\"";
  private static final String GROWN = "\"accessModes\":[\"ReadWriteOnce\"],\"resources\":{\"requests\":{\"storage\":\"20G\"}}" + CLASS;
  private static final String PVC = "{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"c\"},\"spec\":{%s}%s}";

  private final PersistentVolumeClaimStrategy strategy = new PersistentVolumeClaimStrategy();

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      @                                                              |
      "resources":{"requests":{"storage":"10G"}}                     | spec.accessModes: Required value: at least 1 access mode is required
      "accessModes":["Fake"],"resources":{"requests":{"storage":"1"}} | spec.accessModes: Unsupported value: "Fake": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"
      "accessModes":["ReadWriteOnce"]                                | spec.resources[storage]: Required value
      "accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"0"}} | spec.resources[storage]: Invalid value: "0": must be greater than zero
      "accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"-1"}} | spec.resources[storage]: Invalid value: "-1": must be greater than zero
      @,"volumeMode":"Fake"                                          | spec.volumeMode: Unsupported value: "Fake": supported values: "Block", "Filesystem"
      @,"dataSource":{"kind":"PersistentVolumeClaim","name":"src"}   |
      @,"dataSource":{"kind":"VolumeSnapshot","name":"snap","apiGroup":"snapshot.storage.k8s.io"} |
      @,"dataSource":{"kind":"Pod","name":"p"}                       | spec.dataSource: Invalid value: "Pod": must be 'PersistentVolumeClaim' when referencing the default apiGroup
      @,"dataSource":{"apiGroup":"g.io"}                             | spec.dataSource.name: Required value; spec.dataSource.kind: Required value
      @,"dataSource":{"kind":"PersistentVolumeClaim","name":"a"},"dataSourceRef":{"kind":"PersistentVolumeClaim","name":"b"} | spec: Invalid value: "spec.dataSource": must match dataSourceRef
      @,"selector":{"matchExpressions":[{"key":"key2","operator":"Exists"}]} |
      @,"selector":{"matchLabels":{"a":"b"},"matchExpressions":[{"key":"key2","operator":"In","values":["v1","v2"]}]} |
      @,"selector":{"matchExpressions":[{"key":"key2","operator":"InvalidOp","values":["value1","value2"]}]} | spec.selector.matchExpressions[0].operator: Invalid value: "InvalidOp": not a valid selector operator
      @,"selector":{"matchExpressions":[{"key":"key2","operator":"Exists","values":["v"]}]} | spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'
      @,"selector":{"matchExpressions":[{"key":"key2","operator":"In"}]} | spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'
      @,"selector":{"matchExpressions":[{"key":"key2","operator":"In","values":["a b"]}]} | spec.selector.matchExpressions[0].values[0]: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')
      @,"selector":{"matchLabels":{"-a":"b"}}                       | spec.selector.matchLabels: Invalid value: "-a": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
      "accessModes":["Fake"],"resources":{"requests":{"storage":"1"}},"selector":{"matchExpressions":[{"key":"k","operator":"Bad"}]} | spec.selector.matchExpressions[0].operator: Invalid value: "Bad": not a valid selector operator; spec.accessModes: Unsupported value: "Fake": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"
      "resources":{"requests":{"storage":"1"}},"selector":{"matchExpressions":[{"key":"k","operator":"Bad"}]} | spec.accessModes: Required value: at least 1 access mode is required; spec.selector.matchExpressions[0].operator: Invalid value: "Bad": not a valid selector operator
      """)
  void create(String spec, String causes) {
    assertThat(causes(strategy, "{\"spec\":{" + spec.replace("@", BASE) + "}}"))
        .containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split("; ")));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"spec":{@}}                                  | {"spec":{@,"volumeName":"pv"}}            |
      {"spec":{@,"volumeName":"pv"}}                | {"spec":{@,"volumeName":"other"}}         | spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims
      {"spec":{@}}                                  | {"spec":{@,"accessModes":["ReadOnlyMany"]}} | spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims
      {"spec":{@}}                                  | {"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"20G"}}}} | spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims
      {"spec":{@},"status":{"phase":"Bound"}}       | {"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"20G"}}},"status":{"phase":"Bound"}} |
      {"spec":{@},"status":{"phase":"Bound"}}       | {"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"10000M"}}},"status":{"phase":"Bound"}} |
      {"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"20G"}}},"status":{"phase":"Bound","capacity":{"storage":"10G"}}} | {"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"15G"}}},"status":{"phase":"Bound","capacity":{"storage":"10G"}}} |
      {"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"20G"}}},"status":{"phase":"Bound","capacity":{"storage":"10G"}}} | {"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"10G"}}},"status":{"phase":"Bound","capacity":{"storage":"10G"}}} | spec.resources.requests.storage: Forbidden: field can not be less than status.capacity
      {"spec":{@}}                                  | {"spec":{@,"storageClassName":"gold"}}    |
      {"spec":{@,"storageClassName":"gold"}}        | {"spec":{@,"storageClassName":"silver"}}  | spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims
      {"metadata":{"annotations":{"volume.beta.kubernetes.io/storage-class":"gold"}},"spec":{@}} | {"metadata":{"annotations":{"volume.beta.kubernetes.io/storage-class":"gold"}},"spec":{@,"storageClassName":"gold"}} |
      {"spec":{@,"selector":{"matchExpressions":[{"key":"k","operator":"In","values":["a b"]}]}}} | {"spec":{@,"selector":{"matchExpressions":[{"key":"k","operator":"In","values":["a b"]}]}}} |
      {"spec":{@,"selector":{"matchExpressions":[{"key":"k","operator":"In","values":["a b"]}]}}} | {"spec":{@,"selector":{"matchExpressions":[{"key":"k","operator":"Bad","values":["a b"]}]}}} | spec.selector.matchExpressions[0].operator: Invalid value: "Bad": not a valid selector operator; spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims
      {"spec":{@,"volumeMode":"Filesystem"}}        | {"spec":{@,"volumeMode":"Block"}}         | spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims; volumeMode: Invalid value: "Block": field is immutable
      """)
  void update(String old, String updated, String causes) {
    assertThat(causes(strategy, updated.replace("@", BASE), old.replace("@", BASE)))
        .containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split("; ")));
  }

  @Test
  void endToEnd_422_andStatusKeptOnMainUpdates() {
    try (InMemoryCore core = InMemoryCore.start()) {
      StatusException e = core.refusal("POST", "/api/v1/namespaces/default/persistentvolumeclaims", Map.of(),
          PVC.formatted("\"accessModes\":[\"ReadWriteOnce\"]", ""));
      assertThat(e.getMessage()).isEqualTo("PersistentVolumeClaim \"c\" is invalid: spec.resources[storage]: Required value");

      // a class that allows expansion: PersistentVolumeClaimResize refuses growing any other claim (403)
      core.send("POST", "/apis/storage.k8s.io/v1/storageclasses", Map.of(), "{\"apiVersion\":\"storage.k8s.io/v1\","
          + "\"kind\":\"StorageClass\",\"metadata\":{\"name\":\"fast\",\"annotations\":"
          + "{\"storageclass.kubernetes.io/is-default-class\":\"true\"}},\"provisioner\":\"x.example.com\","
          + "\"allowVolumeExpansion\":true}");
      core.send("GET", "/apis/storage.k8s.io/v1/storageclasses", Map.of(), null); // the plug-ins' cache has it
      core.send("POST", "/api/v1/namespaces/default/persistentvolumeclaims", Map.of(), PVC.formatted(BASE, ""));
      StatusException grow = core.refusal("PUT", "/api/v1/namespaces/default/persistentvolumeclaims/c", Map.of(),
          PVC.formatted(GROWN, ",\"status\":{\"phase\":\"Bound\"}"));
      assertThat(grow.code()).isEqualTo(422); // the stored status (not bound) is what counts

      ObjectNode status = StrategyCases.body(core.send("PUT", "/api/v1/namespaces/default/persistentvolumeclaims/c/status",
          Map.of(), PVC.formatted(BASE + CLASS, ",\"status\":{\"phase\":\"Bound\",\"capacity\":{\"storage\":\"10G\"}}")));
      assertThat(status.path("status").path("phase").asText()).isEqualTo("Bound");
      ObjectNode grown = StrategyCases.body(core.send("PUT", "/api/v1/namespaces/default/persistentvolumeclaims/c", Map.of(),
          PVC.formatted(GROWN, "")));
      assertThat(grown.path("spec").path("resources").path("requests").path("storage").asText()).isEqualTo("20G");
      assertThat(grown.path("status").path("phase").asText()).isEqualTo("Bound");
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"phase":"Bound","capacity":{"storage":"10G"},"allocatedResources":{"storage":"10G"},"allocatedResourceStatuses":{"storage":"NodeResizePending"}} |
      {"capacity":{"storage":"-1"}}                               | status.capacity[storage]: Invalid value: -1: must be a valid resource quantity
      {"allocatedResources":{"cpu":"1"}}                          | status.allocatedResources: Unsupported value: "cpu": supported values: "storage"
      {"allocatedResources":{"example.com/x":"1.5"}}              |
      {"allocatedResources":{"storage":"-2"}}                     | status.allocatedResources[storage]: Invalid value: -2: must be a valid resource quantity
      {"allocatedResourceStatuses":{"storage":"Resizing"}}        | status.allocatedResourceStatus: Unsupported value: "storage": supported values: "ControllerResizeInProgress", "ControllerResizeInfeasible", "NodeResizeInProgress", "NodeResizeInfeasible", "NodeResizePending"
      """)
  void statusUpdate(String status, String cause) {
    ObjectNode obj = InMemoryCore.json("{\"metadata\":{\"name\":\"c\"},\"spec\":{" + BASE + "},\"status\":" + status + "}");
    if (cause == null) {
      strategy.prepareForStatusUpdate(obj, obj.deepCopy());
      return;
    }
    StatusException e = org.assertj.core.api.Assertions.catchThrowableOfType(StatusException.class,
        () -> strategy.prepareForStatusUpdate(obj, obj.deepCopy()));
    assertThat(e.code()).isEqualTo(422);
    assertThat(StrategyCases.lines(e.status().details().causes())).containsExactly(cause);
  }

  @Test
  void volumeAttributesClassName_isDropped_asKube132WithTheFeatureOff() {
    ObjectNode created = InMemoryCore.json("{\"spec\":{\"volumeAttributesClassName\":\"fast\"}}");
    strategy.prepareForCreate(created, java.time.Instant.EPOCH);
    assertThat(created.path("spec").has("volumeAttributesClassName")).isFalse();
    ObjectNode kept = InMemoryCore.json("{\"spec\":{\"volumeAttributesClassName\":\"slow\"}}");
    strategy.prepareForUpdate(kept, InMemoryCore.json("{\"spec\":{\"volumeAttributesClassName\":\"fast\"}}"));
    assertThat(kept.path("spec").path("volumeAttributesClassName").asText()).isEqualTo("slow");
  }
}
