package io.listwatch.controllers.deployment;

import static io.listwatch.controllers.deployment.DeploymentFixture.deployment;
import static io.listwatch.controllers.deployment.DeploymentFixture.recreateDeployment;
import static io.listwatch.controllers.deployment.DeploymentFixture.replicaSet;
import static io.listwatch.controllers.deployment.DeploymentFixture.rsName;
import static io.listwatch.controllers.deployment.DeploymentFixture.synced;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.client.ResourceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One sync over fixture objects, the expected writes compared with the recorded ones (kube's
 * deployment_controller_test.go style).
 */
@Timeout(60)
class DeploymentControllerTest {

  private static final ResourceType D = ResourceType.DEPLOYMENTS;
  private static final ResourceType RS = ResourceType.REPLICASETS;

  private static String condition(JsonNode status, String type) {
    for (JsonNode c : status.path("conditions")) {
      if (c.path("type").asText().equals(type)) {
        return c.path("status").asText() + " " + c.path("reason").asText();
      }
    }
    return "none";
  }

  @Test
  void sync_createsReplicaSet_namedByTemplateHash_ownedByTheDeployment_andUpdatesStatus() throws Exception {
    try (DeploymentFixture f = new DeploymentFixture().objects(D, deployment(1, "nginx:1", "25%", "25%"))) {
      f.sync("default/web");
      String name = rsName("nginx:1");
      assertThat(f.writes()).containsExactly("create replicasets.apps default/" + name,
          "update deployments.apps/status default/web", "update deployments.apps/status default/web");

      ObjectNode rs = f.sent(0);
      String hash = name.substring("web-".length());
      assertThat(hash).matches("[bcdfghjklmnpqrstvwxz2456789]+");
      assertThat(rs.path("metadata").path("labels").path("pod-template-hash").asText()).isEqualTo(hash);
      assertThat(rs.path("spec").path("selector").path("matchLabels").path("pod-template-hash").asText()).isEqualTo(hash);
      assertThat(rs.path("spec").path("template").path("metadata").path("labels").path("pod-template-hash").asText())
          .isEqualTo(hash);
      JsonNode ref = rs.path("metadata").path("ownerReferences").get(0);
      assertThat(ref.path("kind").asText()).isEqualTo("Deployment");
      assertThat(ref.path("uid").asText()).isEqualTo(DeploymentFixture.D_UID);
      assertThat(ref.path("controller").asBoolean()).isTrue();
      assertThat(ref.path("blockOwnerDeletion").asBoolean()).isTrue();
      assertThat(rs.path("spec").path("replicas").asInt()).isEqualTo(1);
      JsonNode annotations = rs.path("metadata").path("annotations");
      assertThat(annotations.path("deployment.kubernetes.io/revision").asText()).isEqualTo("1");
      assertThat(annotations.path("deployment.kubernetes.io/desired-replicas").asText()).isEqualTo("1");
      assertThat(annotations.path("deployment.kubernetes.io/max-replicas").asText()).isEqualTo("2");

      ObjectNode first = f.sent(1);
      assertThat(first.path("metadata").path("annotations").path("deployment.kubernetes.io/revision").asText())
          .isEqualTo("1");
      assertThat(condition(first.path("status"), "Progressing")).isEqualTo("True NewReplicaSetCreated");
      ObjectNode second = f.sent(2);
      assertThat(second.path("status").path("observedGeneration").asLong()).isEqualTo(1);
      assertThat(condition(second.path("status"), "Available")).isEqualTo("False MinimumReplicasUnavailable");
      assertThat(f.events).containsExactly("Normal ScalingReplicaSet Scaled up replica set " + name + " from 0 to 1");
    }
  }

  @Test
  void sync_emptySelector_recordsSelectingAll_andCreatesNothing() throws Exception {
    ObjectNode d = deployment(1, "nginx:1", 1, 0);
    try (DeploymentFixture f = new DeploymentFixture().objects(D, d).start()) {
      // the server (as kube's) refuses an empty selector now: one stored before that is only in the cache
      ObjectNode stored = f.client.server().get(D, "default", "web").orElseThrow();
      ((ObjectNode) stored.path("spec")).putObject("selector");
      f.replaceCached(D, stored);
      f.sync("default/web");
      assertThat(f.writes()).containsExactly("update deployments.apps/status default/web");
      assertThat(f.sent(0).path("status").path("observedGeneration").asLong()).isEqualTo(1);
      assertThat(f.events).singleElement().asString().startsWith("Warning SelectingAll");
    }
  }

