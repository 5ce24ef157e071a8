package io.listwatch.apiserver.controlplane;

import static io.listwatch.apiserver.allocation.ServiceRequests.ok;
import static io.listwatch.apiserver.allocation.ServiceRequests.send;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.apiserver.GenericApiServer;
import io.listwatch.storage.memory.MemoryStorage;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code default/kubernetes} Service, Endpoints and EndpointSlice as kube-apiserver's
 * bootstrap controller and lease endpoint reconciler keep them: made at start, put back when
 * deleted, one address per live server sharing the storage, a server's address gone when it
 * stops or its lease expires.
 */
class KubernetesServiceReconcilerTest {

  private static final String SERVICE = "/api/v1/namespaces/default/services/kubernetes";
  private static final String ENDPOINTS = "/api/v1/namespaces/default/endpoints/kubernetes";
  private static final String SLICE = "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes";

  private final MemoryStorage storage = MemoryStorage.builder().open();
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    storage.close();
  }

  private GenericApiServer server(FakeClock clock) {
    GenericApiServer server = GenericApiServer.builder(storage).clock(clock).build().start(List.of());
    open.add(server);
    return server;
  }

  private KubernetesServiceReconciler reconciler(GenericApiServer server, FakeClock clock, String address) {
    KubernetesServiceReconciler r = new KubernetesServiceReconciler(server.store("", "v1", "services"),
        server.store("", "v1", "endpoints"), server.store("discovery.k8s.io", "v1", "endpointslices"), storage, clock,
        server.serviceIpRange(), address, 6443, true);
    open.add(r);
    return r;
  }

  private static ObjectNode get(GenericApiServer server, String path) {
    return ok(server, "GET", path, Map.of(), null);
  }

  /** Whether a GET of {@code path} finds it (a 404 is thrown as a Status by the core). */
  private static boolean exists(GenericApiServer server, String path) {
    try {
      return send(server, "GET", path, Map.of(), null).code() == 200;
    } catch (java.util.concurrent.CompletionException | io.listwatch.api.StatusException e) {
      return false;
    }
  }

  @Test
  void start_makesTheServiceItsEndpointsAndSlice() {
    FakeClock clock = new FakeClock();
    GenericApiServer server = server(clock);
    server.startKubernetesService("192.0.2.10", 6443, true);
    ObjectNode svc = get(server, SERVICE);
    assertThat(svc.path("spec").path("clusterIP").asText()).isEqualTo("10.96.0.1");
    assertThat(svc.path("spec").path("type").asText()).isEqualTo("ClusterIP");
    assertThat(svc.path("spec").path("ports").toString())
        .isEqualTo("[{\"name\":\"https\",\"protocol\":\"TCP\",\"port\":443,\"targetPort\":6443}]");
    ObjectNode ep = get(server, ENDPOINTS);
    assertThat(ep.path("subsets").toString()).isEqualTo(
        "[{\"addresses\":[{\"ip\":\"192.0.2.10\"}],\"ports\":[{\"name\":\"https\",\"port\":6443,\"protocol\":\"TCP\"}]}]");
    assertThat(ep.path("metadata").path("labels").path("endpointslice.kubernetes.io/skip-mirror").asText()).isEqualTo("true");
    ObjectNode slice = get(server, SLICE);
    assertThat(slice.path("metadata").path("labels").path("kubernetes.io/service-name").asText()).isEqualTo("kubernetes");
    assertThat(slice.path("addressType").asText()).isEqualTo("IPv4");
    assertThat(slice.path("endpoints").toString())
        .isEqualTo("[{\"addresses\":[\"192.0.2.10\"],\"conditions\":{\"ready\":true}}]");
    assertThat(slice.path("ports").toString()).isEqualTo("[{\"name\":\"https\",\"port\":6443,\"protocol\":\"TCP\"}]");
  }

  @Test
  void deleted_isBackWithinOneInterval() {
    FakeClock clock = new FakeClock();
    GenericApiServer server = server(clock);
    server.startKubernetesService("192.0.2.10", 6443, true);
    ok(server, "DELETE", SERVICE, Map.of(), null);
    ok(server, "DELETE", ENDPOINTS, Map.of(), null);
    clock.advance(KubernetesServiceReconciler.INTERVAL);
    Await.until("the kubernetes Service and Endpoints are back", Duration.ofSeconds(10),
        () -> exists(server, SERVICE) && exists(server, ENDPOINTS));
    assertThat(get(server, SERVICE).path("spec").path("clusterIP").asText()).isEqualTo("10.96.0.1");
  }

  @Test
  void serversSharingAStorage_eachAppearOnce_andLeaveWhenTheyStopOrTheirLeaseExpires() {
    FakeClock clockA = new FakeClock();
    FakeClock clockB = new FakeClock();
    GenericApiServer a = server(clockA);
    GenericApiServer b = server(clockB);
    KubernetesServiceReconciler ra = reconciler(a, clockA, "192.0.2.10");
    KubernetesServiceReconciler rb = reconciler(b, clockB, "192.0.2.11");
    KubernetesServiceReconciler rc = reconciler(b, clockB, "192.0.2.12");
    ra.reconcile();
    rb.reconcile();
    rc.reconcile();
    ra.reconcile();
    assertThat(get(a, ENDPOINTS).path("subsets").get(0).path("addresses").toString())
        .isEqualTo("[{\"ip\":\"192.0.2.10\"},{\"ip\":\"192.0.2.11\"},{\"ip\":\"192.0.2.12\"}]");
    assertThat(get(a, SLICE).path("endpoints")).hasSize(3);
    rc.close();
    assertThat(get(a, ENDPOINTS).path("subsets").get(0).path("addresses").toString())
        .isEqualTo("[{\"ip\":\"192.0.2.10\"},{\"ip\":\"192.0.2.11\"}]");
    // a stops renewing; by b's clock its lease expires
    clockB.advance(KubernetesServiceReconciler.LEASE_TTL.plusSeconds(1));
    rb.reconcile();
    assertThat(get(b, ENDPOINTS).path("subsets").get(0).path("addresses").toString())
        .isEqualTo("[{\"ip\":\"192.0.2.11\"}]");
    assertThat(get(b, SLICE).path("endpoints").toString())
        .isEqualTo("[{\"addresses\":[\"192.0.2.11\"],\"conditions\":{\"ready\":true}}]");
  }
}
