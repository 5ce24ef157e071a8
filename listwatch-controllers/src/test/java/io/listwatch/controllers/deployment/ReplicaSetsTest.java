package io.listwatch.controllers.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReplicaSetsTest {

  @Test
  void equalIgnoreHash_ignoresTheHashLabel_andZeroValuesAGoClientWritesOut() {
    var deployment = DeploymentFixture.parse("""
        {"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"a","image":"i"}]}}""");
    var replicaSet = DeploymentFixture.parse("""
        {"metadata":{"creationTimestamp":null,"labels":{"app":"web","pod-template-hash":"abc"}},
         "spec":{"containers":[{"name":"a","image":"i","stdin":false,"resources":{}}],"hostNetwork":false}}""");
    assertThat(ReplicaSets.equalIgnoreHash(deployment, replicaSet)).isTrue();
    assertThat(PodTemplateHash.compute(deployment, null))
        .isEqualTo(PodTemplateHash.compute(DeploymentFixture.parse("""
            {"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},
             "spec":{"containers":[{"name":"a","image":"i","stdin":false,"resources":{}}],"hostNetwork":false}}""")
            , null));
  }

  @Test
  void equalIgnoreHash_seesAnyOtherDifference() {
    var a = DeploymentFixture.parse(DeploymentFixture.template("nginx:1"));
    var b = DeploymentFixture.parse(DeploymentFixture.template("nginx:2"));
    var c = DeploymentFixture.parse(DeploymentFixture.template("nginx:1"));
    c.with("metadata").with("annotations").put("kubectl.kubernetes.io/restartedAt", "2026-11-24T12:00:00Z");
    assertThat(ReplicaSets.equalIgnoreHash(a, b)).isFalse();
    assertThat(ReplicaSets.equalIgnoreHash(a, c)).isFalse();
  }
}
