package io.listwatch.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.clock.FakeClock;
import io.listwatch.client.DeleteOptions;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.testing.Action;
import io.listwatch.client.testing.FakeClient;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The simulated runtime over a FakeClient and a fake clock; timers run on the test thread. */
class PodWorkersTest {

  private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final FakeClient client = FakeClient.create();
  private final ResourceClient<DynamicObject> pods = client.dynamic(ResourceType.PODS);
  private final PodWorkers workers = new PodWorkers(pods, clock, Runnable::run, new PodIpAllocator("10.244.1.0/24"),
      "192.168.0.10", Duration.ofSeconds(2), "n1");

  private DynamicObject create(String name, String restartPolicy, String annotations) {
    return pods.create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
        + "\",\"namespace\":\"default\",\"annotations\":{" + annotations + "}},"
        + "\"spec\":{\"nodeName\":\"n1\",\"restartPolicy\":\"" + restartPolicy + "\","
        + "\"containers\":[{\"name\":\"app\",\"image\":\"nginx\"}]}}"));
  }

  private DynamicObject current(String name) {
    return pods.get("default", name).orElseThrow();
  }

  private static String text(DynamicObject pod, String... path) {
    return pod.get(path).map(n -> n.asText()).orElse("");
  }

  @Test
  void newPod_isPendingContainerCreating_thenRunningWithAnIpAfterTheStartDelay() {
    workers.sync(create("web", "Always", ""));

    DynamicObject pending = current("web");
    assertThat(text(pending, "status", "phase")).isEqualTo("Pending");
    assertThat(text(pending, "status", "hostIP")).isEqualTo("192.168.0.10");
    assertThat(pending.get("status", "containerStatuses").orElseThrow().get(0).path("state").path("waiting")
        .path("reason").asText()).isEqualTo("ContainerCreating");

    clock.advance(Duration.ofSeconds(2));
    DynamicObject running = current("web");
    assertThat(text(running, "status", "phase")).isEqualTo("Running");
    assertThat(text(running, "status", "podIP")).isEqualTo("10.244.1.2");
    assertThat(running.get("status", "conditions").orElseThrow().toString())
        .contains("{\"type\":\"Ready\",\"lastTransitionTime\":\"2026-01-01T00:00:02Z\",\"status\":\"True\"");
    assertThat(running.get("status", "containerStatuses").orElseThrow().get(0).path("state").path("running")
        .path("startedAt").asText()).isEqualTo("2026-01-01T00:00:02Z");
  }

  @Test
  void twoPods_getDifferentIps() {
    workers.sync(create("a", "Always", ""));
    workers.sync(create("b", "Always", ""));
    clock.advance(Duration.ofSeconds(2));
    assertThat(text(current("a"), "status", "podIP")).isNotEqualTo(text(current("b"), "status", "podIP"));
  }

  @Test
  void gracefulDeletion_deletesWithGraceZeroAndTheUid_onlyOnceTheGraceHasPassed() {
    workers.sync(create("web", "Always", ""));
    clock.advance(Duration.ofSeconds(2));
    String uid = current("web").uid();
    var marked = current("web").toTree();
    marked.with("metadata").put("deletionTimestamp", "2026-01-01T00:00:32Z").put("deletionGracePeriodSeconds", 30);
    client.clearActions();

    workers.terminate(DynamicObject.of(marked));
    clock.advance(Duration.ofSeconds(29));
    assertThat(client.actionsFor(Action.DELETE, ResourceType.PODS)).isEmpty();

    clock.advance(Duration.ofSeconds(1));
    assertThat(client.actionsFor(Action.DELETE, ResourceType.PODS)).singleElement()
        .satisfies(a -> assertThat(a.object()).isEqualTo(DeleteOptions.immediate(uid)));
    assertThat(pods.get("default", "web")).isEmpty();
  }

  @Test
  void podFoundAlreadyMarked_isDeletedAtItsDeletionTimestamp_notAFullGraceLater() {
    workers.sync(create("web", "Always", ""));
    clock.advance(Duration.ofSeconds(2));
    var marked = current("web").toTree();
    marked.with("metadata").put("deletionTimestamp", "2026-01-01T00:00:12Z").put("deletionGracePeriodSeconds", 30);
    client.clearActions();

    workers.terminate(DynamicObject.of(marked));
    clock.advance(Duration.ofSeconds(9));
    assertThat(client.actionsFor(Action.DELETE, ResourceType.PODS)).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    assertThat(client.actionsFor(Action.DELETE, ResourceType.PODS)).hasSize(1);
  }

  @Test
  void simulateFail_withRestartPolicyNever_failsThePod() {
    workers.sync(create("job", "Never", "\"listwatch.io/simulate\":\"fail\""));
    clock.advance(Duration.ofSeconds(2));
    workers.sync(current("job"));

    DynamicObject failed = current("job");
    assertThat(text(failed, "status", "phase")).isEqualTo("Failed");
    assertThat(failed.get("status", "containerStatuses").orElseThrow().get(0).path("state").path("terminated")
        .path("exitCode").asInt()).isEqualTo(1);
  }

  @Test
  void simulateComplete_withOnFailure_succeeds_withAlways_restartsOnce() {
    workers.sync(create("batch", "OnFailure", "\"listwatch.io/simulate\":\"complete\""));
    workers.sync(create("svc", "Always", "\"listwatch.io/simulate\":\"complete\""));
    clock.advance(Duration.ofSeconds(2));
    workers.sync(current("batch"));
    workers.sync(current("svc"));
    workers.sync(current("svc"));

    assertThat(text(current("batch"), "status", "phase")).isEqualTo("Succeeded");
    DynamicObject svc = current("svc");
    assertThat(text(svc, "status", "phase")).isEqualTo("Running");
    var container = svc.get("status", "containerStatuses").orElseThrow().get(0);
    assertThat(container.path("restartCount").asInt()).isEqualTo(1);
    assertThat(container.path("lastState").path("terminated").path("reason").asText()).isEqualTo("Completed");
  }

  @Test
  void podAlreadyRunning_isAdopted_withoutAStatusWrite() {
    DynamicObject pod = create("old", "Always", "");
    var tree = pod.toTree();
    tree.putObject("status").put("phase", "Running").put("podIP", "10.244.1.7");
    pods.updateStatus(DynamicObject.of(tree));
    client.clearActions();

    workers.sync(current("old"));

    assertThat(client.actionsFor(Action.UPDATE, ResourceType.PODS)).isEmpty();
    workers.sync(create("new", "Always", ""));
    clock.advance(Duration.ofSeconds(2));
    assertThat(text(current("new"), "status", "podIP")).isNotEqualTo("10.244.1.7");
  }
}
