package io.listwatch.nodeagent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.meta.KubeTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The pod statuses a simulated runtime reports, shaped as the kubelet's: what a pod's status
 * is while its containers are being created, once they run, once they have exited for good,
 * and the steps of a crash loop (exit, wait in CrashLoopBackOff, restart). Each builds a new status from the pod's current one, keeping
 * {@code startTime} and the {@code lastTransitionTime} of conditions whose status did not
 * change. Stateless.
 */
final class PodStatuses {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private PodStatuses() {
  }

  /** Pending: scheduled and initialized, containers waiting with reason ContainerCreating. */
  static ObjectNode creating(ObjectNode pod, String hostIp, Instant now) {
    ObjectNode status = base(pod, "Pending", hostIp, now);
    conditions(pod, status, now, false, "ContainersNotReady");
    ArrayNode containers = status.putArray("containerStatuses");
    for (JsonNode c : containers(pod)) {
      ObjectNode cs = container(c, false);
      cs.putObject("state").putObject("waiting").put("reason", "ContainerCreating");
      containers.add(cs);
    }
    return status;
  }

  /** Running: every container running since {@code now}, the pod Ready with {@code podIp}. */
  static ObjectNode running(ObjectNode pod, String hostIp, String podIp, Instant now) {
    ObjectNode status = base(pod, "Running", hostIp, now);
    status.put("podIP", podIp);
    status.putArray("podIPs").addObject().put("ip", podIp);
    conditions(pod, status, now, true, "");
    ArrayNode containers = status.putArray("containerStatuses");
    JsonNode old = PodTrees.status(pod).path("containerStatuses");
    for (JsonNode c : containers(pod)) {
      ObjectNode cs = container(c, true);
      JsonNode previous = find(old, c.path("name").asText());
      String startedAt = previous.path("state").path("running").path("startedAt").asText("");
      cs.putObject("state").putObject("running").put("startedAt", startedAt.isEmpty() ? KubeTime.time(now) : startedAt);
      cs.put("restartCount", previous.path("restartCount").asInt(0));
      if (previous.has("lastState")) {
        cs.set("lastState", previous.get("lastState").deepCopy());
      }
      containers.add(cs);
    }
    return status;
  }

  /**
   * Every container exited with {@code exitCode} and is not restarted: Succeeded for 0, else
   * Failed; the pod is no longer Ready (reason PodCompleted) and keeps its IP.
   */
  static ObjectNode terminated(ObjectNode pod, int exitCode, Instant now) {
    ObjectNode status = PodTrees.status(pod).deepCopy();
    status.put("phase", exitCode == 0 ? "Succeeded" : "Failed");
    setCondition(status, "Ready", false, "PodCompleted", now);
    setCondition(status, "ContainersReady", false, "PodCompleted", now);
    ArrayNode containers = status.putArray("containerStatuses");
    JsonNode old = PodTrees.status(pod).path("containerStatuses");
    for (JsonNode c : containers(pod)) {
      ObjectNode cs = container(c, false);
      JsonNode previous = find(old, c.path("name").asText());
      cs.put("restartCount", previous.path("restartCount").asInt(0));
      cs.set("state", JSON.objectNode().set("terminated", exit(previous, exitCode, now)));
      containers.add(cs);
    }
    return status;
  }

  /*
   * The crash loop, as steps on a copy of a Running pod's status, applied to every container:
   * exitAll, then restartAll or backOffAll, then readiness for the pod's conditions.
   */

  /** Every container exits with {@code exitCode} at {@code now}: its state is terminated. */
  static void exitAll(ObjectNode status, int exitCode, Instant now) {
    for (ObjectNode cs : containerStatuses(status)) {
      ObjectNode exit = exit(cs, exitCode, now);
      cs.set("state", JSON.objectNode().set("terminated", exit));
      cs.put("ready", false).put("started", false);
    }
  }

  /**
   * Every container is started again at {@code now}: {@code restartCount} + 1, its last exit
   * (a terminated state, or already in {@code lastState}) in {@code lastState}, running.
   */
  static void restartAll(ObjectNode status, Instant now) {
    for (ObjectNode cs : containerStatuses(status)) {
      lastStateFromExit(cs);
      cs.put("restartCount", cs.path("restartCount").asInt(0) + 1);
      cs.set("state", JSON.objectNode().set("running", JSON.objectNode().put("startedAt", KubeTime.time(now))));
      cs.put("ready", true).put("started", true);
    }
  }

  /**
   * Every exited container waits to be restarted, as kube shows it: the exit in
   * {@code lastState}, the state waiting with reason {@code CrashLoopBackOff} and the message
   * {@code message} makes of the container's name.
   */
  static void backOffAll(ObjectNode status, Function<String, String> message) {
    for (ObjectNode cs : containerStatuses(status)) {
      lastStateFromExit(cs);
      cs.set("state", JSON.objectNode().set("waiting", JSON.objectNode().put("reason", "CrashLoopBackOff")
          .put("message", message.apply(cs.path("name").asText()))));
      cs.put("ready", false).put("started", false);
    }
  }

