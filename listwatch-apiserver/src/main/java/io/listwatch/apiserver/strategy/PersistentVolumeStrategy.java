package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.meta.ObjectMetaRules;
import java.time.Instant;

/**
 * PersistentVolumes (core/v1), kube's strategy and defaults: {@code
 * persistentVolumeReclaimPolicy: Retain} and {@code volumeMode: Filesystem}; a new volume is
 * Pending, with {@code lastPhaseTransitionTime} the time of its creation.
 */
final class PersistentVolumeStrategy implements RestStrategy {

  @Override
  public void defaults(ObjectNode obj) {
    ObjectNode pv = Fields.object(obj, "spec", true);
    if (pv != null) {
      Fields.defaultIfAbsent(pv, "persistentVolumeReclaimPolicy", "Retain");
      Fields.defaultIfAbsent(pv, "volumeMode", "Filesystem");
    }
  }

  @Override
  public void prepareForCreate(ObjectNode obj, Instant now) {
    obj.putObject("status").put("phase", "Pending")
        .put("lastPhaseTransitionTime", ObjectMetaRules.timestamp(now));
  }
}
