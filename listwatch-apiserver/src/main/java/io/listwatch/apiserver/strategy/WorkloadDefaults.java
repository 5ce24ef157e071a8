package io.listwatch.apiserver.strategy;

/**
 * The values kube's defaulting gives the apps workloads alike (deployments, replicasets,
 * statefulsets, daemonsets). {@link #DEFAULT_REPLICAS} is public for what reads a workload's
 * replicas outside its strategy (the {@code /scale} subresource of one stored without them).
 */
public final class WorkloadDefaults {

  /** kube's default {@code spec.replicas} of the workloads that have one. */
  public static final int DEFAULT_REPLICAS = 1;
  /** kube's default {@code spec.revisionHistoryLimit}. */
  static final int REVISION_HISTORY_LIMIT = 10;
  /** The update strategy type kube defaults to. */
  static final String ROLLING_UPDATE = "RollingUpdate";

  private WorkloadDefaults() {
  }
}
