package io.listwatch.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The default plug-ins through the core's routes, as a client meets them. */
class DefaultPluginsEndToEndTest {

  private final InMemoryCore core = InMemoryCore.start();

  @AfterEach
  void close() {
    core.close();
  }

  private ObjectNode create(String path, String group, String plural, String ns, String body) {
    assertThat(core.send("POST", path, Map.of(), body).code()).isEqualTo(201);
    // a list without a resourceVersion is served once the watch cache, which the plug-ins read, caught up
    core.send("GET", path, Map.of(), null);
    String name = InMemoryCore.json(body).at("/metadata/name").asText();
    return core.server.store(group, "v1", plural).getInternal(ns, name).join().orElseThrow();
  }

  private ObjectNode createPod(String ns, String body) {
    return create("/api/v1/namespaces/" + ns + "/pods", "", "pods", ns, body);
  }

  private StatusException refusedPod(String ns, String body) {
    return core.refusal("POST", "/api/v1/namespaces/" + ns + "/pods", Map.of(), body);
  }

  @Test
  void aNewPod_getsItsAccountToken_priority_andTolerations() {
    ObjectNode pod = createPod("default", """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}""");
    assertThat(pod.at("/spec/serviceAccountName").asText()).isEqualTo("default");
    assertThat(pod.at("/spec/volumes/0/name").asText()).startsWith("kube-api-access-");
    assertThat(pod.at("/spec/containers/0/volumeMounts/0/mountPath").asText())
        .isEqualTo("/var/run/secrets/kubernetes.io/serviceaccount");
    assertThat(pod.at("/spec/priority").asLong(-1)).isZero();
    assertThat(pod.at("/spec/preemptionPolicy").asText()).isEqualTo("PreemptLowerPriority");
    assertThat(pod.at("/spec/tolerations").findValuesAsText("key"))
        .containsExactly("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable");
  }

  @Test
  void aPodInANamespaceCreatedAMomentAgo_findsItsDefaultAccount() {
    create("/api/v1/namespaces", "", "namespaces", "", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"fresh\"}}");
    ObjectNode pod = createPod("fresh", """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}""");
    assertThat(pod.at("/spec/serviceAccountName").asText()).isEqualTo("default");
  }

  @Test
  void aPodNamingAMissingAccountOrPriorityClass_isForbidden() {
    StatusException account = refusedPod("default", """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},
         "spec":{"serviceAccountName":"ghost","containers":[{"name":"c","image":"nginx"}]}}""");
    assertThat(account.code()).isEqualTo(403);
    assertThat(account.status().message()).isEqualTo(
        "pods \"web\" is forbidden: error looking up service account default/ghost: serviceaccount \"ghost\" not found");

    StatusException priority = refusedPod("default", """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},
         "spec":{"priorityClassName":"ghost","containers":[{"name":"c","image":"nginx"}]}}""");
    assertThat(priority.status().message()).isEqualTo("pods \"web\" is forbidden: no PriorityClass with name ghost was found");

    ObjectNode critical = createPod("default", """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"critical"},
         "spec":{"priorityClassName":"system-node-critical","containers":[{"name":"c","image":"nginx"}]}}""");
    assertThat(critical.at("/spec/priority").asLong()).isEqualTo(2_000_001_000L);
  }

  @Test
  void aSecondGlobalDefaultPriorityClass_isForbidden() {
    create("/apis/scheduling.k8s.io/v1/priorityclasses", "scheduling.k8s.io", "priorityclasses", "", """
        {"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"first"},"value":10,"globalDefault":true}""");
    StatusException e = core.refusal("POST", "/apis/scheduling.k8s.io/v1/priorityclasses", Map.of(), """
        {"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"second"},"value":10,"globalDefault":true}""");
    assertThat(e.code()).isEqualTo(403);
    assertThat(e.status().message()).isEqualTo("priorityclasses.scheduling.k8s.io \"second\" is forbidden: "
        + "PriorityClass first is already marked as default. Only one default can exist");
  }

  @Test
  void claimsAndVolumes_getTheirProtection_andClaimsTheDefaultStorageClass() {
    create("/apis/storage.k8s.io/v1/storageclasses", "storage.k8s.io", "storageclasses", "", """
        {"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","provisioner":"example.com/p",
         "metadata":{"name":"standard","annotations":{"storageclass.kubernetes.io/is-default-class":"true"}}}""");
    ObjectNode pvc = create("/api/v1/namespaces/default/persistentvolumeclaims", "", "persistentvolumeclaims", "default", """
        {"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"data"},
         "spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}""");
    assertThat(pvc.at("/spec/storageClassName").asText()).isEqualTo("standard");
    assertThat(pvc.at("/metadata/finalizers").toString()).isEqualTo("[\"kubernetes.io/pvc-protection\"]");

    ObjectNode pv = create("/api/v1/persistentvolumes", "", "persistentvolumes", "", """
        {"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"vol"},
         "spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],"hostPath":{"path":"/tmp/v"}}}""");
    assertThat(pv.at("/metadata/finalizers").toString()).isEqualTo("[\"kubernetes.io/pv-protection\"]");
  }

  @Test
  void aNewNode_isTaintedNotReady() {
    ObjectNode node = create("/api/v1/nodes", "", "nodes", "", "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}}");
    assertThat(node.at("/spec/taints").toString()).isEqualTo("[{\"key\":\"node.kubernetes.io/not-ready\",\"effect\":\"NoSchedule\"}]");
  }
}
