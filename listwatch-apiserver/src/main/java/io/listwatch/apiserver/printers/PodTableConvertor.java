package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pods as {@code kubectl get pods} shows them: NAME, READY (ready/total containers), STATUS
 * (the phase, or the reason a container or init container gives), RESTARTS (with the time
 * of the last restart), AGE; and with {@code -o wide} IP, NODE, NOMINATED NODE and READINESS
 * GATES. The status logic follows kube's pod printer: init containers first
 * ({@code Init:N/M}, {@code Init:<reason>}), then the app containers from last to first,
 * {@code Terminating} once a deletion is pending, and sidecars (init containers with
 * {@code restartPolicy: Always}) counted among the containers. Stateless.
 */
public final class PodTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(
      ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Ready", "Ready containers out of all containers of the pod."),
      ColumnDefinition.string("Status", "The phase of the pod, or why its containers are not running."),
      ColumnDefinition.string("Restarts", "Container restarts, and how long ago the last one was."),
      ColumnDefinition.ageColumn(),
      ColumnDefinition.wide("IP", "The pod's first IP address."),
      ColumnDefinition.wide("Node", "The node the pod is bound to."),
      ColumnDefinition.wide("Nominated Node", "The node the scheduler nominated for the pod."),
      ColumnDefinition.wide("Readiness Gates", "Readiness gates whose condition is True, out of all."));

  public PodTableConvertor() {
    super(COLUMNS);
  }

  private static final TableRow.Condition SUCCEEDED =
      new TableRow.Condition("Completed", "True", "Succeeded", "The pod has completed successfully.");
  private static final TableRow.Condition FAILED =
      new TableRow.Condition("Completed", "True", "Failed", "The pod failed.");

  @Override
  public TableRow row(JsonNode pod, Instant now) {
    JsonNode spec = pod.path("spec");
    JsonNode status = pod.path("status");
    String phase = Cells.text(status.path("phase"));
    String reason = Cells.text(status.path("reason"), phase);
    for (JsonNode c : Cells.elements(status.path("conditions"))) {
      if (Cells.text(c.path("type")).equals("PodScheduled") && Cells.text(c.path("reason")).equals("SchedulingGated")) {
        reason = "SchedulingGated";
      }
    }
    List<JsonNode> initSpecs = Cells.elements(spec.path("initContainers"));
    Map<String, Boolean> sidecar = new HashMap<>();
    int total = Cells.elements(spec.path("containers")).size();
    for (JsonNode c : initSpecs) {
      boolean always = Cells.text(c.path("restartPolicy")).equals("Always");
      sidecar.put(Cells.text(c.path("name")), always);
      if (always) {
        total++;
      }
    }
    int ready = 0;
    long restarts = 0;
    long sidecarRestarts = 0;
    Instant lastRestart = null;
    Instant lastSidecarRestart = null;
    boolean initializing = false;
    List<JsonNode> initStatuses = Cells.elements(status.path("initContainerStatuses"));
    for (int i = 0; i < initStatuses.size(); i++) {
      JsonNode c = initStatuses.get(i);
      long count = Cells.integer(c.path("restartCount"), 0);
      restarts += count;
      Instant finished = Cells.time(c.path("lastState").path("terminated").path("finishedAt"));
      lastRestart = later(lastRestart, finished);
      boolean isSidecar = sidecar.getOrDefault(Cells.text(c.path("name")), false);
      if (isSidecar) {
        sidecarRestarts += count;
        lastSidecarRestart = later(lastSidecarRestart, finished);
      }
      JsonNode terminated = c.path("state").path("terminated");
      JsonNode waiting = c.path("state").path("waiting");
      if (terminated.isObject() && Cells.integer(terminated.path("exitCode"), 0) == 0) {
        continue;
      }
      if (isSidecar && c.path("started").asBoolean(false)) {
        if (c.path("ready").asBoolean(false)) {
          ready++;
        }
        continue;
      }
      if (terminated.isObject()) {
        String why = Cells.text(terminated.path("reason"));
        if (why.isEmpty()) {
          long signal = Cells.integer(terminated.path("signal"), 0);
          reason = signal != 0 ? "Init:Signal:" + signal
              : "Init:ExitCode:" + Cells.integer(terminated.path("exitCode"), 0);
        } else {
          reason = "Init:" + why;
        }
      } else if (waiting.isObject() && !Cells.text(waiting.path("reason")).isEmpty()
          && !Cells.text(waiting.path("reason")).equals("PodInitializing")) {
        reason = "Init:" + Cells.text(waiting.path("reason"));
      } else {
        reason = "Init:" + i + "/" + initSpecs.size();
      }
      initializing = true;
      break;
    }
    if (!initializing || Cells.conditionTrue(status.path("conditions"), "Initialized")) {
      restarts = sidecarRestarts;
      lastRestart = lastSidecarRestart;
      boolean hasRunning = false;
      List<JsonNode> statuses = Cells.elements(status.path("containerStatuses"));
      for (int i = statuses.size() - 1; i >= 0; i--) {
        JsonNode c = statuses.get(i);
        restarts += Cells.integer(c.path("restartCount"), 0);
        lastRestart = later(lastRestart, Cells.time(c.path("lastState").path("terminated").path("finishedAt")));
        JsonNode waiting = c.path("state").path("waiting");
        JsonNode terminated = c.path("state").path("terminated");
        if (waiting.isObject() && !Cells.text(waiting.path("reason")).isEmpty()) {
          reason = Cells.text(waiting.path("reason"));
        } else if (terminated.isObject() && !Cells.text(terminated.path("reason")).isEmpty()) {
          reason = Cells.text(terminated.path("reason"));
        } else if (terminated.isObject()) {
          long signal = Cells.integer(terminated.path("signal"), 0);
          reason = signal != 0 ? "Signal:" + signal : "ExitCode:" + Cells.integer(terminated.path("exitCode"), 0);
        } else if (c.path("ready").asBoolean(false) && c.path("state").path("running").isObject()) {
          hasRunning = true;
          ready++;
        }
      }
      if (reason.equals("Completed") && hasRunning) {
        reason = Cells.conditionTrue(status.path("conditions"), "Ready") ? "Running" : "NotReady";
      }
    }
    boolean deleting = Cells.deleting(pod);
    if (deleting && Cells.text(status.path("reason")).equals("NodeLost")) {
      reason = "Unknown";
    } else if (deleting && !phase.equals("Succeeded") && !phase.equals("Failed")) {
      reason = "Terminating";
    }
    String restartCell = restarts != 0 && lastRestart != null
        ? restarts + " (" + HumanDuration.since(lastRestart, now) + " ago)" : Long.toString(restarts);

    String ip = "";
    List<JsonNode> ips = Cells.elements(status.path("podIPs"));
    if (!ips.isEmpty()) {
      ip = Cells.text(ips.getFirst().path("ip"));
    }
    String gates = "<none>";
    List<JsonNode> readinessGates = Cells.elements(spec.path("readinessGates"));
    if (!readinessGates.isEmpty()) {
      int trueGates = 0;
      for (JsonNode gate : readinessGates) {
        String type = Cells.text(gate.path("conditionType"));
        for (JsonNode c : Cells.elements(status.path("conditions"))) {
          if (Cells.text(c.path("type")).equals(type)) {
            if (Cells.text(c.path("status")).equals("True")) {
              trueGates++;
            }
            break;
          }
        }
      }
      gates = trueGates + "/" + readinessGates.size();
    }
    List<Object> cells = List.of(Cells.name(pod), ready + "/" + total, reason, restartCell, Cells.age(pod, now),
        ip.isEmpty() ? "<none>" : ip,
        Cells.text(spec.path("nodeName"), "<none>"),
        Cells.text(status.path("nominatedNodeName"), "<none>"),
        gates);
    List<TableRow.Condition> conditions = switch (phase) {
      case "Succeeded" -> List.of(SUCCEEDED);
      case "Failed" -> List.of(FAILED);
      default -> List.of();
    };
    return new TableRow(cells, conditions);
  }

  private static Instant later(Instant a, Instant b) {
    if (b == null) {
      return a;
    }
    return a == null || b.isAfter(a) ? b : a;
  }
}
