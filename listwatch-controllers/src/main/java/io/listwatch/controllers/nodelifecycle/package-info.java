/**
 * The node lifecycle controller: {@link io.listwatch.controllers.nodelifecycle.NodeLifecycleController}
 * marks nodes whose heartbeat Lease stopped being renewed, taints them unreachable and evicts
 * their pods.
 */
package io.listwatch.controllers.nodelifecycle;
