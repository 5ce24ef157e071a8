package io.listwatch.controllers.scheduler;

import java.util.Map;

/**
 * One topology domain: a node label key and its value, e.g. {@code topology.kubernetes.io/zone=a}
 * (kube's {@code topologyPair}). Immutable.
 */
record TopologyPair(String key, String value) {

  /** The domain of {@code labels} for {@code key}, or null when the node lacks the label. */
  static TopologyPair of(String key, Map<String, String> labels) {
    String value = labels.get(key);
    return value == null ? null : new TopologyPair(key, value);
  }
}
