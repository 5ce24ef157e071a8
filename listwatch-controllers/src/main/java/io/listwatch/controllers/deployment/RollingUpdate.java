package io.listwatch.controllers.deployment;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's {@code rolling.go}: scale the new ReplicaSet up within {@code maxSurge}, then the old
 * ones down while at least {@code replicas - maxUnavailable} pods stay available, one step per
 * sync; each step's status is written by {@link RolloutProgress}.
 *
 * <p>Thread-safe: stateless apart from its thread-safe collaborators.
 */
record RollingUpdate(DeploymentSync sync, RolloutProgress progress) {

  /** kube's {@code rolloutRolling}. */
  void rollout(Deployment d, List<ReplicaSet> rsList) {
    DeploymentSync.Split split = sync.allReplicaSetsAndSyncRevision(d, rsList, true);
    ReplicaSet newRs = split.newRs();
    List<ReplicaSet> all = split.all();
    if (reconcileNew(all, newRs, d)) {
      progress.syncRolloutStatus(all, newRs, d);
      return;
    }
    if (reconcileOld(all, ReplicaSets.active(split.oldRss()), newRs, d)) {
      progress.syncRolloutStatus(all, newRs, d);
      return;
    }
    if (RolloutProgress.complete(d, d.status())) {
      sync.cleanup(split.oldRss(), d);
    }
    progress.syncRolloutStatus(all, newRs, d);
  }

  /** kube's {@code reconcileNewReplicaSet}: whether the new ReplicaSet was scaled. */
  private boolean reconcileNew(List<ReplicaSet> all, ReplicaSet newRs, Deployment d) {
    if (newRs.replicas() == d.replicas()) {
      return false;
    }
    if (newRs.replicas() > d.replicas()) {
      return sync.scaleAndRecordEvent(newRs, d.replicas(), d) != null;
    }
    int count = ReplicaSets.newRsNewReplicas(d, all, newRs);
    return sync.scaleAndRecordEvent(newRs, count, d) != null;
  }

  /**
   * kube's {@code reconcileOldReplicaSets}: first the old ReplicaSets' unavailable replicas go
   * (they count against no one), then available ones while the minimum stays available.
   */
  private boolean reconcileOld(List<ReplicaSet> all, List<ReplicaSet> oldRss, ReplicaSet newRs, Deployment d) {
    if (ReplicaSets.specReplicas(oldRss) == 0) {
      return false;
    }
    int allPods = ReplicaSets.specReplicas(all);
    int minAvailable = d.replicas() - d.maxUnavailable();
    int newUnavailable = newRs.replicas() - newRs.availableReplicas();
    int maxScaledDown = allPods - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) {
      return false;
    }
    List<ReplicaSet> old = new ArrayList<>(oldRss);
    int cleaned = cleanupUnhealthy(old, d, maxScaledDown);
    int scaled = scaleDownOld(ReplicaSets.plus(old, newRs), old, d);
    return cleaned + scaled > 0;
  }

  /** kube's {@code cleanupUnhealthyReplicas}; replaces entries of {@code oldRss} it scaled. */
  private int cleanupUnhealthy(List<ReplicaSet> oldRss, Deployment d, int maxCleanup) {
    oldRss.sort(ReplicaSets.BY_CREATION);
    int total = 0;
    for (int i = 0; i < oldRss.size(); i++) {
      if (total >= maxCleanup) {
        break;
      }
      ReplicaSet target = oldRss.get(i);
      if (target.replicas() == 0 || target.replicas() == target.availableReplicas()) {
        continue;
      }
      int down = Math.min(maxCleanup - total, target.replicas() - target.availableReplicas());
      ReplicaSet updated = sync.scaleAndRecordEvent(target, target.replicas() - down, d);
      total += down;
      if (updated != null) {
        oldRss.set(i, updated);
      }
    }
    return total;
  }

  /** kube's {@code scaleDownOldReplicaSetsForRollingUpdate}: oldest first, down to the minimum available. */
  private int scaleDownOld(List<ReplicaSet> all, List<ReplicaSet> oldRss, Deployment d) {
    int minAvailable = d.replicas() - d.maxUnavailable();
    int available = ReplicaSets.availableReplicas(all);
    if (available <= minAvailable) {
      return 0;
    }
    List<ReplicaSet> old = new ArrayList<>(oldRss);
    old.sort(ReplicaSets.BY_CREATION);
    int total = 0;
    int toScaleDown = available - minAvailable;
    for (ReplicaSet target : old) {
      if (total >= toScaleDown) {
        break;
      }
      if (target.replicas() == 0) {
        continue;
      }
      int down = Math.min(target.replicas(), toScaleDown - total);
      sync.scaleAndRecordEvent(target, target.replicas() - down, d);
      total += down;
    }
    return total;
  }
}
