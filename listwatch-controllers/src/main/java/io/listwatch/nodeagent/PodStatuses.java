package io.listwatch.nodeagent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/**
 * The pod statuses a simulated runtime reports, shaped as the kubelet's: what a pod's status
 * is while its containers are being created, once they run, once they have exited, and after
 * a container restarted. Each builds a new status from the pod's current one, keeping
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
      cs.putObject("state").putObject("running").put("startedAt", startedAt.isEmpty() ? Times.time(now) : startedAt);
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

  /**
   * Every container exited with {@code exitCode} and was started again: restartCount + 1, the
   * exit in {@code lastState}, running since {@code now}.
   */
  static ObjectNode restarted(ObjectNode pod, int exitCode, Instant now) {
    ObjectNode status = PodTrees.status(pod).deepCopy();
    ArrayNode containers = status.putArray("containerStatuses");
    JsonNode old = PodTrees.status(pod).path("containerStatuses");
    for (JsonNode c : containers(pod)) {
      ObjectNode cs = container(c, true);
      JsonNode previous = find(old, c.path("name").asText());
      cs.put("restartCount", previous.path("restartCount").asInt(0) + 1);
      cs.set("lastState", JSON.objectNode().set("terminated", exit(previous, exitCode, now)));
      cs.putObject("state").putObject("running").put("startedAt", Times.time(now));
      containers.add(cs);
    }
    return status;
  }

  private static ObjectNode exit(JsonNode previous, int exitCode, Instant now) {
    ObjectNode t = JSON.objectNode().put("exitCode", exitCode).put("reason", exitCode == 0 ? "Completed" : "Error");
    String startedAt = previous.path("state").path("running").path("startedAt").asText("");
    if (!startedAt.isEmpty()) {
      t.put("startedAt", startedAt);
    }
    t.put("finishedAt", Times.time(now));
    return t;
  }

  private static ObjectNode base(ObjectNode pod, String phase, String hostIp, Instant now) {
    JsonNode old = PodTrees.status(pod);
    ObjectNode status = JSON.objectNode();
    status.put("phase", phase);
    status.put("hostIP", hostIp);
    status.putArray("hostIPs").addObject().put("ip", hostIp);
    String startTime = old.path("startTime").asText("");
    status.put("startTime", startTime.isEmpty() ? Times.time(now) : startTime);
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
      c.put("lastTransitionTime", Times.time(now));
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
