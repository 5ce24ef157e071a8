package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * PriorityClasses (scheduling.k8s.io/v1), kube's defaults: {@code preemptionPolicy:
 * PreemptLowerPriority} ({@code kubectl describe} reads it without checking it is there).
 */
final class PriorityClassStrategy implements RestStrategy {

  @Override
  public void defaults(ObjectNode obj) {
    Fields.defaultIfAbsent(obj, "preemptionPolicy", "PreemptLowerPriority");
  }
}
