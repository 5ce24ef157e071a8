package io.listwatch.nodeagent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.GoDuration;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.api.meta.KubeTime;
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
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * "Runs" the pods bound to the node by simulation; their status goes through the
 * {@link PodStatusManager}.
 *
 * <ul>
 *   <li>A new pod gets an IP from the node's pod CIDR and the status Pending with its
 *       containers waiting (ContainerCreating); {@code containerStartDelay} later, Running and
 *       Ready with the containers running since then. A pod found already Running with an IP
 *       of the range (an agent restart) is adopted as it is; one found in CrashLoopBackOff is
 *       restarted after a back-off.
 *   <li>While {@link Simulation}'s annotation is set, the containers of a running pod exit each
 *       time they start. When the pod's {@code restartPolicy} restarts them, they do so with
 *       the kubelet's exponential back-off ({@link Backoff}), waiting meanwhile with reason
 *       {@code CrashLoopBackOff}; the first restart after a while is immediate. Once the
 *       annotation is gone, the next restart keeps running. Otherwise the pod ends Succeeded
 *       or Failed.
 *   <li>On every update of a pod, its status is written back if the API server's is not the
 *       agent's ({@link PodStatusManager#reconcile}).
 *   <li>A pod marked for deletion is deleted for good ({@code gracePeriodSeconds: 0} with the
 *       pod's uid as precondition) once its grace period has passed on the clock (no later
 *       than its {@code deletionTimestamp}, for a pod found already marked); at once if its
 *       containers are not running (terminal, not started, or backing off).
 *   <li>A pod gone from the API server is forgotten and its IP freed.
 * </ul>
 *
 * <p>Confined to the agent's pod worker thread, {@code worker}: every method is called there,
 * and timers hand their work back to it.
 */
final class PodWorkers {

  private static final Logger log = LoggerFactory.getLogger(PodWorkers.class);

  /** Where a pod's simulated containers are. */
  private enum Runtime { CREATING, RUNNING, BACKING_OFF, TERMINATED }

  /** What the worker knows of one pod, by UID. */
  private static final class State {
    final String namespace;
    final String name;
    /** Null until the pod is started or adopted. */
    Runtime runtime;
    boolean terminating;
    /** When the containers last exited (BACKING_OFF). */
    Instant lastExit;
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
  private final Backoff backoff;
  private final PodStatusManager statuses;
  private final String logName;
  private final Map<String, State> states = new HashMap<>();

  PodWorkers(ResourceClient<DynamicObject> pods, Clock clock, Executor worker, PodIpAllocator ips, String hostIp,
      Duration containerStartDelay, Backoff backoff, String nodeName) {
    this.pods = Objects.requireNonNull(pods, "pods");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.worker = Objects.requireNonNull(worker, "worker");
    this.ips = Objects.requireNonNull(ips, "ips");
    this.hostIp = Objects.requireNonNull(hostIp, "hostIp");
    this.containerStartDelay = Objects.requireNonNull(containerStartDelay, "containerStartDelay");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.statuses = new PodStatusManager(pods, clock, worker, nodeName);
    this.logName = "PodWorkers[" + nodeName + "]";
  }

  /** Number of pods known (for tests and metrics). */
  int size() {
    return states.size();
  }

  /**
   * A pod added or changed (or its status alone: a RECONCILE): start it, write its status back
   * if it is not the agent's, make its containers exit when its annotation asks.
   */
  void sync(DynamicObject pod) {
    if (pod.get("metadata", "deletionTimestamp").filter(n -> !n.isNull()).isPresent()) {
      terminate(pod);
      return;
    }
    State state = states.computeIfAbsent(pod.uid(), uid -> new State(pod.namespace(), pod.name()));
    if (state.runtime == null) {
      String phase = pod.get("status", "phase").map(n -> n.asText()).orElse("");
      String podIp = pod.get("status", "podIP").map(n -> n.asText()).orElse("");
      if (phase.equals("Succeeded") || phase.equals("Failed")) {
        state.runtime = Runtime.TERMINATED;
        statuses.adopt(pod);
        return;
      }
      if (phase.equals("Running") && !podIp.isEmpty() && ips.reserve(pod.uid(), podIp)) {
        state.runtime = Runtime.RUNNING;
        statuses.adopt(pod);
        if (backingOff(pod)) {
          // found in CrashLoopBackOff (the agent restarted): restarted after a back-off from now
          String uid = pod.uid();
          state.runtime = Runtime.BACKING_OFF;
          state.lastExit = clock.now();
          backoff.next(uid, state.lastExit);
          state.timer = clock.schedule(backoff.get(uid), () -> worker.execute(() -> restartAfterBackOff(uid)));
          return;
        }
      } else {
        start(pod, state);
        return;
      }
    } else {
      statuses.reconcile(pod);
    }
    Optional<Simulation> sim = Simulation.parse(pod.annotations().get(Simulation.ANNOTATION));
    if (state.runtime == Runtime.RUNNING && sim.isPresent()) {
      exited(pod.uid(), state, sim.get(), restartPolicy(pod));
    }
  }

