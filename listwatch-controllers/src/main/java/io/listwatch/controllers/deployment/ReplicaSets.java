package io.listwatch.controllers.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * kube's deployment utilities over a deployment's ReplicaSets: which one is new, counts, the
 * orders kube sorts them in, and the replica arithmetic of rollouts and proportional scaling.
 * Stateless, thread-safe.
 */
final class ReplicaSets {

  /** kube's {@code ReplicaSetsByCreationTimestamp}: oldest first, ties by name. */
  static final Comparator<ReplicaSet> BY_CREATION =
      Comparator.comparing(ReplicaSet::creationTimestamp).thenComparing(ReplicaSet::name);
  /** kube's {@code ReplicaSetsBySizeNewer}: largest first, ties newest first. */
  static final Comparator<ReplicaSet> BY_SIZE_NEWER =
      Comparator.comparingInt(ReplicaSet::replicas).reversed().thenComparing(BY_CREATION.reversed());
  /** kube's {@code ReplicaSetsBySizeOlder}: largest first, ties oldest first. */
  static final Comparator<ReplicaSet> BY_SIZE_OLDER =
      Comparator.comparingInt(ReplicaSet::replicas).reversed().thenComparing(BY_CREATION);
  /** kube's {@code ReplicaSetsByRevision}: lowest revision first, ties by creation. */
  static final Comparator<ReplicaSet> BY_REVISION =
      Comparator.comparingLong(Revisions::revision).thenComparing(BY_CREATION);

  private ReplicaSets() {}

  /**
   * kube's {@code EqualIgnoreHash}: whether two pod templates are equal apart from the
   * {@code pod-template-hash} label (nil and empty maps and lists count as equal).
   */
  static boolean equalIgnoreHash(JsonNode a, JsonNode b) {
    return Objects.equals(withoutHash(a), withoutHash(b));
  }

  private static JsonNode withoutHash(JsonNode template) {
    if (!(template instanceof ObjectNode o)) {
      return Trees.normalized(template);
    }
    ObjectNode copy = o.deepCopy();
    if (copy.path("metadata").path("labels") instanceof ObjectNode labels) {
      labels.remove(PodTemplateHash.LABEL);
    }
    return Trees.normalized(copy);
  }

  /** kube's {@code FindNewReplicaSet}: the oldest ReplicaSet whose template is the deployment's. */
  static Optional<ReplicaSet> findNew(Deployment d, List<ReplicaSet> all) {
    return all.stream().sorted(BY_CREATION).filter(rs -> equalIgnoreHash(rs.template(), d.template())).findFirst();
  }

  /** Every ReplicaSet but {@code newRs}. */
  static List<ReplicaSet> findOld(List<ReplicaSet> all, ReplicaSet newRs) {
    List<ReplicaSet> out = new ArrayList<>();
    for (ReplicaSet rs : all) {
      if (newRs == null || !rs.uid().equals(newRs.uid())) {
        out.add(rs);
      }
    }
    return out;
  }

  /** kube's {@code FilterActiveReplicaSets}: not null and {@code spec.replicas > 0}. */
  static List<ReplicaSet> active(List<ReplicaSet> list) {
    return list.stream().filter(rs -> rs != null && rs.replicas() > 0).toList();
  }

  /** The list with {@code rs} appended when it is not null. */
  static List<ReplicaSet> plus(List<ReplicaSet> list, ReplicaSet rs) {
    List<ReplicaSet> out = new ArrayList<>(list);
    if (rs != null) {
      out.add(rs);
    }
    return out;
  }

  /** Sum of {@code spec.replicas}. */
  static int specReplicas(List<ReplicaSet> list) {
    return list.stream().filter(Objects::nonNull).mapToInt(ReplicaSet::replicas).sum();
  }

  /** Sum of {@code status.replicas} (kube's {@code GetActualReplicaCountForReplicaSets}). */
  static int actualReplicas(List<ReplicaSet> list) {
    return list.stream().filter(Objects::nonNull).mapToInt(ReplicaSet::statusReplicas).sum();
  }

  static int readyReplicas(List<ReplicaSet> list) {
    return list.stream().filter(Objects::nonNull).mapToInt(ReplicaSet::readyReplicas).sum();
  }

  static int availableReplicas(List<ReplicaSet> list) {
    return list.stream().filter(Objects::nonNull).mapToInt(ReplicaSet::availableReplicas).sum();
  }

  /**
   * kube's {@code FindActiveOrLatest}: the only ReplicaSet with replicas, or the new one (or
   * the newest old one) when none has any; null when several have replicas.
   */
  static ReplicaSet activeOrLatest(ReplicaSet newRs, List<ReplicaSet> oldRss) {
    if (newRs == null && oldRss.isEmpty()) {
      return null;
    }
    List<ReplicaSet> old = new ArrayList<>(oldRss);
    old.sort(BY_CREATION.reversed());
    List<ReplicaSet> active = active(plus(old, newRs));
    return switch (active.size()) {
      case 0 -> newRs != null ? newRs : old.getFirst();
      case 1 -> active.getFirst();
      default -> null;
    };
  }

  /**
   * kube's {@code IsSaturated}: the new ReplicaSet wants, was last sized for, and has available
   * exactly the deployment's replicas.
   */
  static boolean isSaturated(Deployment d, ReplicaSet rs) {
    if (rs == null) {
      return false;
    }
    Optional<Integer> desired = Revisions.desiredReplicas(rs);
    return desired.isPresent() && rs.replicas() == d.replicas() && desired.get() == d.replicas()
        && rs.availableReplicas() == d.replicas();
  }

  /**
   * kube's {@code NewRSNewReplicas}: how many replicas the new ReplicaSet may have now. Rolling
   * update: up to replicas + maxSurge pods in all; Recreate: all of them.
   */
  static int newRsNewReplicas(Deployment d, List<ReplicaSet> all, ReplicaSet newRs) {
    if (!d.isRollingUpdate()) {
      return d.replicas();
    }
    int current = specReplicas(all);
    int maxTotal = d.replicas() + d.fenceposts().maxSurge();
    if (current >= maxTotal) {
      return newRs.replicas();
    }
    int scaleUp = Math.min(maxTotal - current, d.replicas() - newRs.replicas());
    return newRs.replicas() + scaleUp;
  }

  /**
   * kube's {@code GetReplicaSetProportion}: the share of {@code toAdd} replicas (negative to
   * remove) this ReplicaSet gets in a proportional scale, bounded by what is left.
   */
  static int proportion(ReplicaSet rs, Deployment d, int toAdd, int added) {
    if (rs == null || rs.replicas() == 0 || toAdd == 0 || toAdd == added) {
      return 0;
    }
    int fraction = fraction(rs, d);
    int allowed = toAdd - added;
    return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
  }

  /** kube's {@code getReplicaSetFraction}, relative to the max-replicas the RS was sized for. */
  private static int fraction(ReplicaSet rs, Deployment d) {
    if (d.replicas() == 0) {
      return -rs.replicas();
    }
    int deploymentReplicas = d.replicas() + d.maxSurge();
    int annotated = Revisions.maxReplicas(rs).orElse(d.status().replicas());
    if (annotated == 0) {
      return 0;
    }
    double newSize = (double) rs.replicas() * deploymentReplicas / annotated;
    return (int) roundHalfAwayFromZero(newSize) - rs.replicas();
  }

  private static long roundHalfAwayFromZero(double v) {
    return v < 0 ? -Math.round(-v) : Math.round(v);
  }
}