  @Test
  void rollingUpdate_newTemplate_createsNewReplicaSet_withinMaxSurge() throws Exception {
    try (DeploymentFixture f = new DeploymentFixture().objects(D, deployment(3, "nginx:2", 1, 0))
        .objects(RS, replicaSet("nginx:1", 3, 3, 1, 10))) {
      f.sync("default/web");
      assertThat(f.writes()).startsWith("create replicasets.apps default/" + rsName("nginx:2"));
      assertThat(f.sent(0).path("spec").path("replicas").asInt()).isEqualTo(1);
      assertThat(f.sent(0).path("metadata").path("annotations").path("deployment.kubernetes.io/revision").asText())
          .isEqualTo("2");
      assertThat(f.events).contains("Normal ScalingReplicaSet Scaled up replica set " + rsName("nginx:2")
          + " from 0 to 1");
    }
  }

  @Test
  void rollingUpdate_newPodsAvailable_scalesOldReplicaSetDown_keepingMinimumAvailable() throws Exception {
    try (DeploymentFixture f = new DeploymentFixture().objects(D, synced(deployment(3, "nginx:2", 1, 0), 2))
        .objects(RS, replicaSet("nginx:1", 3, 3, 1, 10), replicaSet("nginx:2", 1, 1, 2, 1))) {
      f.sync("default/web");
      assertThat(f.writes()).containsExactly("update replicasets.apps default/" + rsName("nginx:1"),
          "update deployments.apps/status default/web");
      assertThat(f.sent(0).path("spec").path("replicas").asInt()).isEqualTo(2);
      assertThat(condition(f.sent(1).path("status"), "Available")).isEqualTo("True MinimumReplicasAvailable");
      assertThat(f.sent(1).path("status").path("updatedReplicas").asInt()).isEqualTo(1);
      assertThat(f.sent(1).path("status").path("replicas").asInt()).isEqualTo(4);
      assertThat(f.events).containsExactly("Normal ScalingReplicaSet Scaled down replica set "
          + rsName("nginx:1") + " from 3 to 2");
    }
  }

  @Test
  void rollingUpdate_percentages_roundSurgeUp_andUnavailableDown() throws Exception {
    // 10 replicas, 25% each: surge ceil(2.5) = 3, unavailable floor(2.5) = 2, so 13 pods at most
    try (DeploymentFixture f = new DeploymentFixture().objects(D, deployment(10, "nginx:2", "25%", "25%"))
        .objects(RS, replicaSet("nginx:1", 10, 10, 1, 10))) {
      f.sync("default/web");
      assertThat(f.sent(0).path("spec").path("replicas").asInt()).isEqualTo(3);
      assertThat(f.sent(0).path("metadata").path("annotations").path("deployment.kubernetes.io/max-replicas")
          .asText()).isEqualTo("13");
    }
  }

  @Test
  void rollingUpdate_complete_setsNewReplicaSetAvailable_andCleansUpBeyondHistoryLimit() throws Exception {
    ObjectNode d = deployment(2, "nginx:3", 1, 0);
    ((ObjectNode) d.path("spec")).put("revisionHistoryLimit", 1);
    ObjectNode status = ((ObjectNode) d).putObject("status");
    status.put("observedGeneration", 1).put("replicas", 2).put("updatedReplicas", 2).put("availableReplicas", 2)
        .put("readyReplicas", 2);
    try (DeploymentFixture f = new DeploymentFixture().objects(D, synced(d, 3)).objects(RS,
        replicaSet("nginx:1", 0, 0, 1, 30), replicaSet("nginx:2", 0, 0, 2, 20), replicaSet("nginx:3", 2, 2, 3, 10))) {
      f.sync("default/web");
      assertThat(f.writes()).containsExactly("delete replicasets.apps default/" + rsName("nginx:1"),
          "update deployments.apps/status default/web");
      assertThat(condition(f.sent(1).path("status"), "Progressing")).isEqualTo("True NewReplicaSetAvailable");
    }
  }

  @Test
  void rollback_templateOfAnOldReplicaSet_reusesIt_withTheNextRevision_andItsHistory() throws Exception {
    try (DeploymentFixture f = new DeploymentFixture().objects(D, deployment(2, "nginx:1", 1, 0))
        .objects(RS, replicaSet("nginx:1", 0, 0, 1, 30), replicaSet("nginx:2", 2, 2, 2, 10))) {
      f.sync("default/web");
      assertThat(f.writes()).doesNotContain("create replicasets.apps default/" + rsName("nginx:1"));
      assertThat(f.writes().getFirst()).isEqualTo("update replicasets.apps default/" + rsName("nginx:1"));
      JsonNode annotations = f.sent(0).path("metadata").path("annotations");
      assertThat(annotations.path("deployment.kubernetes.io/revision").asText()).isEqualTo("3");
      assertThat(annotations.path("deployment.kubernetes.io/revision-history").asText()).isEqualTo("1");
    }
  }

