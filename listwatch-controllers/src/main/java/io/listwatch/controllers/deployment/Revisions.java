package io.listwatch.controllers.deployment;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The annotations kube's deployment controller keeps on Deployments and their ReplicaSets:
 * the revision ({@code deployment.kubernetes.io/revision}, what {@code kubectl rollout history}
 * and {@code undo} read), the revisions a reused ReplicaSet had before
 * ({@code revision-history}), the replica counts a ReplicaSet was sized for
 * ({@code desired-replicas}, {@code max-replicas}, read by proportional scaling), and the
 * deployment's own annotations copied to its new ReplicaSet (e.g. {@code kubernetes.io/change-cause}).
 * Stateless, thread-safe.
 */
final class Revisions {

  static final String REVISION = "deployment.kubernetes.io/revision";
  static final String REVISION_HISTORY = "deployment.kubernetes.io/revision-history";
  static final String DESIRED_REPLICAS = "deployment.kubernetes.io/desired-replicas";
  static final String MAX_REPLICAS = "deployment.kubernetes.io/max-replicas";
  /** kube's default cap on the length of {@link #REVISION_HISTORY}. */
  static final int MAX_HISTORY_CHARS = 2000;

  /** Annotations of the deployment that are not copied to its ReplicaSets. */
  private static final Set<String> NOT_COPIED = Set.of("kubectl.kubernetes.io/last-applied-configuration",
      REVISION, REVISION_HISTORY, DESIRED_REPLICAS, MAX_REPLICAS, "deprecated.deployment.rollback.to");

  private Revisions() {}

  /** The ReplicaSet's revision; 0 when absent or not a number. */
  static long revision(ReplicaSet rs) {
    return rs.annotation(REVISION).map(Revisions::parse).orElse(0L);
  }

  /** kube's {@code MaxRevision}. */
  static long maxRevision(List<ReplicaSet> list) {
    return list.stream().mapToLong(Revisions::revision).max().orElse(0);
  }

  static Optional<Integer> desiredReplicas(ReplicaSet rs) {
    return rs.annotation(DESIRED_REPLICAS).flatMap(Revisions::parseInt);
  }

  static Optional<Integer> maxReplicas(ReplicaSet rs) {
    return rs.annotation(MAX_REPLICAS).flatMap(Revisions::parseInt);
  }

  /**
   * kube's {@code SetNewReplicaSetAnnotations}: copies the deployment's annotations, raises the
   * revision to {@code newRevision} (recording the one it replaces in the revision history, as
   * when a rollback reuses an old ReplicaSet), and for a ReplicaSet being created sets the
   * replica annotations. Returns whether anything changed.
   */
  static boolean setNewReplicaSetAnnotations(Deployment d, ReplicaSet rs, String newRevision, boolean exists) {
    boolean changed = copyDeploymentAnnotations(d, rs);
    Optional<String> old = rs.annotation(REVISION);
    long oldRevision;
    if (old.isEmpty() || old.get().isEmpty()) {
      oldRevision = 0;
    } else {
      try {
        oldRevision = Long.parseLong(old.get());
      } catch (NumberFormatException e) {
        return false;
      }
    }
    long next;
    try {
      next = Long.parseLong(newRevision);
    } catch (NumberFormatException e) {
      return false;
    }
    if (oldRevision < next) {
      rs.setAnnotation(REVISION, newRevision);
      changed = true;
    }
    if (old.isPresent() && oldRevision < next) {
      String history = rs.annotation(REVISION_HISTORY).orElse("");
      if (history.isEmpty()) {
        rs.setAnnotation(REVISION_HISTORY, old.get());
      } else {
        List<String> olds = new ArrayList<>(Arrays.asList(history.split(",", -1)));
        int total = history.length() + old.get().length() + 1;
        int start = 0;
        while (total > MAX_HISTORY_CHARS && start < olds.size()) {
          total -= olds.get(start).length() + 1;
          start++;
        }
        if (total <= MAX_HISTORY_CHARS) {
          List<String> kept = new ArrayList<>(olds.subList(start, olds.size()));
          kept.add(old.get());
          rs.setAnnotation(REVISION_HISTORY, String.join(",", kept));
        }
      }
    }
    if (!exists && setReplicasAnnotations(rs, d.replicas(), d.replicas() + d.maxSurge())) {
      changed = true;
    }
    return changed;
  }

  private static boolean copyDeploymentAnnotations(Deployment d, ReplicaSet rs) {
    boolean changed = false;
    Map<String, String> current = rs.annotations();
    for (Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> e : d.annotations().properties()) {
      String k = e.getKey();
      String v = e.getValue().asText();
      if (NOT_COPIED.contains(k) || v.equals(current.get(k))) {
        continue;
      }
      rs.setAnnotation(k, v);
      changed = true;
    }
    return changed;
  }

  /** kube's {@code SetReplicasAnnotations}; returns whether it changed anything. */
  static boolean setReplicasAnnotations(ReplicaSet rs, int desired, int max) {
    boolean changed = false;
    if (!rs.annotation(DESIRED_REPLICAS).equals(Optional.of(Integer.toString(desired)))) {
      rs.setAnnotation(DESIRED_REPLICAS, Integer.toString(desired));
      changed = true;
    }
    if (!rs.annotation(MAX_REPLICAS).equals(Optional.of(Integer.toString(max)))) {
      rs.setAnnotation(MAX_REPLICAS, Integer.toString(max));
      changed = true;
    }
    return changed;
  }

  /** kube's {@code ReplicasAnnotationsNeedUpdate}. */
  static boolean replicasAnnotationsNeedUpdate(ReplicaSet rs, int desired, int max) {
    return !rs.annotation(DESIRED_REPLICAS).equals(Optional.of(Integer.toString(desired)))
        || !rs.annotation(MAX_REPLICAS).equals(Optional.of(Integer.toString(max)));
  }

  /** kube's {@code SetDeploymentRevision}: sets the deployment's revision annotation; whether it changed. */
  static boolean setDeploymentRevision(Deployment d, String revision) {
    ObjectNode annotations = d.annotations();
    if (revision.equals(annotations.path(REVISION).asText(null))) {
      return false;
    }
    annotations.put(REVISION, revision);
    return true;
  }

  private static long parse(String s) {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static Optional<Integer> parseInt(String s) {
    try {
      return Optional.of(Integer.parseInt(s));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
