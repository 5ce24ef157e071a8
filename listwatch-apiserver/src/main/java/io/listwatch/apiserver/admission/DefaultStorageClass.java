package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * kube's {@code DefaultStorageClass} admission plug-in: a new PersistentVolumeClaim that names
 * no class (no {@code spec.storageClassName}, not even "", and no beta annotation
 * {@code volume.beta.kubernetes.io/storage-class}) gets the default StorageClass's name: the
 * class annotated {@code storageclass.kubernetes.io/is-default-class: "true"} (or the beta
 * annotation), the newest of several. No default class: the claim is left as it is. Mutating
 * only. Thread-safe: no state beyond its listers.
 */
public final class DefaultStorageClass implements AdmissionPlugin {

  static final String IS_DEFAULT = "storageclass.kubernetes.io/is-default-class";
  static final String BETA_IS_DEFAULT = "storageclass.beta.kubernetes.io/is-default-class";
  static final String BETA_CLASS = "volume.beta.kubernetes.io/storage-class";

  private final Listers listers;

  public DefaultStorageClass(Listers listers) {
    this.listers = listers;
  }

  @Override
  public void admit(AdmissionAttributes a) {
    if (!a.is(AdmissionAttributes.Operation.CREATE, "", "persistentvolumeclaims")) {
      return;
    }
    ObjectNode spec = AdmittedObjects.object(a.object(), "spec");
    if (AdmittedObjects.isSet(spec, "storageClassName") || AdmittedObjects.annotation(a.object(), BETA_CLASS).isPresent()) {
      return;
    }
    AdmittedObjects.newest(listers.list("storage.k8s.io", "storageclasses", "").stream()
            .filter(c -> AdmittedObjects.annotation(c, IS_DEFAULT).or(() -> AdmittedObjects.annotation(c, BETA_IS_DEFAULT))
                .filter("true"::equals).isPresent())
            .toList())
        .ifPresent(c -> spec.put("storageClassName", c.path("metadata").path("name").asText()));
  }
}