  /**
   * The pod's ContainersReady and Ready conditions from its containers: True when every one is
   * ready, else False with reason ContainersNotReady and the kubelet's message naming them.
   */
  static void readiness(ObjectNode status, Instant now) {
    List<String> unready = new ArrayList<>();
    for (ObjectNode cs : containerStatuses(status)) {
      if (!cs.path("ready").asBoolean(false)) {
        unready.add(cs.path("name").asText());
      }
    }
    String message = "containers with unready status: [" + String.join(" ", unready) + "]";
    for (String type : List.of("ContainersReady", "Ready")) {
      setCondition(status, type, unready.isEmpty(), unready.isEmpty() ? "" : "ContainersNotReady", now);
      for (JsonNode c : status.path("conditions")) {
        if (c.path("type").asText().equals(type) && c instanceof ObjectNode o) {
          if (unready.isEmpty()) {
            o.remove("message");
          } else {
            o.put("message", message);
          }
        }
      }
    }
  }

  private static void lastStateFromExit(ObjectNode cs) {
    JsonNode terminated = cs.path("state").path("terminated");
    if (terminated.isObject()) {
      cs.set("lastState", JSON.objectNode().set("terminated", terminated.deepCopy()));
    }
  }

  private static List<ObjectNode> containerStatuses(ObjectNode status) {
    List<ObjectNode> all = new ArrayList<>();
    for (JsonNode cs : status.path("containerStatuses")) {
      if (cs instanceof ObjectNode o) {
        all.add(o);
      }
    }
    return all;
  }

  private static ObjectNode exit(JsonNode previous, int exitCode, Instant now) {
    ObjectNode t = JSON.objectNode().put("exitCode", exitCode).put("reason", exitCode == 0 ? "Completed" : "Error");
    String startedAt = previous.path("state").path("running").path("startedAt").asText("");
    if (!startedAt.isEmpty()) {
      t.put("startedAt", startedAt);
    }
    t.put("finishedAt", KubeTime.time(now));
    return t;
  }

  private static ObjectNode base(ObjectNode pod, String phase, String hostIp, Instant now) {
    JsonNode old = PodTrees.status(pod);
    ObjectNode status = JSON.objectNode();
    status.put("phase", phase);
    status.put("hostIP", hostIp);
    status.putArray("hostIPs").addObject().put("ip", hostIp);
    String startTime = old.path("startTime").asText("");
    status.put("startTime", startTime.isEmpty() ? KubeTime.time(now) : startTime);
    status.put("qosClass", old.path("qosClass").asText("BestEffort"));
    if (old.has("conditions")) {
      status.set("conditions", old.get("conditions").deepCopy());
    }
    return status;
  }

  private static void conditions(ObjectNode pod, ObjectNode status, Instant now, boolean ready, String reason) {
    setCondition(status, "PodReadyToStartContainers", true, "", now);
    setCondition(status, "Initialized", true, "", now);
    setCondition(status, "Ready", ready, reason, now);
    setCondition(status, "ContainersReady", ready, reason, now);
    setCondition(status, "PodScheduled", true, "", now);
  }

  /** Sets a condition, keeping its lastTransitionTime when its status stays. */
  static void setCondition(ObjectNode status, String type, boolean value, String reason, Instant now) {
    ArrayNode conditions = status.get("conditions") instanceof ArrayNode a ? a : status.putArray("conditions");
    String text = value ? "True" : "False";
    ObjectNode c = null;
    for (JsonNode n : conditions) {
      if (n.path("type").asText().equals(type) && n instanceof ObjectNode o) {
        c = o;
      }
    }
    if (c == null) {
      c = conditions.addObject().put("type", type);
    }
    if (!text.equals(c.path("status").asText()) || !c.has("lastTransitionTime")) {
      c.put("lastTransitionTime", KubeTime.time(now));
    }
    c.put("status", text);
    c.putNull("lastProbeTime");
    if (reason.isEmpty()) {
      c.remove("reason");
    } else {
      c.put("reason", reason);
    }
  }

  private static ObjectNode container(JsonNode spec, boolean ready) {
    String image = spec.path("image").asText();
    return JSON.objectNode().put("name", spec.path("name").asText()).put("image", image).put("imageID", image)
        .put("containerID", "listwatch://" + spec.path("name").asText())
        .put("ready", ready).put("started", ready).put("restartCount", 0);
  }

  private static JsonNode containers(ObjectNode pod) {
    return PodTrees.spec(pod).path("containers");
  }

  private static JsonNode find(JsonNode statuses, String name) {
    for (JsonNode s : statuses) {
      if (s.path("name").asText().equals(name)) {
        return s;
      }
    }
    return JSON.missingNode();
  }
}
