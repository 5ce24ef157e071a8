/**
 * kube's ReplicaSetController: {@link io.listwatch.controllers.replicaset.ReplicaSetController}
 * (informer handlers, workqueue, sync), {@code ReplicaSetScaler} (creating and deleting pods in
 * slow-start batches), {@code ActivePodsWithRanks} (which pods go first on scale-down),
 * {@code ReplicaSetStatus} (the status written through {@code /status}), and the small readers
 * {@code Pods} and {@code ReplicaSetSpec}.
 */
package io.listwatch.controllers.replicaset;
