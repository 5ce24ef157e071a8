package io.listwatch.apiserver.admission;

import static io.listwatch.apiserver.admission.Admissions.admitted;
import static io.listwatch.apiserver.admission.Admissions.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import org.junit.jupiter.api.Test;

/** The storage plug-ins: DefaultStorageClass, StorageObjectInUseProtection, PersistentVolumeClaimResize. */
class StorageAdmissionTest {

  private final ListersStub listers = new ListersStub();

  private static String storageClass(String name, String created, String isDefault) {
    return "{\"metadata\":{\"name\":\"" + name + "\",\"creationTimestamp\":\"" + created + "\""
        + (isDefault == null ? "" : ",\"annotations\":{\"storageclass.kubernetes.io/is-default-class\":\"" + isDefault + "\"}")
        + "},\"provisioner\":\"p\"}";
  }

  private String defaulted(String pvcSpec) {
    var pvc = admitted(new DefaultStorageClass(listers), Admissions.create("", "v1", "persistentvolumeclaims", "ns",
        "{\"metadata\":{\"name\":\"c\"},\"spec\":" + pvcSpec + "}"));
    return pvc.at("/spec/storageClassName").isMissingNode() ? null : pvc.at("/spec/storageClassName").asText();
  }

  @Test
  void defaultStorageClass_namesTheNewestDefault_whenTheClaimNamesNone() {
    assertThat(defaulted("{}")).isNull();
    listers.add("storage.k8s.io", "storageclasses", "", storageClass("plain", "2024-01-01T00:00:00Z", null))
        .add("storage.k8s.io", "storageclasses", "", storageClass("no", "2024-01-01T00:00:00Z", "false"));
    assertThat(defaulted("{}")).isNull();
    listers.add("storage.k8s.io", "storageclasses", "", storageClass("old", "2024-01-01T00:00:00Z", "true"));
    assertThat(defaulted("{}")).isEqualTo("old");
    listers.add("storage.k8s.io", "storageclasses", "", storageClass("new", "2024-06-01T00:00:00Z", "true"))
        .add("storage.k8s.io", "storageclasses", "", storageClass("anew", "2024-06-01T00:00:00Z", "true"));
    assertThat(defaulted("{}")).as("newest; by name when created together").isEqualTo("anew");
    assertThat(defaulted("{\"storageClassName\":\"\"}")).isEmpty();
    assertThat(defaulted("{\"storageClassName\":\"fast\"}")).isEqualTo("fast");
    var beta = admitted(new DefaultStorageClass(listers), Admissions.create("", "v1", "persistentvolumeclaims", "ns",
        "{\"metadata\":{\"name\":\"c\",\"annotations\":{\"volume.beta.kubernetes.io/storage-class\":\"x\"}},\"spec\":{}}"));
    assertThat(beta.at("/spec/storageClassName").isMissingNode()).isTrue();
  }

  @Test
  void storageObjectInUseProtection_addsTheFinalizers_once() {
    var pvc = admitted(new StorageObjectInUseProtection(), Admissions.create("", "v1", "persistentvolumeclaims", "ns",
        "{\"metadata\":{\"name\":\"c\",\"finalizers\":[\"x\"]}}"));
    assertThat(pvc.at("/metadata/finalizers").toString()).isEqualTo("[\"x\",\"kubernetes.io/pvc-protection\"]");
    var pv = admitted(new StorageObjectInUseProtection(), Admissions.create("", "v1", "persistentvolumes", "",
        "{\"metadata\":{\"name\":\"v\",\"finalizers\":[\"kubernetes.io/pv-protection\"]}}"));
    assertThat(pv.at("/metadata/finalizers").toString()).isEqualTo("[\"kubernetes.io/pv-protection\"]");
    var update = admitted(new StorageObjectInUseProtection(), Admissions.update("", "v1", "persistentvolumeclaims", "ns",
        "{\"metadata\":{\"name\":\"c\"}}", "{\"metadata\":{\"name\":\"c\"}}"));
    assertThat(update.at("/metadata/finalizers").isMissingNode()).isTrue();
  }

  private static String pvc(String storageClass, String size, String phase) {
    return "{\"metadata\":{\"name\":\"c\"},\"spec\":{" + (storageClass == null ? "" : "\"storageClassName\":\"" + storageClass + "\",")
        + "\"resources\":{\"requests\":{\"storage\":\"" + size + "\"}}},\"status\":{\"phase\":\"" + phase + "\"}}";
  }

  private StatusException resize(String pvc, String old) {
    return refusal(new PersistentVolumeClaimResize(listers), Admissions.update("", "v1", "persistentvolumeclaims", "ns", pvc, old));
  }

  @Test
  void persistentVolumeClaimResize_growsOnlyBoundClaimsOfAnExpandableClass() {
    listers.add("storage.k8s.io", "storageclasses", "", "{\"metadata\":{\"name\":\"grows\"},\"allowVolumeExpansion\":true}")
        .add("storage.k8s.io", "storageclasses", "", "{\"metadata\":{\"name\":\"fixed\"}}");
    String onlyBound = "persistentvolumeclaims \"c\" is forbidden: Only bound persistent volume claims can be expanded";
    String noResize = "persistentvolumeclaims \"c\" is forbidden: only dynamically provisioned pvc can be resized and "
        + "the storageclass that provisions the pvc must support resize";
    assertThat(resize(pvc("grows", "2Gi", "Bound"), pvc("grows", "1Gi", "Bound"))).isNull();
    assertThat(resize(pvc("fixed", "1Gi", "Bound"), pvc("fixed", "1024Mi", "Bound"))).as("same amount").isNull();
    assertThat(resize(pvc("fixed", "1Gi", "Bound"), pvc("fixed", "2Gi", "Bound"))).as("shrinking is validation's").isNull();
    assertThat(resize(pvc("grows", "2Gi", "Pending"), pvc("grows", "1Gi", "Pending")).status().message()).isEqualTo(onlyBound);
    for (String[] c : new String[][] {{"fixed", "fixed"}, {null, null}, {"missing", "missing"}, {"grows", "fixed"}}) {
      StatusException e = resize(pvc(c[0], "2Gi", "Bound"), pvc(c[1], "1Gi", "Bound"));
      assertThat(e).as(c[0] + " from " + c[1]).isNotNull();
      assertThat(e.code()).isEqualTo(403);
      assertThat(e.status().message()).isEqualTo(noResize);
    }
  }
}
