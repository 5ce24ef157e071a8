package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.core.Quantity;
import java.util.concurrent.CompletableFuture;

/**
 * kube's {@code PersistentVolumeClaimResize} admission plug-in: an update that grows a
 * PersistentVolumeClaim's {@code spec.resources.requests.storage} is refused (403) unless the
 * claim is Bound and its StorageClass (the beta annotation
 * {@code volume.beta.kubernetes.io/storage-class}, else {@code spec.storageClassName}, the same
 * before and after) says {@code allowVolumeExpansion: true}. Validating only. Thread-safe: no
 * state beyond its listers.
 */
public final class PersistentVolumeClaimResize implements AdmissionPlugin {

  private final Listers listers;

  public PersistentVolumeClaimResize(Listers listers) {
    this.listers = listers;
  }

  @Override
  public CompletableFuture<Void> validate(AdmissionAttributes a) {
    if (!a.is(AdmissionAttributes.Operation.UPDATE, "", "persistentvolumeclaims") || !grows(a)) {
      return CompletableFuture.completedFuture(null);
    }
    if (!a.oldObject().path("status").path("phase").asText("").equals("Bound")) {
      return CompletableFuture.failedFuture(AdmittedObjects.forbidden(a,
          "Only bound persistent volume claims can be expanded"));
    }
    if (!allowsResize(a.object(), a.oldObject())) {
      return CompletableFuture.failedFuture(AdmittedObjects.forbidden(a, "only dynamically provisioned pvc can be "
          + "resized and the storageclass that provisions the pvc must support resize"));
    }
    return CompletableFuture.completedFuture(null);
  }

  private static boolean grows(AdmissionAttributes a) {
    return storage(a.object()).compareTo(storage(a.oldObject())) > 0;
  }

  private static java.math.BigDecimal storage(JsonNode pvc) {
    JsonNode request = pvc.path("spec").path("resources").path("requests").path("storage");
    try {
      return request.isTextual() || request.isNumber() ? Quantity.parse(request.asText()) : java.math.BigDecimal.ZERO;
    } catch (IllegalArgumentException e) {
      return java.math.BigDecimal.ZERO; // validation refuses it
    }
  }

  private boolean allowsResize(JsonNode pvc, JsonNode old) {
    String storageClass = className(pvc);
    if (storageClass.isEmpty() || !storageClass.equals(className(old))) {
      return false;
    }
    return listers.get("storage.k8s.io", "storageclasses", "", storageClass)
        .map(sc -> sc.path("allowVolumeExpansion").asBoolean(false)).orElse(false);
  }

  /** kube's GetPersistentVolumeClaimClass: the beta annotation, else the field. */
  private static String className(JsonNode pvc) {
    return AdmittedObjects.annotation(pvc, DefaultStorageClass.BETA_CLASS)
        .orElse(pvc.path("spec").path("storageClassName").asText(""));
  }
}
