package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.meta.ObjectMetaRules;
import java.time.Instant;
import java.util.Set;

/**
 * CustomResourceDefinitions (apiextensions.k8s.io/v1), kube's CRD REST delete: the first delete
 * adds the finalizer {@value #CLEANUP_FINALIZER} and the condition {@code Terminating}
 * ({@code InstanceDeletionPending}); the CRD controller deletes the custom resources, then
 * removes the finalizer. (The definition's validation needs the user and the served schemas:
 * {@code apiextensions.CustomResourceDefinitionValidation}.)
 */
public final class CustomResourceDefinitionStrategy implements RestStrategy {

  /** The finalizer kube puts on a CustomResourceDefinition when it is first deleted. */
  public static final String CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";

  @Override
  public void prepareForDelete(ObjectNode crd, Set<String> finalizers, Instant now) {
    finalizers.add(CLEANUP_FINALIZER);
    ObjectNode status = crd.get("status") instanceof ObjectNode s ? s : crd.putObject("status");
    ArrayNode conditions = status.get("conditions") instanceof ArrayNode c ? c : status.putArray("conditions");
    for (int i = conditions.size() - 1; i >= 0; i--) {
      if (conditions.get(i).path("type").asText().equals("Terminating")) {
        conditions.remove(i);
      }
    }
    conditions.addObject().put("type", "Terminating").put("status", "True")
        .put("lastTransitionTime", ObjectMetaRules.timestamp(now)).put("reason", "InstanceDeletionPending")
        .put("message", "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon");
  }
}
