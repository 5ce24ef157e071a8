package io.listwatch.apiserver.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.request.UserInfo;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * API Priority and Fairness over a core's stored configuration: kube's mandatory and suggested
 * objects are created at start and classify requests as kube's do; a FlowSchema or level
 * created, changed or deleted takes effect at once; the levels' seats follow their shares.
 */
class FlowControlTest {

  private static final String FLOWCONTROL = "/apis/flowcontrol.apiserver.k8s.io/v1/";
  private final InMemoryCore core = InMemoryCore.start();
  private final FlowControl apf = new FlowControl(600, Duration.ofSeconds(15), core.clock,
      (g, r) -> core.server.objectCount(g, r), FlowControlObserver.NONE);

  FlowControlTest() {
    apf.start(core.server.store("flowcontrol.apiserver.k8s.io", "v1", "flowschemas"),
        core.server.store("flowcontrol.apiserver.k8s.io", "v1", "prioritylevelconfigurations"));
    // the server wrote kube's configuration as it started, and its caches (which APF reads)
    // may still be catching up: a consistent list of each answers once they hold all of it
    for (String resource : List.of("flowschemas", "prioritylevelconfigurations")) {
      core.server.store("flowcontrol.apiserver.k8s.io", "v1", resource).cacher()
          .list("", io.listwatch.api.ListOptions.parse(Map.of())).join();
    }
  }

  @AfterEach
  void close() {
    apf.close();
    core.close();
  }