  private void start(DynamicObject pod, State state) {
    Optional<String> ip = ips.allocate(pod.uid());
    if (ip.isEmpty()) {
      log.warn("{}: no free IP for pod {}/{}; it stays Pending", logName, pod.namespace(), pod.name());
      return;
    }
    state.runtime = Runtime.CREATING;
    String uid = pod.uid();
    statuses.setStatus(state.namespace, state.name, uid, (p, now) -> PodStatuses.creating(p, hostIp, now));
    state.timer = clock.schedule(containerStartDelay, () -> worker.execute(() -> {
      State s = states.get(uid);
      if (s != null && !s.terminating && s.runtime == Runtime.CREATING) {
        s.runtime = Runtime.RUNNING;
        statuses.setStatus(s.namespace, s.name, uid, (p, now) -> PodStatuses.running(p, hostIp, ip.get(), now));
      }
    }));
  }

  /**
   * The running containers of pod {@code uid} exit now as {@code sim} asks: the pod ends when
   * its policy does not restart them; else they are restarted at once if the back-off allows
   * (and, the annotation still being set, exit again), and wait in CrashLoopBackOff.
   */
  private void exited(String uid, State state, Simulation sim, String policy) {
    if (!sim.restarts(policy)) {
      state.runtime = Runtime.TERMINATED;
      statuses.setStatus(state.namespace, state.name, uid, (p, now) -> PodStatuses.terminated(p, sim.exitCode, now));
      return;
    }
    Instant now = clock.now();
    boolean restartNow = !backoff.isInBackOffSince(uid, now);
    if (restartNow) {
      backoff.next(uid, now);
    }
    backOff(uid, state, now, (status, t) -> {
      PodStatuses.exitAll(status, sim.exitCode, t);
      if (restartNow) {
        PodStatuses.restartAll(status, t);
        PodStatuses.exitAll(status, sim.exitCode, t);
      }
    });
  }

  /**
   * Writes the containers of pod {@code uid} waiting in CrashLoopBackOff after {@code steps},
   * and schedules their restart when the back-off, counted from their exit {@code now}, ends.
   */
  private void backOff(String uid, State state, Instant now, BiConsumer<ObjectNode, Instant> steps) {
    state.runtime = Runtime.BACKING_OFF;
    state.lastExit = now;
    Duration wait = backoff.get(uid);
    String pod = state.name + "_" + state.namespace + "(" + uid + ")";
    statuses.setStatus(state.namespace, state.name, uid, (p, t) -> {
      ObjectNode status = PodTrees.status(p).deepCopy();
      steps.accept(status, t);
      PodStatuses.backOffAll(status, container -> "back-off " + GoDuration.format(wait.toNanos())
          + " restarting failed container=" + container + " pod=" + pod);
      PodStatuses.readiness(status, t);
      return status;
    });
    state.timer = clock.schedule(wait, () -> worker.execute(() -> restartAfterBackOff(uid)));
  }

  /**
   * The back-off of pod {@code uid} is over: its containers start again; they run, or, while
   * the annotation is still set, exit at once and back off longer (or end the pod when the
   * policy no longer restarts them).
   */
  private void restartAfterBackOff(String uid) {
    State state = states.get(uid);
    if (state == null || state.terminating || state.runtime != Runtime.BACKING_OFF) {
      return;
    }
    Optional<DynamicObject> latest = pods.get(state.namespace, state.name).filter(p -> uid.equals(p.uid()));
    if (latest.isEmpty()) {
      return;
    }
    backoff.next(uid, state.lastExit);
    Optional<Simulation> sim = Simulation.parse(latest.get().annotations().get(Simulation.ANNOTATION));
    if (sim.isEmpty()) {
      state.runtime = Runtime.RUNNING;
      statuses.setStatus(state.namespace, state.name, uid, (p, t) -> {
        ObjectNode status = PodTrees.status(p).deepCopy();
        PodStatuses.restartAll(status, t);
        PodStatuses.readiness(status, t);
        return status;
      });
    } else if (!sim.get().restarts(restartPolicy(latest.get()))) {
      state.runtime = Runtime.TERMINATED;
      statuses.setStatus(state.namespace, state.name, uid, (p, t) -> {
        ObjectNode status = PodTrees.status(p).deepCopy();
        PodStatuses.restartAll(status, t);
        p.set("status", status);
        return PodStatuses.terminated(p, sim.get().exitCode, t);
      });
    } else {
      backOff(uid, state, clock.now(), (status, t) -> {
        PodStatuses.restartAll(status, t);
        PodStatuses.exitAll(status, sim.get().exitCode, t);
      });
    }
  }

  /** Whether a container of {@code pod} waits in CrashLoopBackOff. */
  private static boolean backingOff(DynamicObject pod) {
    for (JsonNode cs : pod.get("status", "containerStatuses").orElse(MissingNode.getInstance())) {
      if (cs.path("state").path("waiting").path("reason").asText().equals("CrashLoopBackOff")) {
        return true;
      }
    }
    return false;
  }

  private static String restartPolicy(DynamicObject pod) {
    return pod.get("spec", "restartPolicy").map(n -> n.asText()).orElse("Always");
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
    boolean running = state.runtime == null ? phase.equals("Running") : state.runtime == Runtime.RUNNING;
    long grace = pod.get("metadata", "deletionGracePeriodSeconds").map(n -> n.asLong()).orElse(30L);
    Instant deadline = KubeTime.parse(pod.get("metadata", "deletionTimestamp").map(n -> n.asText()).orElse(""));
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
    backoff.reset(pod.uid());
    statuses.forget(pod.uid());
  }

  /** Cancels every timer (the agent is closing). */
  void close() {
    for (State s : states.values()) {
      if (s.timer != null) {
        s.timer.cancel();
      }
    }
  }
}
