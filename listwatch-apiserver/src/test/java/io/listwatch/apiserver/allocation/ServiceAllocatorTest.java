package io.listwatch.apiserver.allocation;

import static io.listwatch.apiserver.allocation.ServiceRequests.SERVICES;
import static io.listwatch.apiserver.allocation.ServiceRequests.causes;
import static io.listwatch.apiserver.allocation.ServiceRequests.create;
import static io.listwatch.apiserver.allocation.ServiceRequests.ok;
import static io.listwatch.apiserver.allocation.ServiceRequests.refusal;
import static io.listwatch.apiserver.allocation.ServiceRequests.send;
import static io.listwatch.apiserver.allocation.ServiceRequests.service;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.apiserver.GenericApiServer;
import io.listwatch.storage.Storage;
import io.listwatch.storage.memory.MemoryStorage;
import io.listwatch.storage.rocksdb.RocksDbStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cluster IPs and node ports as kube's bitmap allocators give them: from the configured
 * ranges, each at most once (across servers sharing a storage too), checked when asked for
 * with kube's messages, given back on delete, on a type change and when a write fails, not
 * taken by dry runs, and right again after a restart.
 */
class ServiceAllocatorTest {

  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  private MemoryStorage memory() {
    MemoryStorage storage = MemoryStorage.builder().open();
    open.add(storage);
    return storage;
  }

  private GenericApiServer server(Storage storage) {
    return server(GenericApiServer.builder(storage));
  }

  private GenericApiServer server(GenericApiServer.Builder builder) {
    GenericApiServer server = builder.clock(new FakeClock()).build().start(List.of());
    open.add(server);
    return server;
  }

  private static String ip(ObjectNode svc) {
    return svc.path("spec").path("clusterIP").asText();
  }

  private static int nodePort(ObjectNode svc, int port) {
    return svc.path("spec").path("ports").get(port).path("nodePort").asInt();
  }

  @Test
  void dynamicIps_comeFromTheUpperBand_ofTheDefaultRange() {
    GenericApiServer server = server(memory());
    assertThat(ip(create(server, "a", "{\"ports\":[{\"port\":80}]}"))).isEqualTo("10.96.1.1");
    assertThat(ip(create(server, "b", "{\"ports\":[{\"port\":80}]}"))).isEqualTo("10.96.1.2");
  }

  @Test
  void requestedIp_alreadyAllocated_isRefusedWithKubesMessage() {
    GenericApiServer server = server(memory());
    create(server, "a", "{\"ports\":[{\"port\":80}],\"clusterIP\":\"10.96.0.5\"}");
    StatusException e = refusal(server, "POST", SERVICES, Map.of(),
        service("b", "{\"ports\":[{\"port\":80}],\"clusterIP\":\"10.96.0.5\"}"));
    assertThat(e.code()).isEqualTo(422);
    assertThat(e.getMessage()).isEqualTo("Service \"b\" is invalid: spec.clusterIPs: Invalid value: "
        + "[]string{\"10.96.0.5\"}: failed to allocate IP 10.96.0.5: provided IP is already allocated");
  }

  @Test
  void requestedIp_outOfRange_isRefused() {
    GenericApiServer server = server(memory());
    StatusException e = refusal(server, "POST", SERVICES, Map.of(),
        service("b", "{\"ports\":[{\"port\":80}],\"clusterIP\":\"10.10.100.100\"}"));
    assertThat(causes(e)).containsExactly("spec.clusterIPs: Invalid value: []string{\"10.10.100.100\"}: failed to "
        + "allocate IP 10.10.100.100: the provided IP (10.10.100.100) is not in the valid range. The range of valid IPs "
        + "is 10.96.0.0/12");
  }

