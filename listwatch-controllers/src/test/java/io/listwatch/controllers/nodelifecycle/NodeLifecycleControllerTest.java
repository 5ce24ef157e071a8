package io.listwatch.controllers.nodelifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.clock.FakeClock;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.SharedInformerFactory;
import io.listwatch.client.testing.Action;
import io.listwatch.client.testing.FakeClient;
import io.listwatch.controllers.ControllerContext;
import io.listwatch.controllers.events.EventRecorder;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The controller over a FakeClient's informers and a fake clock; passes are run by the test. */
@Timeout(60)
class NodeLifecycleControllerTest {

  private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final FakeClient client = FakeClient.create();
  private final ResourceClient<DynamicObject> nodes = client.dynamic(ResourceType.NODES);
  private final ResourceClient<DynamicObject> leases = client.dynamic(ResourceType.LEASES);
  private final ResourceClient<DynamicObject> pods = client.dynamic(ResourceType.PODS);
  private SharedInformerFactory informers;
  private NodeLifecycleController controller;

  @BeforeEach
  void setUp() throws Exception {
    nodes.create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},"
        + "\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"reason\":\"KubeletReady\"}]}}"));
    // Ready for a while: the not-ready taint every new Node gets (TaintNodesByCondition) is gone
    var stored = client.server().get(ResourceType.NODES, "", "n1").orElseThrow();
    ((com.fasterxml.jackson.databind.node.ObjectNode) stored.get("spec")).remove("taints");
    client.server().update(ResourceType.NODES, stored);
    leases.create(DynamicObject.parse("{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":"
        + "{\"name\":\"n1\",\"namespace\":\"kube-node-lease\"},\"spec\":{\"holderIdentity\":\"n1\","
        + "\"leaseDurationSeconds\":40,\"renewTime\":\"2026-01-01T00:00:00.000000Z\"}}"));
    pod("plain", "n1", "");
    pod("tolerates60", "n1", ",\"tolerations\":[{\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\","
        + "\"effect\":\"NoExecute\",\"tolerationSeconds\":60}]");
    pod("static", "n1", ",\"tolerations\":[{\"operator\":\"Exists\",\"effect\":\"NoExecute\"}]");
    pod("elsewhere", "n2", "");
    informers = SharedInformerFactory.builder(client).build();
    controller = new NodeLifecycleController(new ControllerContext(client, informers, EventRecorder.DISCARD, clock),
        new NodeLifecycleController.Settings(Duration.ofSeconds(5), Duration.ofSeconds(40), Duration.ofSeconds(300)));
    informers.start();
    assertThat(informers.waitForCacheSync(Duration.ofSeconds(30))).isTrue();
  }

  @AfterEach
  void tearDown() {
    controller.close();
    informers.close();
  }

  private void pod(String name, String node, String extraSpec) {
    pods.create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
        + "\",\"namespace\":\"default\"},\"spec\":{\"nodeName\":\"" + node + "\"" + extraSpec
        + ",\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}"));
  }

  private DynamicObject node() {
    return nodes.get("", "n1").orElseThrow();
  }

  /**
   * Whether the pod exists and is not being deleted: an evicted pod on an unreachable node
   * stays Terminating, as in kube, since no kubelet confirms its end.
   */
  private boolean exists(String pod) {
    return pods.get("default", pod).filter(p -> p.get("metadata", "deletionTimestamp").isEmpty()).isPresent();
  }

  /** Advances the clock, lets the informers catch up with {@code cached}, and runs a pass. */
  private void passAt(Duration advance, BooleanSupplier cached) throws InterruptedException {
    clock.advance(advance);
    Await.until("the informers catch up", Duration.ofSeconds(20), cached::getAsBoolean);
    controller.monitor();
  }

  @Test
  void lateLease_marksNotReady_taints_andEvictsPodsAfterTheirToleration() throws Exception {
    passAt(Duration.ZERO, () -> true);
    passAt(Duration.ofSeconds(40), () -> true);
    assertThat(client.actionsFor(Action.UPDATE, ResourceType.NODES)).isEmpty();

    passAt(Duration.ofSeconds(1), () -> true);
    assertThat(node().get("status", "conditions").orElseThrow().get(0).path("status").asText()).isEqualTo("Unknown");
    assertThat(node().get("spec", "taints").orElseThrow().toString())
        .contains("\"key\":\"node.kubernetes.io/unreachable\",\"effect\":\"NoSchedule\"")
        .contains("\"key\":\"node.kubernetes.io/unreachable\",\"effect\":\"NoExecute\",\"timeAdded\":\"2026-01-01T00:00:41Z\"");
    assertThat(exists("plain") && exists("tolerates60") && exists("static")).isTrue();

    passAt(Duration.ofSeconds(59), () -> true);
    assertThat(exists("tolerates60")).isTrue();
    passAt(Duration.ofSeconds(1), () -> true);
    assertThat(exists("tolerates60")).isFalse();
    assertThat(exists("plain")).isTrue();

    passAt(Duration.ofSeconds(240), () -> true);
    assertThat(exists("plain")).isFalse();
    assertThat(exists("static")).isTrue();
    assertThat(exists("elsewhere")).isTrue();
  }

  @Test
  void renewedLease_removesTheTaints() throws Exception {
    passAt(Duration.ZERO, () -> true);
    passAt(Duration.ofSeconds(41), () -> true);
    assertThat(node().get("spec", "taints")).isPresent();

    var lease = leases.get("kube-node-lease", "n1").orElseThrow().toTree();
    lease.with("spec").put("renewTime", "2026-01-01T00:00:45.000000Z");
    String rv = leases.update(DynamicObject.of(lease)).resourceVersion();
    String taintedRv = node().resourceVersion();
    passAt(Duration.ofSeconds(4), () -> informersHave("kube-node-lease/n1", rv, ResourceType.LEASES)
        && informersHave("n1", taintedRv, ResourceType.NODES));

    assertThat(node().get("spec", "taints")).isEmpty();
    assertThat(exists("plain")).isTrue();
  }

  private boolean informersHave(String key, String resourceVersion, ResourceType type) {
    return informers.informerFor(type, DynamicObject.CODEC).getStore().getByKey(key)
        .map(o -> o.resourceVersion().equals(resourceVersion)).orElse(false);
  }
}
