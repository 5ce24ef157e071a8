package io.listwatch.apiserver.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An object at the version a webhook is called with, and back (kube converts the object to the
 * invocation's kind for the review and the patched object back to the request's). Only custom
 * resources are called at another version here, whose versions share one schema-less shape: the
 * conversion sets {@code apiVersion} (kube's {@code None} conversion strategy). Stateless.
 */
final class Versions {

  private Versions() {
  }

  /** {@code object} (null stays null) at {@code invocation}'s apiVersion: itself when it is already, else a copy. */
  static JsonNode of(ObjectNode object, WebhookInvocation invocation) {
    if (object == null || object.path("apiVersion").asText("").equals(invocation.apiVersion())
        || !object.has("apiVersion")) {
      return object;
    }
    ObjectNode copy = object.deepCopy();
    copy.put("apiVersion", invocation.apiVersion());
    return copy;
  }
}
