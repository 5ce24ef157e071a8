package io.listwatch.apiserver.printers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Deployments, ReplicaSets, StatefulSets, DaemonSets and ControllerRevisions. */
class WorkloadTableConvertorsTest {

  private static final String SPEC = """
      "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"},
        "matchExpressions":[{"key":"tier","operator":"In","values":["b","a"]},{"key":"canary","operator":"DoesNotExist"}]},
       "template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1"},{"name":"log","image":"fluent"}]}}}
      """;

  @Test
  void deployment_showsReadyOfDesired_upToDate_available_andTheTemplateWhenWide() {
    DeploymentTableConvertor c = new DeploymentTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Ready:string", "Up-to-date:string",
        "Available:string", "Age:string", "Containers:string:wide", "Images:string:wide", "Selector:string:wide");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"web\",\"creationTimestamp\":\"" + Rows.CREATED_5M_AGO + "\"},"
        + SPEC + ",\"status\":{\"readyReplicas\":2,\"updatedReplicas\":3,\"availableReplicas\":2}}"))
        .containsExactly("web", "2/3", 3L, 2L, "5m", "nginx,log", "nginx:1,fluent", "app=web,!canary,tier in (a,b)");
  }

  @Test
  void deployment_withoutReplicas_defaultsToOne_andAnEmptySelectorPrintsEmpty() {
    assertThat(Rows.cells(new DeploymentTableConvertor(), "{\"metadata\":{\"name\":\"d\"}}"))
        .containsExactly("d", "0/1", 0L, 0L, "<unknown>", "", "", "");
  }

  @Test
  void replicaSet_showsDesiredCurrentReady_andNoneForAnEmptySelector() {
    ReplicaSetTableConvertor c = new ReplicaSetTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Desired:integer", "Current:integer",
        "Ready:integer", "Age:string", "Containers:string:wide", "Images:string:wide", "Selector:string:wide");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"rs\"}," + SPEC + ",\"status\":{\"replicas\":3,\"readyReplicas\":1}}"))
        .containsExactly("rs", 3L, 3L, 1L, "<unknown>", "nginx,log", "nginx:1,fluent", "app=web,!canary,tier in (a,b)");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"rs\"},\"spec\":{\"selector\":{}}}"))
        .containsExactly("rs", 1L, 0L, 0L, "<unknown>", "", "", "<none>");
  }

  @Test
  void statefulSet_showsReadyOfDesired_andContainersButNoSelectorWhenWide() {
    StatefulSetTableConvertor c = new StatefulSetTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Ready:string", "Age:string",
        "Containers:string:wide", "Images:string:wide");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"db\",\"creationTimestamp\":\"" + Rows.CREATED_5M_AGO + "\"},"
        + SPEC + ",\"status\":{\"readyReplicas\":2}}"))
        .containsExactly("db", "2/3", "5m", "nginx,log", "nginx:1,fluent");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"db\"}}")).startsWith("db", "0/1");
  }

  @Test
  void daemonSet_showsItsScheduledCounts_nodeSelector_andTheTemplateWhenWide() {
    DaemonSetTableConvertor c = new DaemonSetTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Desired:integer", "Current:integer",
        "Ready:integer", "Up-to-date:integer", "Available:integer", "Node Selector:string", "Age:string",
        "Containers:string:wide", "Images:string:wide", "Selector:string:wide");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"agent"},
         "spec":{"selector":{"matchLabels":{"app":"agent"}},
          "template":{"spec":{"nodeSelector":{"os":"linux","arch":"amd64"},"containers":[{"name":"a","image":"agent:2"}]}}},
         "status":{"desiredNumberScheduled":5,"currentNumberScheduled":4,"numberReady":3,"updatedNumberScheduled":2,
          "numberAvailable":1}}
        """)).containsExactly("agent", 5L, 4L, 3L, 2L, 1L, "arch=amd64,os=linux", "<unknown>", "a", "agent:2", "app=agent");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"x\"},\"spec\":{\"selector\":{\"matchExpressions\":"
        + "[{\"key\":\"k\",\"operator\":\"In\",\"values\":[]}]}}}"))
        .containsExactly("x", 0L, 0L, 0L, 0L, 0L, "<none>", "<unknown>", "", "", "<error>");
  }

  @Test
  void controllerRevision_showsItsControllingOwnerAsKindDotGroup_andTheRevision() {
    ControllerRevisionTableConvertor c = new ControllerRevisionTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Controller:string", "Revision:string", "Age:string");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"web-5d8f","ownerReferences":[
          {"apiVersion":"v1","kind":"Pod","name":"not-the-controller"},
          {"apiVersion":"apps/v1","kind":"StatefulSet","name":"web","controller":true}]},
         "revision":3}
        """)).containsExactly("web-5d8f", "statefulset.apps/web", 3L, "<unknown>");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"r","ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","controller":true}]}}
        """)).containsExactly("r", "pod/p", 0L, "<unknown>");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"orphan\"},\"revision\":1}"))
        .containsExactly("orphan", "<none>", 1L, "<unknown>");
  }
}
