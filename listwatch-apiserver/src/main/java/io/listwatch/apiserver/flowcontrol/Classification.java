package io.listwatch.apiserver.flowcontrol;

/**
 * What API Priority and Fairness decided a request is: the FlowSchema it matched, the priority
 * level that schema names, its flow (the distinguisher) and its width in seats. The server
 * answers the UIDs in kube's {@code X-Kubernetes-PF-FlowSchema-UID} and
 * {@code X-Kubernetes-PF-PriorityLevel-UID} headers (never the names, as kube).
 *
 * @param seats the seats the request occupies while it executes (its work estimate)
 */
public record Classification(String flowSchema, String flowSchemaUid, String priorityLevel, String priorityLevelUid,
    String flowDistinguisher, int seats) {

  /** kube's response header naming the matched FlowSchema's UID. */
  public static final String FLOW_SCHEMA_UID_HEADER = "X-Kubernetes-PF-FlowSchema-UID";
  /** kube's response header naming the matched PriorityLevelConfiguration's UID. */
  public static final String PRIORITY_LEVEL_UID_HEADER = "X-Kubernetes-PF-PriorityLevel-UID";
}