  @Test
  void nodePorts_takenOrOutOfRange_areRefused() {
    GenericApiServer server = server(memory());
    ObjectNode a = create(server, "a", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30080}]}");
    assertThat(nodePort(a, 0)).isEqualTo(30080);
    StatusException taken = refusal(server, "POST", SERVICES, Map.of(),
        service("b", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30080}]}"));
    assertThat(causes(taken)).containsExactly("spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated");
    StatusException outside = refusal(server, "POST", SERVICES, Map.of(),
        service("c", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":8080}]}"));
    assertThat(causes(outside)).containsExactly("spec.ports[0].nodePort: Invalid value: 8080: provided port is not in "
        + "the valid range. The range of valid ports is 30000-32767");
    // the refused Service's cluster IP went back: the next one gets it
    assertThat(ip(create(server, "d", "{\"ports\":[{\"port\":80}]}"))).isEqualTo("10.96.1.2");
  }

  @Test
  void nodePorts_eachPortGetsOne_portsOfOneNumberShareIt() {
    GenericApiServer server = server(memory());
    ObjectNode svc = create(server, "dns", "{\"type\":\"NodePort\",\"ports\":[{\"name\":\"tcp\",\"port\":53},"
        + "{\"name\":\"udp\",\"port\":53,\"protocol\":\"UDP\"},{\"name\":\"metrics\",\"port\":9153}]}");
    assertThat(nodePort(svc, 0)).isEqualTo(nodePort(svc, 1)).isBetween(30000, 32767);
    assertThat(nodePort(svc, 2)).isNotEqualTo(nodePort(svc, 0)).isBetween(30000, 32767);
    ObjectNode lb = create(server, "lb", "{\"type\":\"LoadBalancer\",\"externalTrafficPolicy\":\"Local\",\"ports\":[{\"port\":80}]}");
    assertThat(lb.path("spec").path("healthCheckNodePort").asInt()).isBetween(30000, 32767)
        .isNotEqualTo(nodePort(lb, 0));
  }

  @Test
  void neverGivenTwice_andGivenBack_onDelete() {
    GenericApiServer server = server(memory());
    Set<String> ips = new HashSet<>();
    for (int i = 0; i < 40; i++) {
      assertThat(ips.add(ip(create(server, "s" + i, "{\"ports\":[{\"port\":80}]}")))).isTrue();
    }
    create(server, "fixed", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30500}],\"clusterIP\":\"10.96.0.9\"}");
    ok(server, "DELETE", SERVICES + "/fixed", Map.of(), null);
    ObjectNode again = create(server, "again", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30500}],"
        + "\"clusterIP\":\"10.96.0.9\"}");
    assertThat(ip(again)).isEqualTo("10.96.0.9");
  }

  @Test
  void typeChange_givesBackWhatTheNewTypeDoesNotHold() {
    GenericApiServer server = server(memory());
    ObjectNode svc = create(server, "np", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30600}],"
        + "\"clusterIP\":\"10.96.0.20\"}");
    ((ObjectNode) svc.path("spec")).put("type", "ClusterIP");
    ok(server, "PUT", SERVICES + "/np", Map.of(), svc.toString());
    create(server, "other", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30600}]}");
    ObjectNode cluster = ok(server, "GET", SERVICES + "/np", Map.of(), null);
    ((ObjectNode) cluster.path("spec")).put("type", "ExternalName").put("externalName", "db.example.com");
    ok(server, "PUT", SERVICES + "/np", Map.of(), cluster.toString());
    assertThat(ip(create(server, "reuse", "{\"ports\":[{\"port\":80}],\"clusterIP\":\"10.96.0.20\"}"))).isEqualTo("10.96.0.20");
    // and back to ClusterIP: a new cluster IP
    ObjectNode ext = ok(server, "GET", SERVICES + "/np", Map.of(), null);
    ((ObjectNode) ext.path("spec")).put("type", "ClusterIP").remove("externalName");
    assertThat(ip(ok(server, "PUT", SERVICES + "/np", Map.of(), ext.toString()))).startsWith("10.96.1.");
  }

  @Test
  void dryRun_answersAnIp_andTakesNothing() {
    GenericApiServer server = server(memory());
    ObjectNode dry = ok(server, "POST", SERVICES, Map.of("dryRun", List.of("All")),
        service("d", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30700}],\"clusterIP\":\"10.96.0.30\"}"));
    assertThat(ip(dry)).isEqualTo("10.96.0.30");
    ObjectNode dynamic = ok(server, "POST", SERVICES, Map.of("dryRun", List.of("All")),
        service("e", "{\"ports\":[{\"port\":80}]}"));
    assertThat(ip(dynamic)).isEqualTo("10.96.1.1");
    create(server, "d", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30700}],\"clusterIP\":\"10.96.0.30\"}");
    assertThat(ip(create(server, "e", "{\"ports\":[{\"port\":80}]}"))).isEqualTo("10.96.1.1");
  }

  @Test
  void failedCreate_givesBackWhatItTook() {
    GenericApiServer server = server(memory());
    create(server, "a", "{\"ports\":[{\"port\":80}]}");
    StatusException exists = refusal(server, "POST", SERVICES, Map.of(),
        service("a", "{\"ports\":[{\"port\":80}],\"clusterIP\":\"10.96.0.40\"}"));
    assertThat(exists.code()).isEqualTo(409);
    assertThat(ip(create(server, "b", "{\"ports\":[{\"port\":80}],\"clusterIP\":\"10.96.0.40\"}"))).isEqualTo("10.96.0.40");
  }

  @Test
  void fullRange_isAnInternalError() {
    GenericApiServer server = server(GenericApiServer.builder(memory()).serviceIpRange("10.0.0.0/29"));
    for (int i = 0; i < 6; i++) {
      create(server, "s" + i, "{\"ports\":[{\"port\":80}]}");
    }
    StatusException e = refusal(server, "POST", SERVICES, Map.of(), service("full", "{\"ports\":[{\"port\":80}]}"));
    assertThat(e.code()).isEqualTo(500);
    assertThat(e.getMessage()).isEqualTo("Internal error occurred: failed to allocate a serviceIP: range is full");
  }

  @Test
  void restart_keepsTheAllocations_andRepairRebuildsLostState_onMemoryStorage() {
    restart(memory());
  }

  @Test
  void restart_keepsTheAllocations_andRepairRebuildsLostState_onTheEmbeddedStore(@TempDir Path dir) throws Exception {
    RocksDbStorage storage = RocksDbStorage.builder(Files.createDirectories(dir.resolve("db"))).open();
    open.add(storage);
    restart(storage);
  }

  private void restart(Storage storage) {
    GenericApiServer first = server(storage);
    create(first, "a", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30800}],\"clusterIP\":\"10.96.0.50\"}");
    first.close();
    GenericApiServer second = server(storage);
    StatusException e = refusal(second, "POST", SERVICES, Map.of(),
        service("b", "{\"ports\":[{\"port\":80}],\"clusterIP\":\"10.96.0.50\"}"));
    assertThat(e.getMessage()).endsWith("provided IP is already allocated");
    second.close();
    // the stored ranges lost: the repair at start marks what the stored Services hold
    var ranges = storage.range(io.listwatch.storage.RangeRequest.prefix("/registry/ranges/")).join().kvs();
    ranges.forEach(kv -> storage.delete(kv.key(), kv.modRevision()).join());
    GenericApiServer third = server(storage);
    assertThat(refusal(third, "POST", SERVICES, Map.of(),
        service("c", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30800}],\"clusterIP\":\"10.96.0.50\"}"))
        .getMessage()).endsWith("provided IP is already allocated");
    assertThat(causes(refusal(third, "POST", SERVICES, Map.of(),
        service("d", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30800}]}"))))
        .containsExactly("spec.ports[0].nodePort: Invalid value: 30800: provided port is already allocated");
  }

  @Test
  void repair_givesBackALeak_afterThreePasses() {
    MemoryStorage storage = memory();
    GenericApiServer server = server(storage);
    ServiceAllocator allocator = new ServiceAllocator(storage, ServiceIpRange.parse(ServiceIpRange.DEFAULT),
        NodePortRange.parse(NodePortRange.DEFAULT));
    int leaked = ServiceIpRange.parse(ServiceIpRange.DEFAULT).offset("10.96.0.60");
    allocator.storedIps().update(b -> b.allocate(leaked)).join();
    Repair repair = new Repair(storage, "/registry/core/services/", allocator);
    repair.runOnce().join();
    repair.runOnce().join();
    assertThat(allocator.storedIps().read().join().has(leaked)).isTrue();
    repair.runOnce().join();
    assertThat(allocator.storedIps().read().join().has(leaked)).isFalse();
    assertThat(ip(create(server, "s", "{\"ports\":[{\"port\":80}],\"clusterIP\":\"10.96.0.60\"}"))).isEqualTo("10.96.0.60");
  }

  @Test
  void serversSharingAStorage_neverGiveOneItemTwice() throws Exception {
    MemoryStorage storage = memory();
    GenericApiServer one = server(storage);
    GenericApiServer two = server(storage);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<CompletableFuture<ObjectNode>> created = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        GenericApiServer server = i % 2 == 0 ? one : two;
        String name = "s" + i;
        created.add(CompletableFuture.supplyAsync(() -> ServiceRequests.body(send(server, "POST", SERVICES, Map.of(),
            service(name, "{\"type\":\"NodePort\",\"ports\":[{\"port\":80}]}"))), pool));
      }
      Set<String> ips = new HashSet<>();
      Set<Integer> ports = new HashSet<>();
      for (CompletableFuture<ObjectNode> f : created) {
        ObjectNode svc = f.get();
        assertThat(ips.add(ip(svc))).as("IP " + ip(svc) + " twice").isTrue();
        assertThat(ports.add(nodePort(svc, 0))).as("port " + nodePort(svc, 0) + " twice").isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
