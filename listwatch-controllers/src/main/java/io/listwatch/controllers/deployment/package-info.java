/**
 * kube's deployment controller: a Deployment's pod template becomes a ReplicaSet named
 * {@code <deployment>-<pod-template-hash>}, and rollouts move replicas from the old ReplicaSets
 * to the new one.
 *
 * <p>Map: {@link io.listwatch.controllers.deployment.DeploymentController} (informer handlers,
 * workqueue, workers, {@code syncDeployment}); {@code DeploymentSync} (kube's sync.go: new
 * ReplicaSet, scaling, cleanup, status); {@code RollingUpdate}, {@code Recreate} and
 * {@code RolloutProgress} (rolling.go, recreate.go, progress.go); {@code ReplicaSetClaims}
 * (adoption and release by selector); {@code ReplicaSets} and {@code Revisions} (kube's
 * deployment util); {@code PodTemplateHash}, {@code Fenceposts}; the views {@code Deployment},
 * {@code ReplicaSet}, {@code DeploymentStatus}, {@code DeploymentCondition}.
 */
package io.listwatch.controllers.deployment;
