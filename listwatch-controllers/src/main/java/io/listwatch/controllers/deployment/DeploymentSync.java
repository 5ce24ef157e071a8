package io.listwatch.controllers.deployment;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.Lister;
import io.listwatch.controllers.events.EventRecorder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube's {@code sync.go}: finds or creates a deployment's new ReplicaSet and keeps revisions in
 * step, scales ReplicaSets (proportionally during a rollout), deletes old ReplicaSets beyond
 * {@code revisionHistoryLimit}, and writes the deployment's status.
 *
 * <p>Thread-safe: holds only thread-safe collaborators; the {@link Deployment} and
 * {@link ReplicaSet} views passed in are confined to the calling worker.
 */
final class DeploymentSync {

  static final String SCALING_REPLICA_SET = "ScalingReplicaSet";

  private final ResourceClient<DynamicObject> deployments;
  private final ResourceClient<DynamicObject> replicaSets;
  private final Lister<DynamicObject> rsLister;
  private final EventRecorder events;
  private final Clock clock;

  DeploymentSync(KubeClient client, Lister<DynamicObject> rsLister, EventRecorder events, Clock clock) {
    this.deployments = client.dynamic(ResourceType.DEPLOYMENTS);
    this.replicaSets = client.dynamic(ResourceType.REPLICASETS);
    this.rsLister = rsLister;
    this.events = events;
    this.clock = clock;
  }

  Clock clock() {
    return clock;
  }

  String now() {
    return Trees.time(clock.now());
  }

  /** The new ReplicaSet (null if none and {@code create} is false) and the old ones. */
  record Split(ReplicaSet newRs, List<ReplicaSet> oldRss) {
    List<ReplicaSet> all() {
      return ReplicaSets.plus(oldRss, newRs);
    }
  }

  /**
   * kube's {@code getAllReplicaSetsAndSyncRevision}. When the existing new ReplicaSet is
   * written, {@code rsList} (mutable) gets the written copy in its place.
   */
  Split allReplicaSetsAndSyncRevision(Deployment d, List<ReplicaSet> rsList, boolean create) {
    ReplicaSet existing = ReplicaSets.findNew(d, rsList).orElse(null);
    List<ReplicaSet> old = ReplicaSets.findOld(rsList, existing);
    ReplicaSet newRs = newReplicaSet(d, existing, old, create);
    if (existing != null && newRs != existing) {
      // written (revision, annotations): later steps of this sync must not write the stale copy
      rsList.replaceAll(rs -> rs.uid().equals(newRs.uid()) ? newRs : rs);
    }
    return new Split(newRs, old);
  }

