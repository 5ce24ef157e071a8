package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;

/**
 * kube's {@code StorageObjectInUseProtection} admission plug-in: a new PersistentVolumeClaim
 * gets the finalizer {@code kubernetes.io/pvc-protection}, a new PersistentVolume
 * {@code kubernetes.io/pv-protection}, so neither goes while in use (the protection
 * controllers remove them). Mutating only. Stateless.
 */
public final class StorageObjectInUseProtection implements AdmissionPlugin {

  static final String PVC_PROTECTION = "kubernetes.io/pvc-protection";
  static final String PV_PROTECTION = "kubernetes.io/pv-protection";

  @Override
  public void admit(AdmissionAttributes a) {
    if (a.is(AdmissionAttributes.Operation.CREATE, "", "persistentvolumeclaims")) {
      addFinalizer(a, PVC_PROTECTION);
    } else if (a.is(AdmissionAttributes.Operation.CREATE, "", "persistentvolumes")) {
      addFinalizer(a, PV_PROTECTION);
    }
  }

  private static void addFinalizer(AdmissionAttributes a, String finalizer) {
    ArrayNode finalizers = AdmittedObjects.array(AdmittedObjects.object(a.object(), "metadata"), "finalizers");
    for (JsonNode f : finalizers) {
      if (f.asText().equals(finalizer)) {
        return;
      }
    }
    finalizers.add(finalizer);
  }
}
