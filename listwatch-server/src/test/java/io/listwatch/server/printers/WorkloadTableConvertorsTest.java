package io.listwatch.server.printers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Deployments and ReplicaSets. */
class WorkloadTableConvertorsTest {

  private static final String SPEC = """
      "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"},
        "matchExpressions":[{"key":"tier","operator":"In","values":["b","a"]},{"key":"canary","operator":"DoesNotExist"}]},
       "template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1"},{"name":"log","image":"fluent"}]}}}
      """;

  @Test
  void deployment_showsReadyOfDesired_upToDate_available_andTheTemplateWhenWide() {
    DeploymentTableConvertor c = new DeploymentTableConvertor();
    assertThat(Rows.headers(c)).containsExactly("Name", "Ready", "Up-to-date", "Available", "Age", "Containers",
        "Images", "Selector");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"web\",\"creationTimestamp\":\"" + Rows.CREATED_5M_AGO + "\"},"
        + SPEC + ",\"status\":{\"readyReplicas\":2,\"updatedReplicas\":3,\"availableReplicas\":2}}"))
        .containsExactly("web", "2/3", 3L, 2L, "5m", "nginx,log", "nginx:1,fluent", "app=web,!canary,tier in (a,b)");
  }

  @Test
  void deployment_withoutReplicas_defaultsToOne() {
    assertThat(Rows.cells(new DeploymentTableConvertor(), "{\"metadata\":{\"name\":\"d\"}}").get(1)).isEqualTo("0/1");
  }

  @Test
  void replicaSet_showsDesiredCurrentReady() {
    ReplicaSetTableConvertor c = new ReplicaSetTableConvertor();
    assertThat(Rows.headers(c)).containsExactly("Name", "Desired", "Current", "Ready", "Age", "Containers", "Images",
        "Selector");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"rs\"}," + SPEC + ",\"status\":{\"replicas\":3,\"readyReplicas\":1}}"))
        .startsWith("rs", 3L, 3L, 1L, "<unknown>");
  }
}
