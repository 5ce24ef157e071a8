package io.listwatch.apiserver.printers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** PersistentVolumes, PersistentVolumeClaims, StorageClasses. */
class StorageTableConvertorsTest {

  @Test
  void persistentVolume_showsCapacityModesPolicyPhaseClaimAndClass() {
    PersistentVolumeTableConvertor c = new PersistentVolumeTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Capacity:string", "Access Modes:string",
        "Reclaim Policy:string", "Status:string", "Claim:string", "StorageClass:string",
        "VolumeAttributesClass:string", "Reason:string", "Age:string", "VolumeMode:string:wide");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"pv1"},
         "spec":{"capacity":{"storage":"10Gi"},"accessModes":["ReadWriteMany","ReadWriteOnce","ReadWriteOnce"],
          "persistentVolumeReclaimPolicy":"Delete","claimRef":{"namespace":"shop","name":"data"},
          "storageClassName":"fast","volumeAttributesClassName":"gold","volumeMode":"Block"},
         "status":{"phase":"Bound"}}
        """)).containsExactly("pv1", "10Gi", "RWO,RWX", "Delete", "Bound", "shop/data", "fast", "gold", "",
        "<unknown>", "Block");
  }

  @Test
  void persistentVolume_printsKubesDefaults_andTerminatingWhileDeleted() {
    PersistentVolumeTableConvertor c = new PersistentVolumeTableConvertor();
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"pv\"}}"))
        .containsExactly("pv", "0", "", "Retain", "Pending", "", "", "<unset>", "", "<unknown>", "Filesystem");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"pv","deletionTimestamp":"2026-01-01T11:00:00Z",
          "annotations":{"volume.beta.kubernetes.io/storage-class":"legacy"}},
         "spec":{"storageClassName":"fast"},"status":{"phase":"Released","reason":"Recycling"}}
        """)).containsSubsequence("Terminating", "legacy", "<unset>", "Recycling");
  }

  @Test
  void persistentVolumeClaim_showsCapacityAndModesOnlyOnceBound() {
    PersistentVolumeClaimTableConvertor c = new PersistentVolumeClaimTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Status:string", "Volume:string",
        "Capacity:string", "Access Modes:string", "StorageClass:string", "VolumeAttributesClass:string",
        "Age:string", "VolumeMode:string:wide");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"data"},
         "spec":{"volumeName":"pv1","storageClassName":"fast","accessModes":["ReadWriteOnce"],
          "resources":{"requests":{"storage":"5Gi"}}},
         "status":{"phase":"Bound","capacity":{"storage":"10Gi"},"accessModes":["ReadOnlyMany","ReadWriteOncePod"]}}
        """)).containsExactly("data", "Bound", "pv1", "10Gi", "ROX,RWOP", "fast", "<unset>", "<unknown>", "Filesystem");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"new"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"5Gi"}},
         "volumeMode":"Block"}}
        """)).containsExactly("new", "Pending", "", "", "", "", "<unset>", "<unknown>", "Block");
  }

  @Test
  void storageClass_marksTheDefault_andPrintsKubesDefaultPolicies() {
    StorageClassTableConvertor c = new StorageClassTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Provisioner:string", "ReclaimPolicy:string",
        "VolumeBindingMode:string", "AllowVolumeExpansion:string", "Age:string");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"standard","annotations":{"storageclass.kubernetes.io/is-default-class":"true"}},
         "provisioner":"rancher.io/local-path","reclaimPolicy":"Retain","volumeBindingMode":"WaitForFirstConsumer",
         "allowVolumeExpansion":true}
        """)).containsExactly("standard (default)", "rancher.io/local-path", "Retain", "WaitForFirstConsumer", true,
        "<unknown>");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"slow","annotations":{"storageclass.beta.kubernetes.io/is-default-class":"false"}},
         "provisioner":"ebs.csi.aws.com"}
        """)).containsExactly("slow", "ebs.csi.aws.com", "Delete", "Immediate", false, "<unknown>");
  }
}
