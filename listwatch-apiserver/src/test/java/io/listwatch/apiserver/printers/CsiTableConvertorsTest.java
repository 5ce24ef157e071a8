package io.listwatch.apiserver.printers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** storage.k8s.io's CSI kinds: kube's columns and cells (pkg/printers/internalversion). */
class CsiTableConvertorsTest {

  @Test
  void csiDriver_showsFlagsAudiencesAndModes_withKubesFallbacks() {
    CSIDriverTableConvertor c = new CSIDriverTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "AttachRequired:boolean", "PodInfoOnMount:boolean",
        "StorageCapacity:boolean", "TokenRequests:string", "RequiresRepublish:boolean", "Modes:string", "Age:string");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"d.example.com"},
         "spec":{"attachRequired":false,"podInfoOnMount":true,"storageCapacity":true,
          "tokenRequests":[{"audience":"gcp"},{"audience":""}],"requiresRepublish":true,
          "volumeLifecycleModes":["Persistent","Ephemeral"]}}
        """)).containsExactly("d.example.com", false, true, true, "gcp,", true, "Persistent,Ephemeral", "<unknown>");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"d\"}}"))
        .containsExactly("d", true, false, false, "<unset>", false, "<none>", "<unknown>");
  }

  @Test
  void csiNode_countsItsDrivers() {
    CSINodeTableConvertor c = new CSINodeTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Drivers:integer", "Age:string");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"n1\"},\"spec\":{\"drivers\":[{\"name\":\"a\"},{\"name\":\"b\"}]}}"))
        .containsExactly("n1", 2L, "<unknown>");
  }

  @Test
  void csiStorageCapacity_showsClassAndCanonicalCapacity_withoutAge() {
    CSIStorageCapacityTableConvertor c = new CSIStorageCapacityTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "StorageClassName:string", "Capacity:string");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"c\"},\"storageClassName\":\"fast\",\"capacity\":\"1024Mi\"}"))
        .containsExactly("c", "fast", "1Gi");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"c\"},\"storageClassName\":\"fast\"}"))
        .containsExactly("c", "fast", "<unset>");
  }

  @Test
  void volumeAttachment_showsAttacherVolumeNodeAndAttached() {
    VolumeAttachmentTableConvertor c = new VolumeAttachmentTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Attacher:string", "PV:string", "Node:string",
        "Attached:boolean", "Age:string");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"csi-123"},"spec":{"attacher":"ebs.csi.aws.com","source":{"persistentVolumeName":"pv1"},
         "nodeName":"node1"},"status":{"attached":true}}
        """)).containsExactly("csi-123", "ebs.csi.aws.com", "pv1", "node1", true, "<unknown>");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"v\"},\"spec\":{\"attacher\":\"a\",\"source\":{\"inlineVolumeSpec\":{}}}}"))
        .containsExactly("v", "a", "", "", false, "<unknown>");
  }
}
