package io.listwatch.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.client.DeleteOptions;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.testing.Action;
import io.listwatch.client.testing.FakeClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulated runtime over a FakeClient and a fake clock; timers run on the test thread. */
class PodWorkersTest {

  private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final FakeClient client = FakeClient.create();
  private final ResourceClient<DynamicObject> pods = client.dynamic(ResourceType.PODS);
  private final PodWorkers workers = new PodWorkers(pods, clock, Runnable::run, new PodIpAllocator("10.244.1.0/24"),
      "192.168.0.10", Duration.ofSeconds(2), new Backoff(clock, Duration.ofSeconds(10), Duration.ofMinutes(5)), "n1");

  private DynamicObject create(String name, String restartPolicy, String annotations) {
    return pods.create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
        + "\",\"namespace\":\"default\",\"annotations\":{" + annotations + "}},"
        + "\"spec\":{\"nodeName\":\"n1\",\"restartPolicy\":\"" + restartPolicy + "\","
        + "\"containers\":[{\"name\":\"app\",\"image\":\"nginx\"}]}}"));
  }

  private DynamicObject current(String name) {
    return pods.get("default", name).orElseThrow();
  }

  private static JsonNode container(DynamicObject pod) {
    return pod.get("status", "containerStatuses").orElseThrow().get(0);
  }

  /** {@code status/reason} of the pod's condition {@code type}. */
  private static String condition(DynamicObject pod, String type) {
    for (JsonNode c : pod.get("status", "conditions").orElseThrow()) {
      if (c.path("type").asText().equals(type)) {
        return c.path("status").asText() + "/" + c.path("reason").asText();
      }
    }
    return "";
  }

  /** Sets (or with null removes) the simulate annotation of pod {@code name}; returns the pod. */
  private DynamicObject setAnnotation(String name, String value) {
    var tree = current(name).toTree();
    if (value == null) {
      tree.with("metadata").with("annotations").remove("listwatch.io/simulate");
    } else {
      tree.with("metadata").with("annotations").put("listwatch.io/simulate", value);
    }
    return pods.update(DynamicObject.of(tree));
  }

  private static String text(DynamicObject pod, String... path) {
    return pod.get(path).map(n -> n.asText()).orElse("");
  }

  @Test
  void statusWriteRefusedForAPassingReason_isWrittenOnALaterTry() {
    DynamicObject pod = create("web", "Always", "");
    // the API server's watch cache runs behind: the read before the write ends in 504
    client.failNext(Action.GET, ResourceType.PODS, StatusException.tooLargeResourceVersion(9, 5));

    workers.sync(pod);
    // the server's own Pending (kube's PrepareForCreate), without the node agent's hostIP
    assertThat(current("web").get("status", "hostIP")).as("nothing written yet").isEmpty();

    clock.advance(Duration.ofSeconds(1));
    assertThat(text(current("web"), "status", "phase")).isEqualTo("Pending");
    clock.advance(Duration.ofSeconds(2));
    assertThat(text(current("web"), "status", "phase")).isEqualTo("Running");
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
  void simulateComplete_withOnFailure_succeeds_withAlways_backsOff() {
    workers.sync(create("batch", "OnFailure", "\"listwatch.io/simulate\":\"complete\""));
    workers.sync(create("svc", "Always", "\"listwatch.io/simulate\":\"complete\""));
    clock.advance(Duration.ofSeconds(2));
    workers.sync(current("batch"));
    workers.sync(current("svc"));

    assertThat(text(current("batch"), "status", "phase")).isEqualTo("Succeeded");
    DynamicObject svc = current("svc");
    assertThat(text(svc, "status", "phase")).isEqualTo("Running");
    JsonNode container = container(svc);
    assertThat(container.path("restartCount").asInt()).isEqualTo(1);
    assertThat(container.path("state").path("waiting").path("reason").asText()).isEqualTo("CrashLoopBackOff");
    assertThat(container.path("lastState").path("terminated").path("reason").asText()).isEqualTo("Completed");
  }

  @Test
  void simulateFail_withAlways_crashLoopsWithADoublingBackOff_andRunsOnceTheAnnotationGoes() {
    workers.sync(create("web", "Always", "\"listwatch.io/simulate\":\"fail\""));
    clock.advance(Duration.ofSeconds(2));
    String uid = current("web").uid();
    workers.sync(current("web"));

    // exited at 00:00:02, restarted at once, exited again: back-off 10 s
    DynamicObject pod = current("web");
    assertThat(text(pod, "status", "phase")).isEqualTo("Running");
    JsonNode c = container(pod);
    assertThat(c.path("state").path("waiting").path("reason").asText()).isEqualTo("CrashLoopBackOff");
    assertThat(c.path("state").path("waiting").path("message").asText())
        .isEqualTo("back-off 10s restarting failed container=app pod=web_default(" + uid + ")");
    assertThat(c.path("restartCount").asInt()).isEqualTo(1);
    assertThat(c.path("ready").asBoolean()).isFalse();
    assertThat(c.path("lastState").path("terminated").path("exitCode").asInt()).isEqualTo(1);
    assertThat(c.path("lastState").path("terminated").path("reason").asText()).isEqualTo("Error");
    assertThat(c.path("lastState").path("terminated").path("finishedAt").asText()).isEqualTo("2026-01-01T00:00:02Z");
    assertThat(condition(pod, "Ready")).isEqualTo("False/ContainersNotReady");

    workers.sync(current("web"));
    clock.advance(Duration.ofSeconds(9));
    assertThat(container(current("web")).path("restartCount").asInt()).as("still backing off").isEqualTo(1);

    clock.advance(Duration.ofSeconds(1));
    c = container(current("web"));
    assertThat(c.path("restartCount").asInt()).isEqualTo(2);
    assertThat(c.path("state").path("waiting").path("message").asText()).startsWith("back-off 20s restarting");
    assertThat(c.path("lastState").path("terminated").path("finishedAt").asText()).isEqualTo("2026-01-01T00:00:12Z");

    List<String> backOffs = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      clock.advance(clock.nextDue());
      String message = container(current("web")).path("state").path("waiting").path("message").asText();
      backOffs.add(message.substring(0, message.indexOf(' ', "back-off ".length())));
    }
    assertThat(backOffs).containsExactly("back-off 40s", "back-off 1m20s", "back-off 2m40s", "back-off 5m0s",
        "back-off 5m0s", "back-off 5m0s");
    assertThat(container(current("web")).path("restartCount").asInt()).isEqualTo(8);

    var healed = current("web").toTree();
    healed.with("metadata").with("annotations").remove("listwatch.io/simulate");
    workers.sync(pods.update(DynamicObject.of(healed)));
    assertThat(container(current("web")).path("state").has("waiting")).as("restarts only when the back-off ends")
        .isTrue();
    clock.advance(clock.nextDue());
    pod = current("web");
    c = container(pod);
    assertThat(c.path("restartCount").asInt()).isEqualTo(9);
    assertThat(c.path("state").path("running").path("startedAt").asText()).isNotEmpty();
    assertThat(c.path("ready").asBoolean()).isTrue();
    assertThat(c.path("lastState").path("terminated").path("exitCode").asInt()).isEqualTo(1);
    assertThat(condition(pod, "Ready")).isEqualTo("True/");
  }

  @Test
  void crashLoopBackOff_startsOverAtTenSeconds_afterTenMinutesOfRunning() {
    workers.sync(create("web", "Always", "\"listwatch.io/simulate\":\"restart\""));
    clock.advance(Duration.ofSeconds(2));
    workers.sync(current("web"));
    setAnnotation("web", null);
    clock.advance(Duration.ofSeconds(10));
    assertThat(container(current("web")).path("state").has("running")).isTrue();

    // a minute later the container is killed again: no immediate restart, back-off 20 s
    clock.advance(Duration.ofMinutes(1));
    workers.sync(setAnnotation("web", "restart"));
    JsonNode c = container(current("web"));
    assertThat(c.path("restartCount").asInt()).isEqualTo(2);
    assertThat(c.path("state").path("waiting").path("message").asText()).startsWith("back-off 20s ");
    assertThat(c.path("lastState").path("terminated").path("exitCode").asInt()).isEqualTo(137);
    setAnnotation("web", null);
    clock.advance(Duration.ofSeconds(20));
    assertThat(container(current("web")).path("restartCount").asInt()).isEqualTo(3);

    // eleven minutes later: restarted at once, then back-off 10 s again
    clock.advance(Duration.ofMinutes(11));
    workers.sync(setAnnotation("web", "restart"));
    c = container(current("web"));
    assertThat(c.path("restartCount").asInt()).isEqualTo(4);
    assertThat(c.path("state").path("waiting").path("message").asText()).startsWith("back-off 10s ");
  }

  @Test
  void podFoundInCrashLoopBackOff_withoutTheAnnotation_runsAfterABackOff() {
    workers.sync(create("web", "Always", "\"listwatch.io/simulate\":\"fail\""));
    clock.advance(Duration.ofSeconds(2));
    workers.sync(current("web"));
    assertThat(container(current("web")).path("state").path("waiting").path("reason").asText())
        .isEqualTo("CrashLoopBackOff");
    setAnnotation("web", null);

    // another agent (restarted) finds the pod backing off
    PodWorkers restarted = new PodWorkers(pods, clock, Runnable::run, new PodIpAllocator("10.244.1.0/24"),
        "192.168.0.10", Duration.ofSeconds(2), new Backoff(clock, Duration.ofSeconds(10), Duration.ofMinutes(5)),
        "n1");
    workers.close();
    restarted.sync(current("web"));
    clock.advance(Duration.ofSeconds(9));
    assertThat(container(current("web")).path("state").has("waiting")).isTrue();
    clock.advance(Duration.ofSeconds(1));
    JsonNode c = container(current("web"));
    assertThat(c.path("state").path("running").path("startedAt").asText()).isEqualTo("2026-01-01T00:00:12Z");
    assertThat(c.path("restartCount").asInt()).isEqualTo(2);
  }

  @Test
  void statusOverwrittenThroughTheApi_isWrittenBack_keepingConditionsTheAgentDoesNotOwn() {
    workers.sync(create("web", "Always", ""));
    clock.advance(Duration.ofSeconds(2));
    DynamicObject running = current("web");

    var overwritten = running.toTree();
    overwritten.with("status").put("phase", "Pending").remove("podIP");
    overwritten.with("status").withArray("conditions").addObject().put("type", "DisruptionTarget")
        .put("status", "True").put("reason", "EvictionByEvictionAPI");
    workers.sync(pods.updateStatus(DynamicObject.of(overwritten)));

    DynamicObject restored = current("web");
    assertThat(text(restored, "status", "phase")).isEqualTo("Running");
    assertThat(text(restored, "status", "podIP")).isEqualTo(text(running, "status", "podIP"));
    assertThat(condition(restored, "DisruptionTarget")).isEqualTo("True/EvictionByEvictionAPI");

    client.clearActions();
    workers.sync(current("web"));
    assertThat(client.actionsFor(Action.UPDATE, ResourceType.PODS)).as("nothing to write back").isEmpty();
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
