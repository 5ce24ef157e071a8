package io.listwatch.controllers.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * kube's {@code recreate.go}: every old ReplicaSet goes to zero, and only once none of their
 * pods is left running does the new ReplicaSet get created and scaled to the full count.
 *
 * <p>Thread-safe: stateless apart from its thread-safe collaborators.
 */
record Recreate(DeploymentSync sync, RolloutProgress progress) {

  /**
   * kube's {@code rolloutRecreate}.
   *
   * @param podsByRs the pods the deployment's selector matches, by their controlling ReplicaSet's uid
   */
  void rollout(Deployment d, List<ReplicaSet> rsList, Map<String, List<JsonNode>> podsByRs) {
    DeploymentSync.Split split = sync.allReplicaSetsAndSyncRevision(d, rsList, false);
    ReplicaSet newRs = split.newRs();
    List<ReplicaSet> all = split.all();
    boolean scaledDown = false;
    for (ReplicaSet rs : ReplicaSets.active(split.oldRss())) {
      scaledDown |= sync.scaleAndRecordEvent(rs, 0, d) != null;
    }
    if (scaledDown || oldPodsRunning(newRs, split.oldRss(), podsByRs)) {
      progress.syncRolloutStatus(all, newRs, d);
      return;
    }
    List<ReplicaSet> oldRss = split.oldRss();
    if (newRs == null) {
      DeploymentSync.Split created = sync.allReplicaSetsAndSyncRevision(d, rsList, true);
      newRs = created.newRs();
      oldRss = created.oldRss();
      all = created.all();
    }
    sync.scaleAndRecordEvent(newRs, d.replicas(), d);
    if (RolloutProgress.complete(d, d.status())) {
      sync.cleanup(oldRss, d);
    }
    progress.syncRolloutStatus(all, newRs, d);
  }

  /** kube's {@code oldPodsRunning}: old ReplicaSets still report pods, or pods of theirs are not finished. */
  private static boolean oldPodsRunning(ReplicaSet newRs, List<ReplicaSet> oldRss,
      Map<String, List<JsonNode>> podsByRs) {
    if (ReplicaSets.actualReplicas(oldRss) > 0) {
      return true;
    }
    for (Map.Entry<String, List<JsonNode>> e : podsByRs.entrySet()) {
      if (newRs != null && newRs.uid().equals(e.getKey())) {
        continue;
      }
      for (JsonNode pod : e.getValue()) {
        String phase = pod.path("status").path("phase").asText("");
        if (!phase.equals("Failed") && !phase.equals("Succeeded")) {
          return true;
        }
      }
    }
    return false;
  }
}