  @Test
  void scale_duringRollout_isProportional_withLeftoversToTheLargest() throws Exception {
    ObjectNode d = deployment(20, "nginx:2", 3, 2);
    ObjectNode oldRs = replicaSet("nginx:1", 8, 8, 1, 10);
    ObjectNode newRs = replicaSet("nginx:2", 4, 0, 2, 1);
    for (ObjectNode rs : new ObjectNode[] {oldRs, newRs}) {
      ((ObjectNode) rs.path("metadata").path("annotations")).put("deployment.kubernetes.io/desired-replicas", "10")
          .put("deployment.kubernetes.io/max-replicas", "13");
    }
    try (DeploymentFixture f = new DeploymentFixture().objects(D, synced(d, 2)).objects(RS, oldRs, newRs)) {
      f.sync("default/web");
      assertThat(f.writes()).containsExactly("update replicasets.apps default/" + rsName("nginx:1"),
          "update replicasets.apps default/" + rsName("nginx:2"), "update deployments.apps/status default/web");
      // 23 allowed (20 + surge 3), 11 to add: 8 * 23/13 -> 14 (+6), 4 * 23/13 -> 7 (+3), 2 left over to the largest
      assertThat(f.sent(0).path("spec").path("replicas").asInt()).isEqualTo(16);
      assertThat(f.sent(1).path("spec").path("replicas").asInt()).isEqualTo(7);
      assertThat(f.sent(1).path("metadata").path("annotations").path("deployment.kubernetes.io/desired-replicas")
          .asText()).isEqualTo("20");
      assertThat(f.events).containsExactly(
          "Normal ScalingReplicaSet Scaled up replica set " + rsName("nginx:1") + " from 8 to 16",
          "Normal ScalingReplicaSet Scaled up replica set " + rsName("nginx:2") + " from 4 to 7");
    }
  }

  @Test
  void paused_newTemplate_createsNoReplicaSet_andSaysPaused() throws Exception {
    ObjectNode d = deployment(2, "nginx:2", 1, 0);
    ((ObjectNode) d.path("spec")).put("paused", true);
    try (DeploymentFixture f = new DeploymentFixture().objects(D, d).objects(RS, replicaSet("nginx:1", 2, 2, 1, 10))) {
      f.sync("default/web");
      assertThat(f.writes()).allMatch(w -> !w.startsWith("create"));
      assertThat(f.writes()).contains("update deployments.apps/status default/web");
      assertThat(condition(f.sent(0).path("status"), "Progressing")).isEqualTo("Unknown DeploymentPaused");
    }
  }

  @Test
  void recreate_scalesOldReplicaSetsToZero_beforeCreatingTheNewOne() throws Exception {
    try (DeploymentFixture f = new DeploymentFixture().objects(D, recreateDeployment(2, "nginx:2"))
        .objects(RS, replicaSet("nginx:1", 2, 2, 1, 10))) {
      f.sync("default/web");
      assertThat(f.writes()).containsExactly("update replicasets.apps default/" + rsName("nginx:1"),
          "update deployments.apps/status default/web");
      assertThat(f.sent(0).path("spec").path("replicas").asInt()).isZero();
    }
  }

  @Test
  void recreate_oldPodsGone_createsTheNewReplicaSetAtFullSize() throws Exception {
    try (DeploymentFixture f = new DeploymentFixture().objects(D, recreateDeployment(2, "nginx:2"))
        .objects(RS, replicaSet("nginx:1", 0, 0, 1, 10))) {
      f.sync("default/web");
      assertThat(f.writes().getFirst()).isEqualTo("create replicasets.apps default/" + rsName("nginx:2"));
      assertThat(f.sent(0).path("spec").path("replicas").asInt()).isEqualTo(2);
    }
  }

