package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.configMap;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.storage.etcd.testing.EtcdServer;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two servers over one etcd elect one of them to run the controllers kube-controller-manager
 * would (garbage collector, namespace controller, service accounts controller), through the
 * Lease {@code kube-system/listwatch-controller-manager}; the other takes over when the leader
 * stops. Each test gets its own cluster: its own key prefix in the one etcd.
 */
@EndToEnd
class EtcdControllerLeadershipTest {

  private static final String LEASE =
      "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/listwatch-controller-manager";
  private static final Duration TAKEOVER = Duration.ofSeconds(20);
  private static final AtomicInteger CLUSTERS = new AtomicInteger();

  @TempDir
  static Path dir;
  private static EtcdServer etcd;
  private ApiServer first;
  private ApiServer second;
  private KubeHttp a;
  private KubeHttp b;

  @BeforeAll
  static void startEtcd() throws Exception {
    etcd = EtcdServer.start(dir.resolve("etcd"));
  }

  @AfterAll
  static void stopEtcd() throws Exception {
    if (etcd != null) {
      etcd.close();
    }
  }

  @BeforeEach
  void startReplicas() {
    String prefix = "/cluster-" + CLUSTERS.incrementAndGet();
    first = replica("first", prefix);
    second = replica("second", prefix);
    a = new KubeHttp(first);
    b = new KubeHttp(second);
  }

  private static ApiServer replica(String identity, String prefix) {
    return ApiServer.builder().dataDir(dir.resolve(prefix.substring(1) + "-" + identity))
        .etcdServers(List.of(etcd.endpoint())).etcdPrefix(prefix).leaderElectIdentity(identity)
        .leaderElectTiming(Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofMillis(500))
        .build().start();
  }

  @AfterEach
  void stopReplicas() {
    for (AutoCloseable c : new AutoCloseable[] {a, b, first, second}) {
      if (c != null) {
        try {
          c.close();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
    }
  }

  private String holder(KubeHttp http) {
    return http.get(LEASE).expect(200).path("spec").path("holderIdentity").asText();
  }

  @Test
  void oneReplicaLeads_andTheLeaseNamesIt() {
    Await.until("a leader", TAKEOVER, () -> first.leadsControllers() || second.leadsControllers());

    assertThat(first.leadsControllers()).isNotEqualTo(second.leadsControllers());
    String leader = first.leadsControllers() ? "first" : "second";
    assertThat(holder(a)).isEqualTo(leader);
    assertThat(holder(b)).isEqualTo(leader);
    JsonNode lease = a.get(LEASE).expect(200);
    assertThat(lease.path("spec").path("leaseDurationSeconds").asInt()).isEqualTo(3);
    assertThat(lease.path("spec").path("renewTime").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z");
  }

  @Test
  void controllersAct_throughWhicheverReplicaLeads_andTheStandbyTakesOverWhenTheLeaderStops() {
    Await.until("a leader", TAKEOVER, () -> first.leadsControllers() || second.leadsControllers());
    boolean firstLeads = first.leadsControllers();
    ApiServer leader = firstLeads ? first : second;
    ApiServer standby = firstLeads ? second : first;
    KubeHttp viaStandby = firstLeads ? b : a;
    String standbyName = firstLeads ? "second" : "first";

    assertControllersAct(viaStandby, "before");

    leader.close();
    if (firstLeads) {
      a.close();
      a = null;
      first = null;
    } else {
      b.close();
      b = null;
      second = null;
    }
    // the stopped leader released the Lease, so the standby takes it at its next retry
    Await.until("the standby leads", TAKEOVER, standby::leadsControllers);
    assertThat(holder(viaStandby)).isEqualTo(standbyName);
    JsonNode lease = viaStandby.get(LEASE).expect(200);
    assertThat(lease.path("spec").path("leaseTransitions").asInt()).isGreaterThanOrEqualTo(1);

    assertControllersAct(viaStandby, "after");
  }

  /**
   * Through {@code http}: a new namespace gets its default service account (service accounts
   * controller), a dependent goes with its deleted owner (garbage collector), and a deleted
   * namespace is emptied and removed (namespace controller).
   */
  private static void assertControllersAct(KubeHttp http, String prefix) {
    String ns = http.createNamespace(prefix);
    Await.until("the default service account in " + ns, TAKEOVER,
        () -> http.get("/api/v1/namespaces/" + ns + "/serviceaccounts/default").code() == 200);

    String cms = "/api/v1/namespaces/" + ns + "/configmaps";
    JsonNode owner = http.create(cms, configMap("owner"));
    ObjectNode dependent = configMap("dependent");
    ((ObjectNode) dependent.get("metadata")).putArray("ownerReferences").addObject().put("apiVersion", "v1")
        .put("kind", "ConfigMap").put("name", "owner").put("uid", owner.path("metadata").path("uid").asText());
    http.create(cms, dependent);
    http.delete(cms + "/owner").expect(200);
    Await.until("the dependent collected", TAKEOVER, () -> http.get(cms + "/dependent").code() == 404);

    http.delete("/api/v1/namespaces/" + ns).expect(200);
    Await.until("the namespace " + ns + " removed", TAKEOVER, () -> http.get("/api/v1/namespaces/" + ns).code() == 404);
  }
}
