package io.listwatch.controllers.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class RevisionsTest {

  private static Deployment deployment() {
    ObjectNode d = DeploymentFixture.deployment(4, "nginx:1", "25%", 0);
    ((ObjectNode) d.path("metadata")).putObject("annotations").put("kubernetes.io/change-cause", "set image")
        .put("kubectl.kubernetes.io/last-applied-configuration", "{}")
        .put(Revisions.REVISION, "7");
    return new Deployment(d);
  }

  @Test
  void newReplicaSet_getsTheRevision_replicaAnnotations_andTheDeploymentsAnnotationsButLastApplied() {
    ReplicaSet rs = new ReplicaSet(DeploymentFixture.replicaSet("nginx:1", 0, 0, 0, 0));
    rs.tree().with("metadata").remove("annotations");
    assertThat(Revisions.setNewReplicaSetAnnotations(deployment(), rs, "3", false)).isTrue();
    assertThat(rs.annotations()).containsEntry(Revisions.REVISION, "3")
        .containsEntry("kubernetes.io/change-cause", "set image")
        .containsEntry(Revisions.DESIRED_REPLICAS, "4")
        .containsEntry(Revisions.MAX_REPLICAS, "5")
        .doesNotContainKey("kubectl.kubernetes.io/last-applied-configuration")
        .doesNotContainKey(Revisions.REVISION_HISTORY);
  }

  @Test
  void reusedReplicaSet_keepsItsEarlierRevisions_inTheHistory() {
    ReplicaSet rs = new ReplicaSet(DeploymentFixture.replicaSet("nginx:1", 0, 0, 2, 0));
    rs.setAnnotation(Revisions.REVISION_HISTORY, "1");
    assertThat(Revisions.setNewReplicaSetAnnotations(deployment(), rs, "5", true)).isTrue();
    assertThat(rs.annotations()).containsEntry(Revisions.REVISION, "5").containsEntry(Revisions.REVISION_HISTORY, "1,2")
        .doesNotContainKey(Revisions.DESIRED_REPLICAS);
  }

  @Test
  void currentRevision_changesNothing_onceTheAnnotationsAreCopied() {
    ReplicaSet rs = new ReplicaSet(DeploymentFixture.replicaSet("nginx:1", 0, 0, 5, 0));
    Revisions.setNewReplicaSetAnnotations(deployment(), rs, "5", true);
    assertThat(Revisions.setNewReplicaSetAnnotations(deployment(), rs, "5", true)).isFalse();
  }
}
