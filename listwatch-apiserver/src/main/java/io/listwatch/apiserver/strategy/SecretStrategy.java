package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Secrets (core/v1), kube's defaults: {@code type: Opaque}. */
final class SecretStrategy implements RestStrategy {

  @Override
  public void defaults(ObjectNode obj) {
    Fields.defaultIfAbsent(obj, "type", "Opaque");
  }
}
