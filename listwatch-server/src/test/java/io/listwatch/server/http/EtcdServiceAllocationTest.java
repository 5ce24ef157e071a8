package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.testsupport.EndToEnd;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Service cluster IPs and node ports with two API servers over one real etcd: the allocations
 * live in etcd (kube's {@code /registry/ranges/...}), so the replicas never give one item twice,
 * each refuses what the other gave, and a restarted replica still knows.
 */
@EndToEnd
class EtcdServiceAllocationTest extends EtcdReplicas {

  private static String services(String ns) {
    return "/api/v1/namespaces/" + ns + "/services";
  }

  private static JsonNode service(String name, String spec) {
    return KubeHttp.object("{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"" + name + "\"},\"spec\":"
        + spec + "}");
  }

  @Test
  void concurrentCreatesOnBothReplicas_neverShareAnIpOrAPort() {
    String ns = a.createNamespace("alloc");
    List<CompletableFuture<JsonNode>> created = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      KubeHttp client = i % 2 == 0 ? a : b;
      String name = "s" + i;
      created.add(CompletableFuture.supplyAsync(() -> client.create(services(ns),
          service(name, "{\"type\":\"NodePort\",\"ports\":[{\"port\":80}]}"))));
    }
    Set<String> ips = new HashSet<>();
    Set<Integer> ports = new HashSet<>();
    for (CompletableFuture<JsonNode> f : created) {
      JsonNode svc = f.join();
      assertThat(ips.add(svc.at("/spec/clusterIP").asText())).isTrue();
      assertThat(ports.add(svc.at("/spec/ports/0/nodePort").asInt())).isTrue();
    }
  }

  @Test
  void whatOneReplicaGave_theOtherRefuses_evenAfterARestart() {
    String ns = a.createNamespace("alloc-fixed");
    a.create(services(ns), service("fixed", "{\"ports\":[{\"port\":80}],\"clusterIP\":\"10.96.0.77\"}"));
    JsonNode refused = b.post(services(ns), service("again", "{\"ports\":[{\"port\":80}],\"clusterIP\":\"10.96.0.77\"}"))
        .expect(422);
    assertThat(refused.path("message").asText()).endsWith("failed to allocate IP 10.96.0.77: provided IP is already allocated");
    second.close();
    second = replica(dir.resolve("second"));
    b.close();
    b = new KubeHttp(second);
    b.post(services(ns), service("again", "{\"ports\":[{\"port\":80}],\"clusterIP\":\"10.96.0.77\"}")).expect(422);
    a.delete(services(ns) + "/fixed").expect(200);
    b.create(services(ns), service("again", "{\"ports\":[{\"port\":80}],\"clusterIP\":\"10.96.0.77\"}"));
  }

  @Test
  void theKubernetesService_isThere_withTheReplicasEndpoints() {
    JsonNode svc = a.get("/api/v1/namespaces/default/services/kubernetes").expect(200);
    assertThat(svc.at("/spec/clusterIP").asText()).isEqualTo("10.96.0.1");
    JsonNode ep = b.get("/api/v1/namespaces/default/endpoints/kubernetes").expect(200);
    assertThat(ep.at("/subsets/0/addresses")).isNotEmpty();
  }
}
