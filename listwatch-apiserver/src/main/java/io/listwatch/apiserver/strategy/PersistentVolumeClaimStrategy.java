package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** PersistentVolumeClaims (core/v1), kube's defaults: {@code volumeMode: Filesystem}. */
final class PersistentVolumeClaimStrategy implements RestStrategy {

  @Override
  public void defaults(ObjectNode obj) {
    Fields.defaultIfAbsent(Fields.object(obj, "spec", true), "volumeMode", "Filesystem");
  }
}
