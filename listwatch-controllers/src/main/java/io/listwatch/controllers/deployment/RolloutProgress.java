package io.listwatch.controllers.deployment;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * kube's {@code progress.go}: the Progressing condition of a rollout (ReplicaSetUpdated while
 * replicas move, NewReplicaSetAvailable when complete, ProgressDeadlineExceeded when nothing
 * moved for {@code progressDeadlineSeconds}), ReplicaFailure copied from the ReplicaSets, and a
 * requeue at the deadline so a stuck rollout times out without a resync.
 *
 * <p>Thread-safe: stateless apart from its thread-safe collaborators.
 */
final class RolloutProgress {

  /** Where a deployment is queued again. */
  interface Requeue {
    void after(Deployment d, Duration delay);

    void rateLimited(Deployment d);
  }

  private final DeploymentSync sync;
  private final Requeue requeue;

  RolloutProgress(DeploymentSync sync, Requeue requeue) {
    this.sync = sync;
    this.requeue = requeue;
  }

  /** kube's {@code DeploymentComplete}. */
  static boolean complete(Deployment d, DeploymentStatus s) {
    return s.updatedReplicas() == d.replicas() && s.replicas() == d.replicas()
        && s.availableReplicas() == d.replicas() && s.observedGeneration() >= d.generation();
  }

  /** kube's {@code DeploymentProgressing}: more updated, fewer old, more ready or more available. */
  static boolean progressing(Deployment d, DeploymentStatus s) {
    DeploymentStatus old = d.status();
    int oldOld = old.replicas() - old.updatedReplicas();
    int newOld = s.replicas() - s.updatedReplicas();
    return s.updatedReplicas() > old.updatedReplicas() || newOld < oldOld
        || s.readyReplicas() > old.readyReplicas() || s.availableReplicas() > old.availableReplicas();
  }

  /** kube's {@code DeploymentTimedOut}. */
  boolean timedOut(Deployment d, DeploymentStatus s) {
    if (!d.hasProgressDeadline()) {
      return false;
    }
    Optional<DeploymentCondition> c = s.condition(DeploymentCondition.PROGRESSING);
    if (c.isEmpty() || c.get().reason().equals(DeploymentCondition.NEW_RS_AVAILABLE_REASON)) {
      return false;
    }
    if (c.get().reason().equals(DeploymentCondition.TIMED_OUT_REASON)) {
      return true;
    }
    Instant from = Trees.parseTime(c.get().lastUpdateTime());
    return from.plusSeconds(d.progressDeadlineSeconds()).isBefore(sync.clock().now());
  }

  /** kube's {@code syncRolloutStatus}. */
  void syncRolloutStatus(List<ReplicaSet> all, ReplicaSet newRs, Deployment d) {
    DeploymentStatus s = sync.calculateStatus(all, newRs, d);
    if (!d.hasProgressDeadline()) {
      s = s.without(DeploymentCondition.PROGRESSING);
    }
    Optional<DeploymentCondition> current = d.status().condition(DeploymentCondition.PROGRESSING);
    boolean completed = s.replicas() == s.updatedReplicas() && current.isPresent()
        && current.get().reason().equals(DeploymentCondition.NEW_RS_AVAILABLE_REASON);
    if (d.hasProgressDeadline() && !completed) {
      String subject = newRs != null ? "ReplicaSet \"" + newRs.name() + "\"" : "Deployment \"" + d.name() + "\"";
      if (complete(d, s)) {
        s = s.withCondition(DeploymentCondition.of(DeploymentCondition.PROGRESSING, "True",
            DeploymentCondition.NEW_RS_AVAILABLE_REASON, subject + " has successfully progressed.", sync.now()));
      } else if (progressing(d, s)) {
        DeploymentCondition c = DeploymentCondition.of(DeploymentCondition.PROGRESSING, "True",
            DeploymentCondition.RS_UPDATED_REASON, subject + " is progressing.", sync.now());
        // the one condition updated with the same reason: lastUpdateTime marks the progress
        if (current.isPresent()) {
          if (current.get().status().equals("True")) {
            c = c.withLastTransitionTime(current.get().lastTransitionTime());
          }
          s = s.without(DeploymentCondition.PROGRESSING);
        }
        s = s.withCondition(c);
      } else if (timedOut(d, s)) {
        s = s.withCondition(DeploymentCondition.of(DeploymentCondition.PROGRESSING, "False",
            DeploymentCondition.TIMED_OUT_REASON, subject + " has timed out progressing.", sync.now()));
      }
    }
    Optional<DeploymentCondition> failure = replicaFailure(all, newRs);
    s = failure.isPresent() ? s.withCondition(failure.get()) : s.without(DeploymentCondition.REPLICA_FAILURE);
    if (s.equals(d.status())) {
      requeueStuck(d, s);
      return;
    }
    d.setStatus(s);
    sync.updateStatus(d);
  }

  /** kube's {@code getReplicaFailures}: the first ReplicaFailure=True of the new, then the old ReplicaSets. */
  private static Optional<DeploymentCondition> replicaFailure(List<ReplicaSet> all, ReplicaSet newRs) {
    List<ReplicaSet> order = new java.util.ArrayList<>();
    if (newRs != null) {
      order.add(newRs);
    }
    for (ReplicaSet rs : all) {
      if (rs != null && rs != newRs) {
        order.add(rs);
      }
    }
    for (ReplicaSet rs : order) {
      for (var c : rs.conditions()) {
        if (c.path("type").asText().equals(DeploymentCondition.REPLICA_FAILURE)
            && c.path("status").asText().equals("True")) {
          return Optional.of(new DeploymentCondition(DeploymentCondition.REPLICA_FAILURE, "True",
              c.path("lastTransitionTime").asText(""), c.path("lastTransitionTime").asText(""),
              c.path("reason").asText(""), c.path("message").asText("")));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * kube's {@code requeueStuckDeployment}: a rollout that shows no progress is looked at again
   * when its deadline passes (at once, rate limited, when less than a second is left).
   */
  private void requeueStuck(Deployment d, DeploymentStatus s) {
    Optional<DeploymentCondition> current = d.status().condition(DeploymentCondition.PROGRESSING);
    if (!d.hasProgressDeadline() || current.isEmpty()) {
      return;
    }
    if (complete(d, s) || current.get().reason().equals(DeploymentCondition.TIMED_OUT_REASON)) {
      return;
    }
    Instant deadline = Trees.parseTime(current.get().lastUpdateTime()).plusSeconds(d.progressDeadlineSeconds());
    Duration after = Duration.between(sync.clock().now(), deadline);
    if (after.compareTo(Duration.ofSeconds(1)) < 0) {
      requeue.rateLimited(d);
    } else {
      requeue.after(d, after.plusSeconds(1));
    }
  }
}