  /** kube's {@code getNewReplicaSet}. */
  private ReplicaSet newReplicaSet(Deployment d, ReplicaSet existing, List<ReplicaSet> oldRss, boolean create) {
    String newRevision = Long.toString(Revisions.maxRevision(oldRss) + 1);
    if (existing != null) {
      ReplicaSet copy = new ReplicaSet(existing.tree().deepCopy());
      boolean annotationsUpdated = Revisions.setNewReplicaSetAnnotations(d, copy, newRevision, true);
      if (annotationsUpdated || copy.minReadySeconds() != d.minReadySeconds()) {
        copy.setMinReadySeconds(d.minReadySeconds());
        return ReplicaSet.of(replicaSets.update(copy.toObject()));
      }
      boolean needsUpdate = Revisions.setDeploymentRevision(d, copy.annotation(Revisions.REVISION).orElse(""));
      if (d.hasProgressDeadline() && d.status().condition(DeploymentCondition.PROGRESSING).isEmpty()) {
        d.setStatus(d.status().withCondition(DeploymentCondition.of(DeploymentCondition.PROGRESSING, "True",
            DeploymentCondition.FOUND_NEW_RS_REASON, "Found new replica set \"" + copy.name() + "\"", now())));
        needsUpdate = true;
      }
      if (needsUpdate) {
        updateStatus(d);
      }
      return existing;
    }
    if (!create) {
      return null;
    }
    ReplicaSet fresh = newReplicaSetObject(d);
    List<ReplicaSet> all = ReplicaSets.plus(oldRss, fresh);
    int replicas = ReplicaSets.newRsNewReplicas(d, all, fresh);
    fresh.setReplicas(replicas);
    Revisions.setNewReplicaSetAnnotations(d, fresh, newRevision, false);
    ReplicaSet created;
    boolean alreadyExists = false;
    try {
      created = ReplicaSet.of(replicaSets.create(fresh.toObject()));
    } catch (StatusException e) {
      if (e.code() == 409 && "AlreadyExists".equals(e.reason())) {
        alreadyExists = true;
        Optional<ReplicaSet> found = rsLister.get(d.namespace() + "/" + fresh.name()).map(ReplicaSet::of);
        if (found.isPresent() && found.get().controllerUid().equals(Optional.of(d.uid()))
            && ReplicaSets.equalIgnoreHash(d.template(), found.get().template())) {
          created = found.get();
        } else {
          // a hash collision: another template hashes to the same name; the next sync tries the next count
          Integer count = d.status().collisionCount();
          d.setStatus(d.status().withCollisionCount(count == null ? 1 : count + 1));
          updateStatus(d);
          throw e;
        }
      } else if (e.code() == 403) {
        throw e; // the namespace is terminating
      } else {
        String msg = "Failed to create new replica set \"" + fresh.name() + "\": " + e.getMessage();
        if (d.hasProgressDeadline()) {
          d.setStatus(d.status().withCondition(DeploymentCondition.of(DeploymentCondition.PROGRESSING, "False",
              DeploymentCondition.FAILED_RS_CREATE_REASON, msg, now())));
          try {
            updateStatus(d);
          } catch (RuntimeException ignored) {
            // best effort, as kube's; the create error is what is returned
          }
        }
        events.event(d.toObject(), EventRecorder.WARNING, DeploymentCondition.FAILED_RS_CREATE_REASON, msg);
        throw e;
      }
    }
    if (!alreadyExists && replicas > 0) {
      events.event(d.toObject(), EventRecorder.NORMAL, SCALING_REPLICA_SET,
          "Scaled up replica set " + created.name() + " from 0 to " + replicas);
    }
    boolean needsUpdate = Revisions.setDeploymentRevision(d, newRevision);
    if (!alreadyExists && d.hasProgressDeadline()) {
      d.setStatus(d.status().withCondition(DeploymentCondition.of(DeploymentCondition.PROGRESSING, "True",
          DeploymentCondition.NEW_RS_REASON, "Created new replica set \"" + created.name() + "\"", now())));
      needsUpdate = true;
    }
    if (needsUpdate) {
      updateStatus(d);
    }
    return created;
  }

  /**
   * The ReplicaSet kube builds for the deployment's template: named after the template's hash,
   * which is added to its labels, selector and template labels; owned by the deployment.
   */
  private static ReplicaSet newReplicaSetObject(Deployment d) {
    String hash = PodTemplateHash.compute(d.template(), d.status().collisionCount());
    ObjectNode template = d.template().deepCopy();
    ObjectNode templateLabels = Trees.object(Trees.object(template, "metadata"), "labels");
    templateLabels.put(PodTemplateHash.LABEL, hash);
    ObjectNode selector = d.selector() instanceof ObjectNode s ? s.deepCopy() : Trees.NODES.objectNode();
    Trees.object(selector, "matchLabels").put(PodTemplateHash.LABEL, hash);

    ObjectNode rs = Trees.NODES.objectNode();
    rs.put("apiVersion", "apps/v1").put("kind", "ReplicaSet");
    ObjectNode meta = rs.putObject("metadata");
    meta.put("name", d.name() + "-" + hash).put("namespace", d.namespace());
    meta.set("labels", templateLabels.deepCopy());
    meta.putArray("ownerReferences").add(controllerRef(d));
    ObjectNode spec = rs.putObject("spec");
    spec.put("replicas", 0);
    spec.put("minReadySeconds", d.minReadySeconds());
    spec.set("selector", selector);
    spec.set("template", template);
    return new ReplicaSet(rs);
  }

  /** kube's {@code NewControllerRef}: controller and blockOwnerDeletion true. */
  static ObjectNode controllerRef(Deployment d) {
    ObjectNode ref = Trees.NODES.objectNode();
    ref.put("apiVersion", "apps/v1").put("kind", "Deployment").put("name", d.name()).put("uid", d.uid())
        .put("controller", true).put("blockOwnerDeletion", true);
    return ref;
  }

