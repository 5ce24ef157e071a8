package io.listwatch.apiserver.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.request.UserInfo;
import java.time.Duration;
import java.util.ArrayList;
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
         "spec":{"type":"Limited","limited":{"nominalConcurrencyShares":1,"borrowingLimitPercent":0,
           "limitResponse":{"type":"Reject"}}}}""");
    RequestInfo list = core.server.routes().requestInfo(InMemoryCore.request("GET", "/api/v1/pods", Map.of(), null));
    awaitDangling("flooders", "False", "Found",
        "This FlowSchema references the PriorityLevelConfiguration object named \"tiny\" and it exists");
    Ticket first = apf.admit(bob, list, Map.of());
    assertThat(first.classification().orElseThrow().priorityLevel()).isEqualTo("tiny");
    assertThat(first.dispatched()).isCompleted(); // ceil(600 * 1 / 246) = 3 seats, none to lend or borrow
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

  /**
   * A server starting on a stored configuration whose conditions are already right writes no
   * FlowSchema: it reads the levels before the schemas, so none of them looks dangling for a moment.
   */
  @Test
  void startingOnAStoredConfiguration_writesNoFlowSchema() {
    try (InMemoryCore fresh = InMemoryCore.start()) {
      var schemas = fresh.server.store("flowcontrol.apiserver.k8s.io", "v1", "flowschemas");
      var levels = fresh.server.store("flowcontrol.apiserver.k8s.io", "v1", "prioritylevelconfigurations");
      try (FlowControl first = new FlowControl(600, Duration.ofSeconds(15), fresh.clock, (g, r) -> 0,
          FlowControlObserver.NONE)) {
        first.start(schemas, levels);
        io.listwatch.testsupport.Await.until("every FlowSchema's Dangling condition", Duration.ofSeconds(10),
            () -> schemas.cacher().list("", io.listwatch.api.ListOptions.parse(Map.of())).join().items().stream()
                .allMatch(o -> new String(o.json(), java.nio.charset.StandardCharsets.UTF_8).contains("\"Dangling\"")));
      }
      Map<String, Long> versions = resourceVersions(schemas);
      for (int i = 0; i < 20; i++) {
        try (FlowControl restarted = new FlowControl(600, Duration.ofSeconds(15), fresh.clock, (g, r) -> 0,
            FlowControlObserver.NONE)) {
          restarted.start(schemas, levels);
          // one worker takes the schemas in turn: once the probe's condition is written, so is anything queued before it
          String probe = "probe-" + i;
          fresh.send("POST", FLOWCONTROL + "flowschemas", Map.of(), """
              {"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"FlowSchema","metadata":{"name":"%s"},
               "spec":{"priorityLevelConfiguration":{"name":"missing"},"matchingPrecedence":50}}""".formatted(probe));
          io.listwatch.testsupport.Await.until(probe + "'s Dangling condition", Duration.ofSeconds(10),
              () -> schemas.getInternal("", probe).join().orElseThrow().path("status").path("conditions").size() == 1);
        }
      }
      Map<String, Long> after = resourceVersions(schemas);
      after.keySet().removeIf(name -> name.startsWith("probe-"));
      assertThat(after).as("kube's FlowSchemas' resourceVersions after 20 starts").isEqualTo(versions);
    }
  }

  private static Map<String, Long> resourceVersions(io.listwatch.apiserver.rest.ResourceStore store) {
    Map<String, Long> out = new java.util.HashMap<>();
    for (var o : store.cacher().list("", io.listwatch.api.ListOptions.parse(Map.of())).join().items()) {
      out.put(o.name(), o.resourceVersion());
    }
    return out;
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
    // the estimate counts what the watch cache holds, which takes the writes' events after they are acknowledged
    io.listwatch.testsupport.Await.until("the watch cache holds the 150 ConfigMaps", Duration.ofSeconds(10),
        () -> core.server.objectCount("", "configmaps") >= 150);
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

  /** Waits until the FlowSchemas' Dangling conditions are written and APF's cache has them: no change is pending. */
  private void awaitDanglingConditionsInTheCache() {
    var cacher = core.server.store("flowcontrol.apiserver.k8s.io", "v1", "flowschemas").cacher();
    io.listwatch.testsupport.Await.until("every FlowSchema's Dangling condition", Duration.ofSeconds(10),
        () -> cacher.list("", io.listwatch.api.ListOptions.parse(Map.of())).join().items().stream()
            .allMatch(o -> new String(o.json(), java.nio.charset.StandardCharsets.UTF_8).contains("\"Dangling\"")));
  }

  private static Map<String, FlowControl.LevelSnapshot> byLevel(FlowControl fc) {
    Map<String, FlowControl.LevelSnapshot> out = new java.util.HashMap<>();
    fc.snapshot().forEach(l -> out.put(l.priorityLevel(), l));
    return out;
  }

  /**
   * kube's defaults on an idle server: each level's bounds from its lendable and borrowing
   * percentages, and the 602 nominal seats shared out in proportion to what each may not lend.
   */
  @Test
  void borrowing_ofAnIdleServer_sharesTheSeatsByWhatEachLevelMayNotLend() {
    Map<String, FlowControl.LevelSnapshot> levels = byLevel(apf);
    FlowControl.LevelSnapshot globalDefault = levels.get("global-default");
    assertThat(globalDefault.lowerLimitSeats()).isEqualTo(24); // 49 less round(50% of 49)
    assertThat(globalDefault.upperLimitSeats()).isEqualTo(649); // no borrowing limit: 49 + 600
    assertThat(globalDefault.currentLimitSeats()).isEqualTo(56);
    assertThat(levels.get("workload-low").lowerLimitSeats()).isEqualTo(24); // 245 less 90%
    assertThat(levels.get("workload-low").currentLimitSeats()).isEqualTo(56);
    assertThat(levels.get("leader-election").currentLimitSeats()).isEqualTo(58); // lends nothing: 25 at least
    assertThat(levels.get("catch-all").currentLimitSeats()).isEqualTo(30);
    assertThat(levels.get("exempt").currentLimitSeats()).isZero();
    assertThat(levels.values().stream().mapToInt(FlowControl.LevelSnapshot::currentLimitSeats).sum())
        .as("the nominal seats, rounded up per level").isBetween(600, 604);
  }

  /**
   * A level whose demand exceeds its seats borrows what the idle levels may lend at the next
   * adjustment, and keeps it for a while after the burst (kube smooths demand over minutes).
   */
  @Test
  void aFloodedLevel_borrowsWhatIdleLevelsMayLend_atTheNextAdjustment() {
    awaitDanglingConditionsInTheCache(); // each change of configuration re-shares the seats by the demand then
    try (FlowControl big = new FlowControl(600, Duration.ofSeconds(60), core.clock, (g, r) -> 5000,
        FlowControlObserver.NONE)) {
      big.start(core.server.store("flowcontrol.apiserver.k8s.io", "v1", "flowschemas"),
          core.server.store("flowcontrol.apiserver.k8s.io", "v1", "prioritylevelconfigurations"));
      RequestInfo list = core.server.routes().requestInfo(InMemoryCore.request("GET", "/api/v1/pods", Map.of(), null));
      List<Ticket> lists = new ArrayList<>();
      for (int i = 0; i < 100; i++) { // 8 seats each: 800 seats asked for
        lists.add(big.admit(UserInfo.of("alice", List.of("system:authenticated")), list, Map.of()));
      }
      assertThat(lists.stream().filter(t -> t.dispatched().isDone())).as("56 seats: 7 lists").hasSize(7);

      core.clock.advance(FlowControl.BORROWING_PERIOD);

      Map<String, FlowControl.LevelSnapshot> levels = byLevel(big);
      // the idle levels keep what they may not lend (234 seats), global-default gets the rest
      assertThat(levels.get("global-default").currentLimitSeats()).isEqualTo(602 - 234);
      assertThat(levels.get("workload-low").currentLimitSeats()).isEqualTo(24);
      assertThat(levels.get("leader-election").currentLimitSeats()).isEqualTo(25);
      assertThat(levels.get("global-default").seatsInUse()).isEqualTo(46 * 8);
      assertThat(lists.stream().filter(t -> t.dispatched().isDone())).hasSize(46);

      lists.forEach(t -> {
        if (t.dispatched().isDone()) {
          t.finish();
        } else {
          t.cancel();
        }
      });
      core.clock.advance(FlowControl.BORROWING_PERIOD);
      assertThat(byLevel(big).get("global-default").currentLimitSeats()).as("the burst is remembered")
          .isEqualTo(368);
      assertThat(byLevel(big).get("global-default").seatsInUse()).isZero();
    }
  }
}