  private Classification classify(UserInfo user, String method, String path) {
    RequestInfo info = core.server.routes().requestInfo(InMemoryCore.request(method, path, Map.of(), null));
    Ticket t = apf.admit(user, info, Map.of());
    t.finish();
    return t.classification().orElseThrow();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      admin                                  | system:masters         | GET | /api/v1/namespaces/default/pods | exempt                       | exempt
      alice                                  | system:authenticated   | GET | /api/v1/namespaces/default/pods | global-default               | global-default
      system:anonymous                       | system:unauthenticated | GET | /readyz                         | probes                       | exempt
      system:anonymous                       | system:unauthenticated | GET | /version                        | global-default               | global-default
      system:node:n1                         | system:nodes           | PUT | /api/v1/nodes/n1/status         | system-node-high             | node-high
      system:node:n1                         | system:nodes           | GET | /api/v1/namespaces/a/pods       | system-nodes                 | system
      system:kube-scheduler                  | system:authenticated   | PUT | /apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler | system-leader-election | leader-election
      system:kube-scheduler                  | system:authenticated   | GET | /api/v1/pods                    | kube-scheduler               | workload-high
      system:serviceaccount:kube-system:ctl  | system:serviceaccounts | GET | /api/v1/pods                    | kube-system-service-accounts | workload-high
      system:serviceaccount:apps:ctl         | system:serviceaccounts | GET | /api/v1/pods                    | service-accounts             | workload-low
      """)
  void kubesDefaultConfiguration_classifiesAsKube(String user, String group, String method, String path,
      String flowSchema, String level) {
    Classification c = classify(UserInfo.of(user, List.of(group)), method, path);
    assertThat(c.flowSchema()).isEqualTo(flowSchema);
    assertThat(c.priorityLevel()).isEqualTo(level);
    assertThat(c.flowSchemaUid()).isNotEmpty();
    assertThat(c.priorityLevelUid()).isNotEmpty();
  }

  @Test
  void byUser_flowsAreUsers_byNamespace_flowsAreNamespaces() {
    assertThat(classify(UserInfo.of("alice", List.of("system:authenticated")), "GET", "/api/v1/namespaces/a/pods")
        .flowDistinguisher()).isEqualTo("alice");
    assertThat(classify(UserInfo.of("system:kube-scheduler", List.of()), "GET", "/api/v1/namespaces/a/pods")
        .flowDistinguisher()).isEqualTo("a");
  }

  @Test
  void levelsSeats_areTheServersLimitSharedByNominalShares() {
    // shares: exempt 0, catch-all 5, system 30, node-high 40, leader-election 10, workload-high 40,
    // workload-low 100, global-default 20: 245 in all
    Map<String, Integer> seats = new java.util.HashMap<>();
    apf.snapshot().forEach(l -> seats.put(l.priorityLevel(), l.nominalLimitSeats()));
    assertThat(seats).containsEntry("global-default", 49).containsEntry("workload-low", 245)
        .containsEntry("catch-all", 13).containsEntry("leader-election", 25).containsEntry("exempt", 0)
        .hasSize(8);
  }

  @Test
  void aStoredChange_reconfiguresAtOnce_andADanglingSchemaIsSkipped() {
    core.send("POST", FLOWCONTROL + "flowschemas", Map.of(), """
        {"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"FlowSchema","metadata":{"name":"flooders"},
         "spec":{"priorityLevelConfiguration":{"name":"tiny"},"matchingPrecedence":50,
           "rules":[{"subjects":[{"kind":"User","user":{"name":"bob"}}],
             "resourceRules":[{"verbs":["*"],"apiGroups":["*"],"resources":["*"],"namespaces":["*"],"clusterScope":true}]}]}}""");
    UserInfo bob = UserInfo.of("bob", List.of("system:authenticated"));
    awaitDangling("flooders", "True", "NotFound",
        "This FlowSchema references the PriorityLevelConfiguration object named \"tiny\" but there is no such object");
    assertThat(classify(bob, "GET", "/api/v1/pods").flowSchema()).isEqualTo("global-default"); // dangling: skipped
    awaitDangling("global-default", "False", "Found",
        "This FlowSchema references the PriorityLevelConfiguration object named \"global-default\" and it exists");
    core.send("POST", FLOWCONTROL + "prioritylevelconfigurations", Map.of(), """
        {"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"PriorityLevelConfiguration","metadata":{"name":"tiny"},
         "spec":{"type":"Limited","limited":{"nominalConcurrencyShares":1,"limitResponse":{"type":"Reject"}}}}""");
    RequestInfo list = core.server.routes().requestInfo(InMemoryCore.request("GET", "/api/v1/pods", Map.of(), null));
    awaitDangling("flooders", "False", "Found",
        "This FlowSchema references the PriorityLevelConfiguration object named \"tiny\" and it exists");
    Ticket first = apf.admit(bob, list, Map.of());
    assertThat(first.classification().orElseThrow().priorityLevel()).isEqualTo("tiny");
    assertThat(first.dispatched()).isCompleted(); // ceil(600 * 1 / 246) = 3 seats
    apf.admit(bob, list, Map.of());
    apf.admit(bob, list, Map.of());
    Ticket refused = apf.admit(bob, list, Map.of());
    assertThat(refused.dispatched()).isCompletedExceptionally();
    assertThat(refused.dispatched()).failsWithin(Duration.ZERO).withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .havingCause().isInstanceOf(Rejection.class);
    core.send("DELETE", FLOWCONTROL + "flowschemas/flooders", Map.of(), null);
    // the configuration follows the watch cache, which has the delete a moment after it is answered
    io.listwatch.testsupport.Await.until("bob classified by global-default again", Duration.ofSeconds(10),
        () -> classify(bob, "GET", "/api/v1/pods").flowSchema().equals("global-default"));
  }

  private void awaitDangling(String schema, String status, String reason, String message) {
    io.listwatch.testsupport.Await.until(schema + "'s Dangling condition " + status, Duration.ofSeconds(10), () -> {
      var fs = core.server.store("flowcontrol.apiserver.k8s.io", "v1", "flowschemas").getInternal("", schema).join()
          .orElseThrow();
      for (var c : fs.path("status").path("conditions")) {
        if (c.path("type").asText().equals("Dangling")) {
          return c.path("status").asText().equals(status) && c.path("reason").asText().equals(reason)
              && c.path("message").asText().equals(message) && !c.path("lastTransitionTime").asText().isEmpty();
        }
      }
      return false;
    });
  }

  @Test
  void aListsSeats_followTheStoredObjects() {
    for (int i = 0; i < 150; i++) {
      core.send("POST", "/api/v1/namespaces/default/configmaps", Map.of(),
          "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c" + i + "\"}}");
    }
    assertThat(classify(UserInfo.of("alice", List.of("system:authenticated")), "GET", "/api/v1/configmaps").seats())
        .isEqualTo(2);
    assertThat(classify(UserInfo.of("alice", List.of("system:authenticated")), "GET",
        "/api/v1/namespaces/default/configmaps/c1").seats()).isEqualTo(1);
  }

  /** kube's widest list per level at 600 seats: 8 in global-default (49 seats, a hand of 6), 10 in workload-low. */
  @Test
  void aLargeListsSeats_stopAtItsLevelsMaximum() {
    try (FlowControl big = new FlowControl(600, Duration.ofSeconds(15), core.clock, (g, r) -> 5000,
        FlowControlObserver.NONE)) {
      big.start(core.server.store("flowcontrol.apiserver.k8s.io", "v1", "flowschemas"),
          core.server.store("flowcontrol.apiserver.k8s.io", "v1", "prioritylevelconfigurations"));
      RequestInfo list = core.server.routes().requestInfo(InMemoryCore.request("GET", "/api/v1/pods", Map.of(), null));
      Ticket user = big.admit(UserInfo.of("alice", List.of("system:authenticated")), list, Map.of());
      Ticket controller = big.admit(UserInfo.of("system:serviceaccount:apps:ctl", List.of("system:serviceaccounts")),
          list, Map.of());
      Ticket named = big.admit(UserInfo.of("alice", List.of("system:authenticated")), list,
          Map.of("fieldSelector", List.of("metadata.name=p")));
      List.of(user, controller, named).forEach(Ticket::finish);
      assertThat(user.classification().orElseThrow().priorityLevel()).isEqualTo("global-default");
      assertThat(user.classification().orElseThrow().seats()).isEqualTo(8);
      assertThat(controller.classification().orElseThrow().priorityLevel()).isEqualTo("workload-low");
      assertThat(controller.classification().orElseThrow().seats()).isEqualTo(10);
      assertThat(named.classification().orElseThrow().seats()).as("a list pinned to one name").isEqualTo(1);
    }
  }
}