  @Test
  void claims_adoptMatchingOrphans_andReleaseOwnedOnesNoLongerMatching() throws Exception {
    ObjectNode orphan = replicaSet("nginx:1", 1, 1, 1, 10);
    ((ObjectNode) orphan.path("metadata")).remove("ownerReferences");
    ObjectNode stray = replicaSet("nginx:0", 0, 0, 0, 20);
    ((ObjectNode) stray.path("metadata").path("labels")).put("app", "other");
    try (DeploymentFixture f = new DeploymentFixture().objects(D, deployment(1, "nginx:1", 1, 0))
        .objects(RS, orphan, stray)) {
      f.sync("default/web");
      assertThat(f.writes()).contains("patch replicasets.apps default/" + rsName("nginx:1"),
          "patch replicasets.apps default/" + rsName("nginx:0"));
      assertThat(f.client.server().get(RS, "default", rsName("nginx:1")).orElseThrow()
          .path("metadata").path("ownerReferences").get(0).path("uid").asText()).isEqualTo(DeploymentFixture.D_UID);
      assertThat(f.client.server().get(RS, "default", rsName("nginx:0")).orElseThrow()
          .path("metadata").path("ownerReferences")).isEmpty();
      assertThat(f.writes()).noneMatch(w -> w.startsWith("create"));
    }
  }

  @Test
  void progress_noProgressPastTheDeadline_setsProgressDeadlineExceeded() throws Exception {
    ObjectNode d = deployment(2, "nginx:2", 1, 0);
    ObjectNode status = d.putObject("status");
    status.put("observedGeneration", 1).put("replicas", 3).put("updatedReplicas", 1).put("readyReplicas", 2)
        .put("availableReplicas", 2);
    String stale = Trees.time(DeploymentFixture.NOW.minusSeconds(601));
    status.putArray("conditions").addObject().put("type", "Progressing").put("status", "True")
        .put("reason", "ReplicaSetUpdated").put("message", "x").put("lastUpdateTime", stale)
        .put("lastTransitionTime", stale);
    try (DeploymentFixture f = new DeploymentFixture().objects(D, synced(d, 2))
        .objects(RS, replicaSet("nginx:1", 2, 2, 1, 30), replicaSet("nginx:2", 1, 0, 2, 20))) {
      f.sync("default/web");
      assertThat(f.writes()).containsExactly("update deployments.apps/status default/web");
      assertThat(condition(f.sent(0).path("status"), "Progressing")).isEqualTo("False ProgressDeadlineExceeded");
    }
  }

  @Test
  void hashCollision_nameTakenByAnotherTemplate_bumpsCollisionCount_andTheNextSyncUsesANewName() throws Exception {
    ObjectNode squatter = replicaSet("nginx:0", 0, 0, 0, 20);
    ((ObjectNode) squatter.path("metadata")).put("name", rsName("nginx:1"));
    ((ObjectNode) squatter.path("metadata")).remove("ownerReferences");
    ((ObjectNode) squatter.path("metadata").path("labels")).put("app", "other");
    try (DeploymentFixture f = new DeploymentFixture().objects(D, deployment(1, "nginx:1", 1, 0))
        .objects(RS, squatter)) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> f.sync("default/web"))
          .isInstanceOf(io.listwatch.api.StatusException.class);
      assertThat(f.writes()).containsExactly("create replicasets.apps default/" + rsName("nginx:1"),
          "update deployments.apps/status default/web");
      assertThat(f.sent(1).path("status").path("collisionCount").asInt()).isEqualTo(1);

      String expected = "web-" + PodTemplateHash.compute(DeploymentFixture.parse(DeploymentFixture.template("nginx:1")), 1);
      assertThat(expected).isNotEqualTo(rsName("nginx:1"));
      f.awaitCached(D, "web", d -> d.path("status").path("collisionCount").asInt() == 1);
      f.sync("default/web");
      assertThat(f.writes().getFirst()).isEqualTo("create replicasets.apps default/" + expected);
    }
  }

  @Test
  void progress_stuckRollout_isRequeuedWhenItsDeadlinePasses() throws Exception {
    ObjectNode d = deployment(2, "nginx:2", 1, 0);
    ObjectNode status = d.putObject("status");
    status.put("observedGeneration", 1).put("replicas", 3).put("updatedReplicas", 1).put("readyReplicas", 2)
        .put("availableReplicas", 2).put("unavailableReplicas", 1);
    try (DeploymentFixture f = new DeploymentFixture().objects(D, synced(d, 2))
        .objects(RS, replicaSet("nginx:1", 2, 2, 1, 30), replicaSet("nginx:2", 1, 0, 2, 20))) {
      f.sync("default/web");
      assertThat(f.writes()).containsExactly("update deployments.apps/status default/web");
      f.awaitCached(D, "web", x -> x.path("status").path("conditions").size() == 2);
      assertThat(f.clock.pendingTasks()).isZero();
      f.sync("default/web"); // nothing moved: no write, a requeue one second after the deadline instead
      assertThat(f.writes()).isEmpty();
      assertThat(f.clock.pendingTasks()).isEqualTo(1);
      assertThat(f.clock.nextDue()).isEqualTo(java.time.Duration.ofSeconds(601));
    }
  }
}
