package io.listwatch.nodeagent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.client.DeleteOptions;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * "Runs" the pods bound to the node by simulation, writing their status through
 * {@code pods/<name>/status} as the kubelet's status manager does.
 *
 * <ul>
 *   <li>A new pod gets an IP from the node's pod CIDR and the status Pending with its
 *       containers waiting (ContainerCreating); {@code containerStartDelay} later, Running and
 *       Ready with the containers running since then. A pod found already Running with an IP
 *       of the range (an agent restart) is adopted as it is.
 *   <li>{@link Simulation}'s annotation makes the containers exit or restart.
 *   <li>A pod marked for deletion is deleted for good ({@code gracePeriodSeconds: 0} with the
 *       pod's uid as precondition) once its grace period has passed on the clock (no later
 *       than its {@code deletionTimestamp}, for a pod found already marked); at once if its
 *       containers are not running (terminal, or not started).
 *   <li>A pod gone from the API server is forgotten and its IP freed.
 * </ul>
 *
 * <p>Confined to the agent's pod worker thread, {@code worker}: every method is called there,
 * and timers hand their work back to it.
 */
final class PodWorkers {

  private static final Logger log = LoggerFactory.getLogger(PodWorkers.class);

  /** What the worker knows of one pod, by UID. */
  private static final class State {
    final String namespace;
    final String name;
    boolean started;
    boolean terminating;
    Simulation applied;
    Clock.Cancellable timer;

    State(String namespace, String name) {
      this.namespace = namespace;
      this.name = name;
    }
  }

  private final ResourceClient<DynamicObject> pods;
  private final Clock clock;
  private final Executor worker;
  private final PodIpAllocator ips;
  private final String hostIp;
  private final Duration containerStartDelay;
  private final String logName;
  private final Map<String, State> states = new HashMap<>();

  PodWorkers(ResourceClient<DynamicObject> pods, Clock clock, Executor worker, PodIpAllocator ips, String hostIp,
      Duration containerStartDelay, String nodeName) {
    this.pods = Objects.requireNonNull(pods, "pods");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.worker = Objects.requireNonNull(worker, "worker");
    this.ips = Objects.requireNonNull(ips, "ips");
    this.hostIp = Objects.requireNonNull(hostIp, "hostIp");
    this.containerStartDelay = Objects.requireNonNull(containerStartDelay, "containerStartDelay");
    this.logName = "PodWorkers[" + nodeName + "]";
  }

  /** Number of pods known (for tests and metrics). */
  int size() {
    return states.size();
  }

  /** A pod added or changed: start it, or act on its simulation annotation. */
  void sync(DynamicObject pod) {
    if (pod.get("metadata", "deletionTimestamp").filter(n -> !n.isNull()).isPresent()) {
      terminate(pod);
      return;
    }
    State state = states.computeIfAbsent(pod.uid(), uid -> new State(pod.namespace(), pod.name()));
    String phase = pod.get("status", "phase").map(n -> n.asText()).orElse("");
    if (phase.equals("Succeeded") || phase.equals("Failed")) {
      state.started = true;
      return;
    }
    if (!state.started) {
      String podIp = pod.get("status", "podIP").map(n -> n.asText()).orElse("");
      if (phase.equals("Running") && !podIp.isEmpty() && ips.reserve(pod.uid(), podIp)) {
        state.started = true;
      } else {
        start(pod, state);
        return;
      }
    }
    Optional<Simulation> sim = Simulation.parse(pod.annotations().get(Simulation.ANNOTATION));
    if (sim.isEmpty()) {
      state.applied = null;
    } else if (phase.equals("Running") && sim.get() != state.applied) {
      state.applied = sim.get();
      simulate(pod, sim.get());
    }
  }

