package io.listwatch.apiserver.printers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PodTableConvertorTest {

  private final PodTableConvertor pods = new PodTableConvertor();

  @Test
  void columns_areKubesWithTheWideOnesAtPriorityOne() {
    assertThat(Rows.headers(pods)).containsExactly("Name", "Ready", "Status", "Restarts", "Age", "IP", "Node",
        "Nominated Node", "Readiness Gates");
    assertThat(pods.columnDefinitions().stream().filter(c -> c.priority() > 0).map(ColumnDefinition::name))
        .containsExactly("IP", "Node", "Nominated Node", "Readiness Gates");
  }

  @Test
  void runningPod_showsReadyCountPhaseIpAndNode() {
    assertThat(Rows.cells(pods, """
        {"metadata":{"name":"web","creationTimestamp":"%s"},
         "spec":{"nodeName":"n1","containers":[{"name":"a"},{"name":"b"}]},
         "status":{"phase":"Running","podIPs":[{"ip":"10.0.0.5"}],"containerStatuses":[
           {"name":"a","ready":true,"state":{"running":{}}},{"name":"b","ready":true,"state":{"running":{}}}]}}
        """.formatted(Rows.CREATED_5M_AGO)))
        .containsExactly("web", "2/2", "Running", "0", "5m", "10.0.0.5", "n1", "<none>", "<none>");
  }

  @Test
  void waitingContainer_givesItsReason_andRestartsShowTheLastOnesAge() {
    assertThat(Rows.cells(pods, """
        {"metadata":{"name":"web"},"spec":{"containers":[{"name":"a"}]},
         "status":{"phase":"Running","containerStatuses":[{"name":"a","restartCount":4,
           "state":{"waiting":{"reason":"CrashLoopBackOff"}},
           "lastState":{"terminated":{"exitCode":1,"finishedAt":"2026-01-01T11:58:00Z"}}}]}}
        """)).containsSubsequence("0/1", "CrashLoopBackOff", "4 (2m ago)", "<unknown>");
  }

  @Test
  void initContainers_showInitProgress_orTheirFailure() {
    assertThat(Rows.cells(pods, """
        {"metadata":{"name":"p"},"spec":{"initContainers":[{"name":"i1"},{"name":"i2"}],"containers":[{"name":"a"}]},
         "status":{"phase":"Pending","initContainerStatuses":[
           {"name":"i1","state":{"terminated":{"exitCode":0}}},{"name":"i2","state":{"running":{}}}]}}
        """).get(2)).isEqualTo("Init:1/2");
    assertThat(Rows.cells(pods, """
        {"metadata":{"name":"p"},"spec":{"initContainers":[{"name":"i1"}],"containers":[{"name":"a"}]},
         "status":{"phase":"Pending","initContainerStatuses":[{"name":"i1","state":{"terminated":{"exitCode":3}}}]}}
        """).get(2)).isEqualTo("Init:ExitCode:3");
  }

  @Test
  void sidecarInitContainer_countsAmongTheContainers() {
    assertThat(Rows.cells(pods, """
        {"metadata":{"name":"p"},"spec":{"initContainers":[{"name":"s","restartPolicy":"Always"}],
          "containers":[{"name":"a"}]},
         "status":{"phase":"Running","conditions":[{"type":"Initialized","status":"True"}],
          "initContainerStatuses":[{"name":"s","started":true,"ready":true,"state":{"running":{}}}],
          "containerStatuses":[{"name":"a","ready":true,"state":{"running":{}}}]}}
        """)).startsWith("p", "2/2", "Running");
  }

  @Test
  void deletionPending_isTerminating_andSucceededPodsCarryTheCompletedCondition() {
    assertThat(Rows.cells(pods, """
        {"metadata":{"name":"p","deletionTimestamp":"2026-01-01T12:00:00Z"},"spec":{"containers":[{"name":"a"}]},
         "status":{"phase":"Running"}}
        """).get(2)).isEqualTo("Terminating");
    TableRow done = pods.row(Rows.json("""
        {"metadata":{"name":"p"},"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Succeeded",
         "containerStatuses":[{"name":"a","state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]}}
        """), Rows.NOW);
    assertThat(done.cells().get(2)).isEqualTo("Completed");
    assertThat(done.conditions()).extracting(TableRow.Condition::type, TableRow.Condition::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("Completed", "Succeeded"));
  }

  @Test
  void readinessGates_countTheTrueConditions() {
    assertThat(Rows.cells(pods, """
        {"metadata":{"name":"p"},"spec":{"containers":[],"readinessGates":[{"conditionType":"a"},{"conditionType":"b"}]},
         "status":{"conditions":[{"type":"a","status":"True"},{"type":"b","status":"False"}]}}
        """).get(8)).isEqualTo("1/2");
  }
}
