package io.listwatch.apiserver.quota;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What kube's quota evaluators measure (the cases of kube's pods_test.go, services_test.go and
 * persistent_volume_claims_test.go), and the controller's measure of a namespace.
 */
class QuotaEvaluatorsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private static JsonNode json(String s) {
    try {
      return JSON.readTree(s);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode pod(String spec, String status) {
    return json("{\"metadata\":{\"name\":\"p\",\"namespace\":\"test\"},\"spec\":" + spec + ",\"status\":" + status + "}");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      init container CPU                  | {"initContainers":[{"name":"i","resources":{"requests":{"cpu":"1m"},"limits":{"cpu":"2m"}}}],"containers":[{"name":"c"}]} | count/pods=1,cpu=1m,limits.cpu=2m,pods=1,requests.cpu=1m
      init container MEM                  | {"initContainers":[{"name":"i","resources":{"requests":{"memory":"1m"},"limits":{"memory":"2m"}}}],"containers":[{"name":"c"}]} | count/pods=1,limits.memory=2m,memory=1m,pods=1,requests.memory=1m
      container CPU                       | {"containers":[{"name":"c","resources":{"requests":{"cpu":"1m"},"limits":{"cpu":"2m"}}}]} | count/pods=1,cpu=1m,limits.cpu=2m,pods=1,requests.cpu=1m
      init container maximums override sum of containers | {"initContainers":[{"name":"i","resources":{"requests":{"cpu":"4","memory":"100M"},"limits":{"cpu":"8","memory":"200M"}}},{"name":"j","resources":{"requests":{"cpu":"1","memory":"50M"},"limits":{"cpu":"2","memory":"100M"}}}],"containers":[{"name":"a","resources":{"requests":{"cpu":"1","memory":"50M"},"limits":{"cpu":"2","memory":"100M"}}},{"name":"b","resources":{"requests":{"cpu":"2","memory":"25M"},"limits":{"cpu":"5","memory":"50M"}}}]} | count/pods=1,cpu=4,limits.cpu=8,limits.memory=200M,memory=100M,pods=1,requests.cpu=4,requests.memory=100M
      pod overhead                        | {"overhead":{"cpu":"1","memory":"1Gi"},"containers":[{"name":"c","resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"2"}}}]} | count/pods=1,cpu=2,limits.cpu=3,memory=2Gi,pods=1,requests.cpu=2,requests.memory=2Gi
      sidecar adds to the pod             | {"initContainers":[{"name":"s","restartPolicy":"Always","resources":{"requests":{"cpu":"1"}}},{"name":"i","resources":{"requests":{"cpu":"1500m"}}}],"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]} | count/pods=1,cpu=2500m,pods=1,requests.cpu=2500m
      extended and huge pages             | {"containers":[{"name":"c","resources":{"requests":{"example.com/dongle":"3","hugepages-2Mi":"4Mi"}}}]} | count/pods=1,hugepages-2Mi=4Mi,pods=1,requests.example.com/dongle=3,requests.hugepages-2Mi=4Mi
      """)
  void podUsage(String name, String spec, String usage) {
    assertThat(new PodEvaluator().usage(pod(spec, "{}"), NOW)).hasToString(usage);
  }

  @Test
  void anEndedPod_orOneStuckBeingDeleted_usesOnlyItsCount() {
    PodEvaluator pods = new PodEvaluator();
    String spec = "{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}";
    assertThat(pods.usage(pod(spec, "{\"phase\":\"Succeeded\"}"), NOW)).hasToString("count/pods=1");
    assertThat(pods.usage(pod(spec, "{\"phase\":\"Failed\"}"), NOW)).hasToString("count/pods=1");
    JsonNode deleting = json("{\"metadata\":{\"name\":\"p\",\"deletionTimestamp\":\"2026-01-01T00:00:30Z\","
        + "\"deletionGracePeriodSeconds\":30},\"spec\":" + spec + "}");
    assertThat(pods.usage(deleting, NOW).get("pods")).as("within its grace").isNotNull();
    assertThat(pods.usage(deleting, NOW.plusSeconds(61))).hasToString("count/pods=1");
  }

  @Test
  void podScopes() {
    PodEvaluator pods = new PodEvaluator();
    JsonNode bestEffort = pod("{\"containers\":[{\"name\":\"c\"}],\"activeDeadlineSeconds\":10,"
        + "\"priorityClassName\":\"high\"}", "{}");
    assertThat(pods.matchesScope(new ScopeSelector("BestEffort", "Exists", List.of()), bestEffort)).isTrue();
    assertThat(pods.matchesScope(new ScopeSelector("NotBestEffort", "Exists", List.of()), bestEffort)).isFalse();
    assertThat(pods.matchesScope(new ScopeSelector("Terminating", "Exists", List.of()), bestEffort)).isTrue();
    assertThat(pods.matchesScope(new ScopeSelector("PriorityClass", "In", List.of("high", "low")), bestEffort)).isTrue();
    assertThat(pods.matchesScope(new ScopeSelector("PriorityClass", "NotIn", List.of("high")), bestEffort)).isFalse();
    assertThat(pods.matchesScope(new ScopeSelector("PriorityClass", "DoesNotExist", List.of()),
        pod("{\"containers\":[]}", "{}"))).isTrue();
  }

  @Test
  void serviceUsage_countsNodePortsAndLoadBalancers() {
    ServiceEvaluator services = new ServiceEvaluator();
    assertThat(services.usage(json("{\"spec\":{\"type\":\"ClusterIP\",\"ports\":[{\"port\":80}]}}"), NOW))
        .hasToString("count/services=1,services=1,services.loadbalancers=0,services.nodeports=0");
    assertThat(services.usage(json("{\"spec\":{\"type\":\"NodePort\",\"ports\":[{\"port\":80},{\"port\":81}]}}"), NOW))
        .hasToString("count/services=1,services=1,services.loadbalancers=0,services.nodeports=2");
    assertThat(services.usage(json("{\"spec\":{\"type\":\"LoadBalancer\",\"allocateLoadBalancerNodePorts\":false,"
        + "\"ports\":[{\"port\":80,\"nodePort\":30001},{\"port\":81}]}}"), NOW))
        .hasToString("count/services=1,services=1,services.loadbalancers=1,services.nodeports=1");
  }

  @Test
  void claimUsage_byStorageClass_roundedToWholeBytes() {
    PersistentVolumeClaimEvaluator claims = new PersistentVolumeClaimEvaluator();
    assertThat(claims.usage(json("{\"spec\":{\"storageClassName\":\"gold\",\"resources\":{\"requests\":"
        + "{\"storage\":\"10Gi\"}}}}"), NOW)).hasToString("count/persistentvolumeclaims=1,"
        + "gold.storageclass.storage.k8s.io/persistentvolumeclaims=1,gold.storageclass.storage.k8s.io/requests.storage=10Gi,"
        + "persistentvolumeclaims=1,requests.storage=10Gi");
    assertThat(claims.usage(json("{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"1.5\"}}},"
        + "\"status\":{\"allocatedResources\":{\"storage\":\"1Gi\"}}}"), NOW).get("requests.storage")).hasToString("1Gi");
    assertThat(claims.matchingResources(List.of("bronze.storageclass.storage.k8s.io/requests.storage", "pods")))
        .containsExactly("bronze.storageclass.storage.k8s.io/requests.storage");
  }

  @Test
  void aNamespacesMeasure_sumsTheObjectsInTheQuotasScopes_andKeepsWhatNothingTracks() {
    JsonNode quota = json("{\"metadata\":{\"name\":\"q\",\"namespace\":\"test\"},\"spec\":{\"hard\":{\"pods\":\"10\","
        + "\"requests.cpu\":\"4\",\"count/widgets.example.com\":\"3\"},\"scopes\":[\"NotBestEffort\"]},"
        + "\"status\":{\"used\":{\"count/widgets.example.com\":\"2\",\"secrets\":\"7\"}}}");
    List<JsonNode> pods = List.of(
        pod("{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"500m\"}}}]}", "{}"),
        pod("{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}", "{}"),
        pod("{\"containers\":[{\"name\":\"c\"}]}", "{}"),
        pod("{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"2\"}}}]}", "{\"phase\":\"Failed\"}"));
    Map<String, List<JsonNode>> objects = Map.of("pods", pods);
    JsonNode status = QuotaUsage.status(quota, List.of(new PodEvaluator(), new ServiceEvaluator()),
        (e, ns) -> objects.getOrDefault(e.plural(), List.of()), NOW);
    assertThat(status).isEqualTo(json("{\"hard\":{\"count/widgets.example.com\":\"3\",\"pods\":\"10\",\"requests.cpu\":\"4\"},"
        + "\"used\":{\"count/widgets.example.com\":\"2\",\"pods\":\"2\",\"requests.cpu\":\"1500m\"}}"));
    assertThat(QuotaUsage.differs(quota, status)).isTrue();
  }
}