  private void start(DynamicObject pod, State state) {
    Optional<String> ip = ips.allocate(pod.uid());
    if (ip.isEmpty()) {
      log.warn("{}: no free IP for pod {}/{}; it stays Pending", logName, pod.namespace(), pod.name());
      return;
    }
    state.started = true;
    String uid = pod.uid();
    writeStatus(state, uid, (p, now) -> PodStatuses.creating(p, hostIp, now));
    state.timer = clock.schedule(containerStartDelay, () -> worker.execute(() -> {
      State s = states.get(uid);
      if (s != null && !s.terminating) {
        writeStatus(s, uid, (p, now) -> PodStatuses.running(p, hostIp, ip.get(), now));
      }
    }));
  }

  private void simulate(DynamicObject pod, Simulation sim) {
    State state = states.get(pod.uid());
    String policy = pod.get("spec", "restartPolicy").map(n -> n.asText()).orElse("Always");
    if (sim.restarts(policy)) {
      writeStatus(state, pod.uid(), (p, now) -> PodStatuses.restarted(p, sim.exitCode, now));
    } else {
      writeStatus(state, pod.uid(), (p, now) -> PodStatuses.terminated(p, sim.exitCode, now));
    }
  }

  /**
   * A pod marked for deletion: deletes it for good after its grace period
   * ({@code deletionGracePeriodSeconds}, 30 when absent, but no later than
   * {@code deletionTimestamp}), or at once when its containers are not running.
   */
  void terminate(DynamicObject pod) {
    State state = states.computeIfAbsent(pod.uid(), uid -> new State(pod.namespace(), pod.name()));
    if (state.terminating) {
      return;
    }
    state.terminating = true;
    if (state.timer != null) {
      state.timer.cancel();
    }
    String phase = pod.get("status", "phase").map(n -> n.asText()).orElse("");
    boolean running = phase.equals("Running");
    long grace = pod.get("metadata", "deletionGracePeriodSeconds").map(n -> n.asLong()).orElse(30L);
    Instant deadline = Times.parse(pod.get("metadata", "deletionTimestamp").map(n -> n.asText()).orElse(""));
    if (deadline != null) {
      grace = Math.max(0, Math.min(grace, Duration.between(clock.now(), deadline).toSeconds()));
    }
    String uid = pod.uid();
    Runnable delete = () -> {
      try {
        pods.delete(pod.namespace(), pod.name(), DeleteOptions.immediate(uid));
      } catch (StatusException e) {
        log.debug("{}: final delete of {}/{}: {}", logName, pod.namespace(), pod.name(), e.getMessage());
      } catch (RuntimeException e) {
        log.warn("{}: final delete of {}/{} failed: {}", logName, pod.namespace(), pod.name(), e.toString());
      }
    };
    if (!running || grace <= 0) {
      delete.run();
    } else {
      state.timer = clock.schedule(Duration.ofSeconds(grace), () -> worker.execute(delete));
    }
  }

  /** A pod gone from the API server: forget it and free its IP. */
  void forget(DynamicObject pod) {
    State state = states.remove(pod.uid());
    if (state != null && state.timer != null) {
      state.timer.cancel();
    }
    ips.release(pod.uid());
  }

  /** Cancels every timer (the agent is closing). */
  void close() {
    for (State s : states.values()) {
      if (s.timer != null) {
        s.timer.cancel();
      }
    }
  }

  /**
   * Writes the status {@code next} computes from the latest pod, retrying conflicts; does
   * nothing when the pod is gone or is another one (another uid).
   */
  private void writeStatus(State state, String uid, BiFunction<ObjectNode, Instant, ObjectNode> next) {
    for (int attempt = 0; attempt < 5; attempt++) {
      try {
        Optional<DynamicObject> latest = pods.get(state.namespace, state.name);
        if (latest.isEmpty() || !uid.equals(latest.get().uid())) {
          return;
        }
        ObjectNode tree = latest.get().toTree();
        tree.set("status", next.apply(tree, clock.now()));
        pods.updateStatus(DynamicObject.of(tree));
        return;
      } catch (StatusException e) {
        if (e.status().code() != 409) {
          log.warn("{}: status of {}/{}: {}", logName, state.namespace, state.name, e.getMessage());
          return;
        }
      } catch (RuntimeException e) {
        log.warn("{}: status of {}/{}: {}", logName, state.namespace, state.name, e.toString());
        return;
      }
    }
  }
}
