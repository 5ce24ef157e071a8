package io.listwatch.nodeagent;

/**
 * What a {@link PodUpdate} says about its pods: the kubelet's {@code kubetypes.PodOperation}.
 *
 * <p>Sources send {@link #SET} (the complete set of the source's pods) or the incremental
 * {@link #ADD}, {@link #UPDATE}, {@link #DELETE} and {@link #REMOVE}. {@link PodConfig} sends
 * downstream every operation but {@code SET}, plus {@link #RECONCILE}.
 */
public enum PodOperation {
  /** Pods new to the agent (downstream), or pods a source adds (upstream). */
  ADD,
  /** Pods whose spec, labels, annotations or deletion fields changed. */
  UPDATE,
  /** Pods being deleted gracefully: their {@code deletionTimestamp} is now set. */
  DELETE,
  /** Pods gone from their source: stop them and forget them. */
  REMOVE,
  /** Pods whose status alone changed: the agent, owner of pod status, writes it back. */
  RECONCILE,
  /** From a source only: the complete set of that source's pods. */
  SET
}
