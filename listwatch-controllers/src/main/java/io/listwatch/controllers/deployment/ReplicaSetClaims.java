package io.listwatch.controllers.deployment;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.LabelSelector;
import io.listwatch.api.StatusException;
import io.listwatch.api.patch.PatchType;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * kube's {@code ReplicaSetControllerRefManager.ClaimReplicaSets} for one deployment: keeps the
 * ReplicaSets it controls that its selector still matches, releases the ones it no longer
 * matches, and adopts matching orphans (an owner reference with controller and
 * blockOwnerDeletion, by strategic merge patch with the ReplicaSet's uid as precondition).
 * Adoption first re-reads the deployment from the server, so a deployment deleted meanwhile
 * adopts nothing.
 *
 * <p>Confined to the worker thread syncing the deployment.
 */
final class ReplicaSetClaims {

  private final ResourceClient<DynamicObject> replicaSets;
  private final Deployment d;
  private final LabelSelector selector;
  private final Supplier<Optional<DynamicObject>> freshDeployment;
  private Boolean canAdopt;

  ReplicaSetClaims(ResourceClient<DynamicObject> replicaSets, Deployment d,
      Supplier<Optional<DynamicObject>> freshDeployment) {
    this.replicaSets = replicaSets;
    this.d = d;
    this.selector = d.labelSelector();
    this.freshDeployment = freshDeployment;
  }

  /** The ReplicaSets of the namespace this deployment now controls. */
  List<ReplicaSet> claim(List<ReplicaSet> inNamespace) {
    List<ReplicaSet> claimed = new ArrayList<>();
    for (ReplicaSet rs : inNamespace) {
      Optional<String> owner = rs.controllerUid();
      boolean matches = selector.matches(rs.labels());
      if (owner.isPresent()) {
        if (!owner.get().equals(d.uid())) {
          continue;
        }
        if (matches) {
          claimed.add(rs);
        } else if (!d.deleting()) {
          release(rs);
        }
        continue;
      }
      if (d.deleting() || !matches || rs.deleting() || !rs.namespace().equals(d.namespace())) {
        continue;
      }
      Optional<ReplicaSet> adopted = adopt(rs);
      adopted.ifPresent(claimed::add);
    }
    return claimed;
  }

  private Optional<ReplicaSet> adopt(ReplicaSet rs) {
    if (canAdopt == null) {
      Optional<DynamicObject> fresh = freshDeployment.get();
      canAdopt = fresh.isPresent() && fresh.get().uid().equals(d.uid())
          && fresh.get().get("metadata", "deletionTimestamp").map(n -> n.isNull()).orElse(true);
    }
    if (!canAdopt) {
      return Optional.empty();
    }
    ObjectNode patch = Trees.NODES.objectNode();
    ObjectNode meta = patch.putObject("metadata");
    meta.putArray("ownerReferences").add(DeploymentSync.controllerRef(d));
    meta.put("uid", rs.uid());
    try {
      return Optional.of(ReplicaSet.of(
          replicaSets.patch(rs.namespace(), rs.name(), PatchType.STRATEGIC_MERGE_PATCH, patch.toString())));
    } catch (StatusException e) {
      if (e.code() == 404) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private void release(ReplicaSet rs) {
    ObjectNode patch = Trees.NODES.objectNode();
    ObjectNode meta = patch.putObject("metadata");
    ArrayNode refs = meta.putArray("ownerReferences");
    refs.addObject().put("$patch", "delete").put("uid", d.uid());
    meta.put("uid", rs.uid());
    try {
      replicaSets.patch(rs.namespace(), rs.name(), PatchType.STRATEGIC_MERGE_PATCH, patch.toString());
    } catch (StatusException e) {
      if (e.code() != 404 && e.code() != 422) {
        throw e; // 422: the uid precondition, the ReplicaSet was replaced meanwhile
      }
    }
  }
}
