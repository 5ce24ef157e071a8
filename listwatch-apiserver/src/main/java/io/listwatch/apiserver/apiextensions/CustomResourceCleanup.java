package io.listwatch.apiserver.apiextensions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.apiserver.rest.DeleteOptions;
import io.listwatch.apiserver.rest.ResourceStore;
import java.util.List;
import java.util.concurrent.CompletionException;

/**
 * kube's CRD finalizer: empties a CustomResourceDefinition being deleted of its custom
 * resources, then removes the {@code customresourcecleanup.apiextensions.k8s.io} finalizer
 * (the server puts it on a definition when it is deleted), so the definition goes.
 *
 * <p>The {@code Terminating} condition tells how far it got: {@code InstanceDeletionInProgress}
 * while deleting, {@code InstanceDeletionCheck} while objects with finalizers of their own
 * remain (each one's deletion brings a new look), and {@code InstanceDeletionCompleted} (False)
 * when none is left.
 *
 * <p>Confined to the {@code crd-controller} thread (its owner's); blocks on storage.
 */
final class CustomResourceCleanup {

  /** The finalizer kube puts on a definition being deleted. */
  static final String FINALIZER = io.listwatch.apiserver.strategy.CustomResourceDefinitionStrategy.CLEANUP_FINALIZER;

  private final ResourceStore definitions;
  private final Clock clock;

  CustomResourceCleanup(ResourceStore definitions, Clock clock) {
    this.definitions = definitions;
    this.clock = clock;
  }

  static boolean hasFinalizer(ObjectNode crd) {
    return ObjectMetaRules.finalizers(crd).contains(FINALIZER);
  }

  /**
   * Deletes the objects of {@code instances} (the definition's served store, null when it was
   * never served) and, once none is left, removes the finalizer. Returns whether it did.
   */
  boolean cleanUp(ObjectNode crd, ResourceStore instances) {
    String name = crd.path("metadata").path("name").asText();
    String reason = terminatingReason(crd);
    if (!reason.equals("InstanceDeletionInProgress") && !reason.equals("InstanceDeletionCheck")) { // once
      condition(name, "True", "InstanceDeletionInProgress", "CustomResource deletion is in progress");
    }
    if (instances != null) {
      for (ObjectNode obj : instances.listInternal("").join()) {
        if (ObjectMetaRules.isMarkedForDeletion(obj)) {
          continue;
        }
        JsonNode meta = obj.path("metadata");
        try {
          instances.deleteInternal(meta.path("namespace").asText(""), meta.path("name").asText(),
              DeleteOptions.of(meta.path("uid").asText(), null)).join();
        } catch (CompletionException e) {
          if (!(e.getCause() instanceof StatusException se && (se.code() == 404 || se.code() == 409))) {
            throw e;
          }
        }
      }
      List<ObjectNode> left = instances.listInternal("").join();
      if (!left.isEmpty()) {
        condition(name, "True", "InstanceDeletionCheck",
            "could not confirm zero CustomResources remaining: " + left.size() + " remaining");
        return false;
      }
    }
    condition(name, "False", "InstanceDeletionCompleted", "removed all instances");
    definitions.updateInternal("", name, current -> {
      ObjectNode meta = ObjectMetaRules.metadata(current);
      if (meta.get("finalizers") instanceof ArrayNode f) {
        for (int i = f.size() - 1; i >= 0; i--) {
          if (f.get(i).asText().equals(FINALIZER)) {
            f.remove(i);
          }
        }
        if (f.isEmpty()) {
          meta.remove("finalizers");
        }
      }
      return current;
    }).join();
    return true;
  }

  private static String terminatingReason(ObjectNode crd) {
    for (JsonNode c : crd.path("status").path("conditions")) {
      if (c.path("type").asText().equals("Terminating")) {
        return c.path("reason").asText("");
      }
    }
    return "";
  }

  private void condition(String name, String status, String reason, String message) {
    definitions.updateStatusInternal("", name, current -> {
      CustomResourceDefinitionController.setCondition(current, "Terminating", status, reason, message, clock);
      return current;
    }).join();
  }
}
