package io.listwatch.controllers.deployment;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.ResourceEventHandler;
import io.listwatch.client.cache.SharedIndexInformer;
import io.listwatch.client.cache.SharedInformerFactory;

/**
 * Plays the replicaset controller and the kubelets for end-to-end tests of the deployment
 * controller, at the ReplicaSet level: whenever a ReplicaSet's {@code spec.replicas} or
 * generation changes, it writes a status saying that many pods exist and are ready and
 * available. No pods are created.
 *
 * <p>Thread-safe: works on its informer handler's thread.
 */
final class ReplicaSetPlayer {

  private final ResourceClient<DynamicObject> replicaSets;

  ReplicaSetPlayer(KubeClient client, SharedInformerFactory factory) {
    this.replicaSets = client.dynamic(ResourceType.REPLICASETS);
    SharedIndexInformer<DynamicObject> informer = factory.informerFor(ResourceType.REPLICASETS, DynamicObject.CODEC);
    informer.addEventHandler(new ResourceEventHandler<>() {
      @Override
      public void onAdd(DynamicObject rs, boolean initial) {
        play(rs);
      }

      @Override
      public void onUpdate(DynamicObject old, DynamicObject rs) {
        play(rs);
      }
    });
  }

  private void play(DynamicObject object) {
    ObjectNode rs = object.toTree();
    int replicas = rs.path("spec").path("replicas").asInt(1);
    long generation = rs.path("metadata").path("generation").asLong(0);
    ObjectNode status = rs.path("status") instanceof ObjectNode s ? s : rs.putObject("status");
    if (status.path("replicas").asInt(0) == replicas && status.path("availableReplicas").asInt(0) == replicas
        && status.path("observedGeneration").asLong(0) == generation) {
      return;
    }
    status.put("replicas", replicas).put("fullyLabeledReplicas", replicas).put("readyReplicas", replicas)
        .put("availableReplicas", replicas).put("observedGeneration", generation);
    try {
      replicaSets.updateStatus(DynamicObject.of(rs));
    } catch (StatusException e) {
      if (e.code() != 409 && e.code() != 404) {
        throw e;
      } // a newer version is on its way to this handler; it is played then
    }
  }
}