  /**
   * kube's {@code scale}: the only active ReplicaSet gets the deployment's replicas; a saturated
   * new ReplicaSet sends the old ones to zero; otherwise, for a rolling update, the change of
   * replicas is shared out in proportion to each ReplicaSet's size.
   */
  void scale(Deployment d, ReplicaSet newRs, List<ReplicaSet> oldRss) {
    ReplicaSet only = ReplicaSets.activeOrLatest(newRs, oldRss);
    if (only != null) {
      if (only.replicas() != d.replicas()) {
        scaleAndRecordEvent(only, d.replicas(), d);
      }
      return;
    }
    if (ReplicaSets.isSaturated(d, newRs)) {
      for (ReplicaSet old : ReplicaSets.active(oldRss)) {
        scaleAndRecordEvent(old, 0, d);
      }
      return;
    }
    if (!d.isRollingUpdate()) {
      return;
    }
    List<ReplicaSet> all = new ArrayList<>(ReplicaSets.active(ReplicaSets.plus(oldRss, newRs)));
    int allowed = d.replicas() > 0 ? d.replicas() + d.maxSurge() : 0;
    int toAdd = allowed - ReplicaSets.specReplicas(all);
    String operation = "";
    if (toAdd > 0) {
      all.sort(ReplicaSets.BY_SIZE_NEWER);
      operation = "up";
    } else if (toAdd < 0) {
      all.sort(ReplicaSets.BY_SIZE_OLDER);
      operation = "down";
    }
    int added = 0;
    Map<String, Integer> sizes = new HashMap<>();
    for (ReplicaSet rs : all) {
      if (toAdd != 0) {
        int proportion = ReplicaSets.proportion(rs, d, toAdd, added);
        sizes.put(rs.name(), rs.replicas() + proportion);
        added += proportion;
      } else {
        sizes.put(rs.name(), rs.replicas());
      }
    }
    for (int i = 0; i < all.size(); i++) {
      ReplicaSet rs = all.get(i);
      if (i == 0 && toAdd != 0) {
        int leftover = toAdd - added;
        sizes.put(rs.name(), Math.max(0, sizes.get(rs.name()) + leftover));
      }
      scaleReplicaSet(rs, sizes.get(rs.name()), d, operation);
    }
  }

  /** kube's {@code scaleReplicaSetAndRecordEvent}: the scaled ReplicaSet, or null if unchanged. */
  ReplicaSet scaleAndRecordEvent(ReplicaSet rs, int newScale, Deployment d) {
    if (rs.replicas() == newScale) {
      return null;
    }
    return scaleReplicaSet(rs, newScale, d, rs.replicas() < newScale ? "up" : "down");
  }

  /**
   * kube's {@code scaleReplicaSet}: writes the size and the replica annotations when either
   * changed, and records ScalingReplicaSet when the size did. Returns the written ReplicaSet
   * when its size changed, else null.
   */
  private ReplicaSet scaleReplicaSet(ReplicaSet rs, int newScale, Deployment d, String operation) {
    boolean sizeChanges = rs.replicas() != newScale;
    int max = d.replicas() + d.maxSurge();
    if (!sizeChanges && !Revisions.replicasAnnotationsNeedUpdate(rs, d.replicas(), max)) {
      return null;
    }
    int oldScale = rs.replicas();
    ReplicaSet copy = new ReplicaSet(rs.tree().deepCopy());
    copy.setReplicas(newScale);
    Revisions.setReplicasAnnotations(copy, d.replicas(), max);
    ReplicaSet written = ReplicaSet.of(replicaSets.update(copy.toObject()));
    if (!sizeChanges) {
      return null;
    }
    events.event(d.toObject(), EventRecorder.NORMAL, SCALING_REPLICA_SET,
        "Scaled " + operation + " replica set " + written.name() + " from " + oldScale + " to " + newScale);
    return written;
  }

  /**
   * kube's {@code cleanupDeployment}: deletes the oldest revisions beyond
   * {@code revisionHistoryLimit}, sparing any with replicas, pods, an unobserved generation, or
   * a deletion under way.
   */
  void cleanup(List<ReplicaSet> oldRss, Deployment d) {
    Integer limit = d.revisionHistoryLimit();
    if (limit == null) {
      return;
    }
    List<ReplicaSet> cleanable = new ArrayList<>(oldRss.stream().filter(rs -> rs != null && !rs.deleting()).toList());
    int diff = cleanable.size() - limit;
    if (diff <= 0) {
      return;
    }
    cleanable.sort(ReplicaSets.BY_REVISION);
    for (int i = 0; i < diff; i++) {
      ReplicaSet rs = cleanable.get(i);
      if (rs.statusReplicas() != 0 || rs.replicas() != 0 || rs.generation() > rs.observedGeneration()
          || rs.deleting()) {
        continue;
      }
      replicaSets.delete(rs.namespace(), rs.name()); // false on 404: already gone
    }
  }

