package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kubectl 1.32 on storage.k8s.io's CSI kinds: {@code kubectl apply} of the CSIDriver of the
 * kubernetes-csi documentation (a strategic merge patch on the second apply, an immutable
 * field refused on the third), and {@code kubectl get}'s
 * headers and cells for CSIDrivers, CSINodes, CSIStorageCapacities and VolumeAttachments as the
 * server prints them.
 */
@EndToEnd
class KubectlStorageCsiTest extends KubectlAgainstServer {

  private static List<String> cells(Kubectl.Result r, String prefix) {
    return r.lines().stream().filter(l -> l.startsWith(prefix)).findFirst()
        .map(l -> Arrays.asList(l.trim().split("\\s{2,}")))
        .orElseThrow(() -> new AssertionError("no line starting with " + prefix + " in\n" + r));
  }

  private static List<String> header(Kubectl.Result r) {
    return Arrays.asList(r.lines().getFirst().split("\\s{2,}"));
  }

  /** The CSIDriver of the kubernetes-csi documentation's "CSIDriver Object" page, applied twice. */
  private static final String DOCUMENTED_DRIVER = """
      apiVersion: storage.k8s.io/v1
      kind: CSIDriver
      metadata:
        name: mycsidriver.example.com
      spec:
        attachRequired: true
        podInfoOnMount: true
        fsGroupPolicy: File
        volumeLifecycleModes:
          - Persistent
          - Ephemeral
        tokenRequests:
          - audience: "gcp"
          - audience: ""
            expirationSeconds: 3600
        requiresRepublish: true
        seLinuxMount: true
      """;

  @Test
  void apply_theDocumentedCsiDriver_thenChangeAMutableField() {
    Kubectl.Result created = kubectl.ok("apply", "-f", kubectl.file("csidriver.yaml", DOCUMENTED_DRIVER).toString());
    assertThat(created.lines()).containsExactly("csidriver.storage.k8s.io/mycsidriver.example.com created");
    Kubectl.Result configured = kubectl.ok("apply", "-f",
        kubectl.file("csidriver2.yaml", DOCUMENTED_DRIVER.replace("requiresRepublish: true", "requiresRepublish: false")).toString());
    assertThat(configured.lines()).containsExactly("csidriver.storage.k8s.io/mycsidriver.example.com configured");
    Kubectl.Result refused = kubectl.run("apply", "-f",
        kubectl.file("csidriver3.yaml", DOCUMENTED_DRIVER.replace("attachRequired: true", "attachRequired: false")).toString());
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.stderr()).contains("spec.attachedRequired: Invalid value: false: field is immutable");
  }

  @Test
  void get_printsKubesColumns_forTheFourCsiKinds() {
    api.expect(201, "POST", "/apis/storage.k8s.io/v1/csidrivers", "application/json", """
        {"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":"columns.csi.example.com"},
         "spec":{"podInfoOnMount":true,"volumeLifecycleModes":["Persistent","Ephemeral"],
          "tokenRequests":[{"audience":"gcp"}]}}""");
    api.expect(201, "POST", "/apis/storage.k8s.io/v1/csinodes", "application/json", """
        {"apiVersion":"storage.k8s.io/v1","kind":"CSINode","metadata":{"name":"columns-node"},
         "spec":{"drivers":[{"name":"columns.csi.example.com","nodeID":"i-123"}]}}""");
    api.createNamespace("columns-csi");
    api.expect(201, "POST", "/apis/storage.k8s.io/v1/namespaces/columns-csi/csistoragecapacities", "application/json", """
        {"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity","metadata":{"name":"cap-1"},
         "storageClassName":"fast","capacity":"1024Mi"}""");
    api.expect(201, "POST", "/apis/storage.k8s.io/v1/volumeattachments", "application/json", """
        {"apiVersion":"storage.k8s.io/v1","kind":"VolumeAttachment","metadata":{"name":"csi-columns"},
         "spec":{"attacher":"columns.csi.example.com","source":{"persistentVolumeName":"pv-1"},"nodeName":"columns-node"}}""");

    Kubectl.Result drivers = kubectl.ok("get", "csidrivers", "columns.csi.example.com");
    assertThat(header(drivers)).containsExactly("NAME", "ATTACHREQUIRED", "PODINFOONMOUNT", "STORAGECAPACITY",
        "TOKENREQUESTS", "REQUIRESREPUBLISH", "MODES", "AGE");
    assertThat(cells(drivers, "columns.csi.example.com")).startsWith("columns.csi.example.com", "true", "true", "false",
        "gcp", "false", "Persistent,Ephemeral");
    Kubectl.Result nodes = kubectl.ok("get", "csinodes", "columns-node");
    assertThat(header(nodes)).containsExactly("NAME", "DRIVERS", "AGE");
    assertThat(cells(nodes, "columns-node")).startsWith("columns-node", "1");
    Kubectl.Result capacities = kubectl.ok("get", "csistoragecapacities", "-n", "columns-csi");
    assertThat(header(capacities)).containsExactly("NAME", "STORAGECLASSNAME", "CAPACITY");
    assertThat(cells(capacities, "cap-1")).containsExactly("cap-1", "fast", "1Gi");
    Kubectl.Result attachments = kubectl.ok("get", "volumeattachments", "csi-columns");
    assertThat(header(attachments)).containsExactly("NAME", "ATTACHER", "PV", "NODE", "ATTACHED", "AGE");
    assertThat(cells(attachments, "csi-columns")).startsWith("csi-columns", "columns.csi.example.com", "pv-1",
        "columns-node", "false");
  }
}
