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

/** kube's {@code TestValidatePersistentVolumes} and {@code TestValidatePersistentVolumeSourceUpdate} cases. */
class PersistentVolumeValidationTest {

  private static final String BASE = "\"capacity\":{\"storage\":\"10G\"},\"accessModes\":[\"ReadWriteOnce\"]";
  private static final String PV = "{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolume\",\"metadata\":{\"name\":\"pv\"},\"spec\":{%s}}";

  private final PersistentVolumeStrategy strategy = new PersistentVolumeStrategy();

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      @,"hostPath":{"path":"/foo"}                                         |
      @,"hostPath":{"path":"/foo"},"persistentVolumeReclaimPolicy":"Recycle" |
      @,"hostPath":{"path":"/"},"persistentVolumeReclaimPolicy":"Recycle"   | spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'
      @,"hostPath":{"path":"/foo"},"persistentVolumeReclaimPolicy":"Keep"   | spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"
      @                                                                     | spec: Required value: must specify a volume type
      @,"hostPath":{"path":"/foo"},"nfs":{"server":"s","path":"/p"}         | spec.nfs: Forbidden: may not specify more than 1 volume type
      @,"hostPath":{}                                                       | spec.hostPath.path: Required value
      @,"hostPath":{"path":"/a/../b"}                                       | spec.hostPath.path: Invalid value: "/a/../b": must not contain '..'
      @,"nfs":{"server":"s","path":"p"}                                     | spec.nfs.path: Invalid value: "p": must be an absolute path
      @,"csi":{"driver":"d"}                                                | spec.csi.volumeHandle: Required value
      @,"local":{"path":"/mnt"}                                             | spec.nodeAffinity: Required value: Local volume requires node affinity
      @,"local":{"path":"/mnt"},"nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"k","operator":"Exists"}]}]}} |
      @,"hostPath":{"path":"/foo"},"nodeAffinity":{}                       | spec.nodeAffinity.required: Required value: must specify required node constraints
      @,"hostPath":{"path":"/foo"},"nodeAffinity":{"required":{"nodeSelectorTerms":[]}} | spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term
      "accessModes":["ReadWriteOnce"],"hostPath":{"path":"/foo"}            | spec.capacity: Required value; spec.capacity: Unsupported value: core.ResourceList{}: supported values: "storage"
      "capacity":{"storage":"10G","cpu":"1"},"accessModes":["ReadWriteOnce"],"hostPath":{"path":"/foo"} | spec.capacity: Unsupported value: core.ResourceList{"storage":10G, "cpu":1}: supported values: "storage"
      "capacity":{"storage":"0"},"accessModes":["ReadWriteOnce"],"hostPath":{"path":"/foo"} | spec.capacity[storage]: Invalid value: "0": must be greater than zero
      "capacity":{"storage":"10G"},"hostPath":{"path":"/foo"}               | spec.accessModes: Required value
      "capacity":{"storage":"10G"},"accessModes":["Fake"],"hostPath":{"path":"/foo"} | spec.accessModes: Unsupported value: "Fake": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"
      "capacity":{"storage":"10G"},"accessModes":["ReadWriteOncePod","ReadWriteOnce"],"hostPath":{"path":"/foo"} | spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes
      @,"hostPath":{"path":"/foo"},"volumeMode":"Fake"                      | spec.volumeMode: Unsupported value: "Fake": supported values: "Block", "Filesystem"
      @,"hostPath":{"path":"/foo"},"storageClassName":"-invalid-"           | spec.storageClassName: Invalid value: "-invalid-": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
      """)
  void create(String spec, String causes) {
    assertThat(causes(strategy, "{\"spec\":{" + spec.replace("@", BASE) + "}}"))
        .containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split("; ")));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "hostPath":{"path":"/foo"}                  | "hostPath":{"path":"/foo"},"persistentVolumeReclaimPolicy":"Delete",\"claimRef\":{\"name\":\"c\"} |
      "hostPath":{"path":"/foo"}                  | "hostPath":{"path":"/bar"}                           | spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation
      "hostPath":{"path":"/foo"}                  | "nfs":{"server":"s","path":"/p"}                     | spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation
      "csi":{"driver":"d","volumeHandle":"h"}     | "csi":{"driver":"d","volumeHandle":"h","controllerExpandSecretRef":{"name":"s"}} |
      "hostPath":{"path":"/foo"},"volumeMode":"Filesystem" | "hostPath":{"path":"/foo"},"volumeMode":"Block" | volumeMode: Invalid value: "Block": field is immutable
      """)
  void update(String old, String updated, String cause) {
    assertThat(causes(strategy, "{\"spec\":{" + BASE + "," + updated + "}}", "{\"spec\":{" + BASE + "," + old + "}}"))
        .containsExactlyElementsOf(cause == null ? List.of() : List.of(cause));
  }

  @Test
  void endToEnd_422_andStatusOnlyThroughStatus() {
    try (InMemoryCore core = InMemoryCore.start()) {
      StatusException e = core.refusal("POST", "/api/v1/persistentvolumes", Map.of(), PV.formatted(BASE));
      assertThat(e.getMessage()).isEqualTo("PersistentVolume \"pv\" is invalid: spec: Required value: must specify a volume type");

      core.send("POST", "/api/v1/persistentvolumes", Map.of(), PV.formatted(BASE + ",\"hostPath\":{\"path\":\"/data\"}"));
      ObjectNode main = StrategyCases.body(core.send("PUT", "/api/v1/persistentvolumes/pv", Map.of(),
          PV.formatted(BASE + ",\"hostPath\":{\"path\":\"/data\"}").replaceFirst("}$", ",\"status\":{\"phase\":\"Bound\"}}")));
      assertThat(main.path("status").path("phase").asText()).isEqualTo("Pending");
      ObjectNode status = StrategyCases.body(core.send("PUT", "/api/v1/persistentvolumes/pv/status", Map.of(),
          PV.formatted(BASE + ",\"hostPath\":{\"path\":\"/other\"}").replaceFirst("}$", ",\"status\":{\"phase\":\"Bound\"}}")));
      assertThat(status.path("status").path("phase").asText()).isEqualTo("Bound");
      assertThat(status.path("spec").path("hostPath").path("path").asText()).isEqualTo("/data");
    }
  }
}