  /** kube's {@code calculateStatus}: counts from the ReplicaSets, and the Available condition. */
  DeploymentStatus calculateStatus(List<ReplicaSet> all, ReplicaSet newRs, Deployment d) {
    int available = ReplicaSets.availableReplicas(all);
    int total = ReplicaSets.specReplicas(all);
    int unavailable = Math.max(0, total - available);
    DeploymentStatus s = new DeploymentStatus(d.generation(), ReplicaSets.actualReplicas(all),
        newRs == null ? 0 : newRs.statusReplicas(), ReplicaSets.readyReplicas(all), available, unavailable,
        d.status().collisionCount(), d.status().conditions());
    if (available >= d.replicas() - d.maxUnavailable()) {
      return s.withCondition(DeploymentCondition.of(DeploymentCondition.AVAILABLE, "True",
          DeploymentCondition.MIN_AVAILABLE_REASON, "Deployment has minimum availability.", now()));
    }
    return s.withCondition(DeploymentCondition.of(DeploymentCondition.AVAILABLE, "False",
        DeploymentCondition.MIN_UNAVAILABLE_REASON, "Deployment does not have minimum availability.", now()));
  }

  /** kube's {@code syncDeploymentStatus}: writes the calculated status if it differs. */
  void syncDeploymentStatus(List<ReplicaSet> all, ReplicaSet newRs, Deployment d) {
    DeploymentStatus status = calculateStatus(all, newRs, d);
    if (status.equals(d.status())) {
      return;
    }
    d.setStatus(status);
    updateStatus(d);
  }

  /** kube's {@code sync}: scale, clean up while paused, status. Used for scaling events and paused deployments. */
  void sync(Deployment d, List<ReplicaSet> rsList) {
    Split split = allReplicaSetsAndSyncRevision(d, rsList, false);
    scale(d, split.newRs(), split.oldRss());
    if (d.paused()) {
      cleanup(split.oldRss(), d);
    }
    syncDeploymentStatus(split.all(), split.newRs(), d);
  }

  /** kube's {@code syncStatusOnly}, for a deployment being deleted. */
  void syncStatusOnly(Deployment d, List<ReplicaSet> rsList) {
    Split split = allReplicaSetsAndSyncRevision(d, rsList, false);
    syncDeploymentStatus(split.all(), split.newRs(), d);
  }

  /**
   * kube's {@code isScalingEvent}: whether an active ReplicaSet was sized for a different
   * replica count than the deployment's (the user scaled, not changed the template).
   */
  boolean isScalingEvent(Deployment d, List<ReplicaSet> rsList) {
    Split split = allReplicaSetsAndSyncRevision(d, rsList, false);
    for (ReplicaSet rs : ReplicaSets.active(split.all())) {
      Optional<Integer> desired = Revisions.desiredReplicas(rs);
      if (desired.isPresent() && desired.get() != d.replicas()) {
        return true;
      }
    }
    return false;
  }

  /**
   * kube's {@code checkPausedConditions}: Progressing turns Unknown with DeploymentPaused when
   * paused and DeploymentResumed when resumed (not after the deadline was exceeded).
   */
  void checkPausedConditions(Deployment d) {
    if (!d.hasProgressDeadline()) {
      return;
    }
    Optional<DeploymentCondition> cond = d.status().condition(DeploymentCondition.PROGRESSING);
    if (cond.isPresent() && cond.get().reason().equals(DeploymentCondition.TIMED_OUT_REASON)) {
      return;
    }
    boolean pausedCondition = cond.isPresent() && cond.get().reason().equals(DeploymentCondition.PAUSED_REASON);
    DeploymentCondition next;
    if (d.paused() && !pausedCondition) {
      next = DeploymentCondition.of(DeploymentCondition.PROGRESSING, "Unknown", DeploymentCondition.PAUSED_REASON,
          "Deployment is paused", now());
    } else if (!d.paused() && pausedCondition) {
      next = DeploymentCondition.of(DeploymentCondition.PROGRESSING, "Unknown", DeploymentCondition.RESUMED_REASON,
          "Deployment is resumed", now());
    } else {
      return;
    }
    d.setStatus(d.status().withCondition(next));
    updateStatus(d);
  }

  /** Writes the deployment's status (and annotations, which kube's status strategy lets through). */
  void updateStatus(Deployment d) {
    DynamicObject written = deployments.updateStatus(d.toObject());
    d.refresh(written);
    d.setStatus(DeploymentStatus.read(written.toTree().path("status")));
  }
}
