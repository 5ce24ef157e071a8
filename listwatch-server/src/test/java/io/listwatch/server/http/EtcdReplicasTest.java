package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.configMap;
import static io.listwatch.server.http.KubeHttp.describe;
import static io.listwatch.server.http.KubeHttp.name;
import static io.listwatch.server.http.KubeHttp.names;
import static io.listwatch.server.http.KubeHttp.rv;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two API servers over one real etcd, as replicas behind a load balancer: what one accepts the
 * other serves, in its lists and its watches, and a resourceVersion from one is a valid
 * starting point on the other, because both use etcd's revision.
 */
@EndToEnd
class EtcdReplicasTest extends EtcdReplicas {

  private static String cms(String ns) {
    return "/api/v1/namespaces/" + ns + "/configmaps";
  }

  @Test
  void writeOnOneReplica_isInTheOthersConsistentList_andGet() {
    String ns = a.createNamespace("replicas");
    JsonNode created = a.create(cms(ns), configMap("cm"));

    JsonNode list = b.list(cms(ns));

    assertThat(names(list)).containsExactly("cm");
    assertThat(rv(list)).isGreaterThanOrEqualTo(rv(created));
    assertThat(b.get(cms(ns) + "/cm").expect(200).path("metadata").path("uid"))
        .isEqualTo(created.path("metadata").path("uid"));
  }

  @Test
  void watchOnOneReplica_seesWritesThroughTheOther() {
    String ns = a.createNamespace("replicas");
    long from = b.listResourceVersion(cms(ns));
    try (WatchStream watch = b.watch(cms(ns) + "?resourceVersion=" + from)) {
      a.create(cms(ns), configMap("one"));
      ObjectNode changed = configMap("one");
      changed.putObject("data").put("k", "changed");
      a.put(cms(ns) + "/one", changed).expect(200);
      a.delete(cms(ns) + "/one").expect(200);

      assertThat(watch.next(3).stream().map(KubeHttp::describe))
          .containsExactly("ADDED one", "MODIFIED one", "DELETED one");
    }
  }

  @Test
  void resourceVersionFromOneReplica_resumesAWatchOnTheOther_withoutGapOrRepeat() {
    String ns = a.createNamespace("replicas");
    JsonNode x = a.create(cms(ns), configMap("x"));
    a.create(cms(ns), configMap("y"));
    a.create(cms(ns), configMap("z"));

    try (WatchStream watch = b.watch(cms(ns) + "?resourceVersion=" + rv(x))) {
      List<JsonNode> events = watch.next(2);

      assertThat(events.stream().map(KubeHttp::describe)).containsExactly("ADDED y", "ADDED z");
    }
  }

  @Test
  void conflictingUpdates_throughBothReplicas_oneWinsAndTheOtherGets409() {
    String ns = a.createNamespace("replicas");
    JsonNode cm = a.create(cms(ns), configMap("contended"));
    ObjectNode viaA = cm.deepCopy();
    viaA.putObject("data").put("by", "a");
    ObjectNode viaB = cm.deepCopy();
    viaB.putObject("data").put("by", "b");

    a.put(cms(ns) + "/contended", viaA).expect(200);
    KubeHttp.Response refused = b.put(cms(ns) + "/contended", viaB);

    KubeHttp.assertFailureStatus(refused, 409, "Conflict");
    assertThat(b.get(cms(ns) + "/contended").expect(200).path("data").path("by").asText()).isEqualTo("a");
  }

  @Test
  void aCustomResourceDefinedThroughOneReplica_isServedByTheOther() {
    ObjectNode crd = KubeHttp.object("""
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
         "metadata":{"name":"widgets.replicas.example.com"},
         "spec":{"group":"replicas.example.com","scope":"Namespaced",
           "names":{"plural":"widgets","singular":"widget","kind":"Widget"},
           "versions":[{"name":"v1","served":true,"storage":true,
             "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}""");
    a.create("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
    String ns = a.createNamespace("replicas");
    String widgets = "/apis/replicas.example.com/v1/namespaces/" + ns + "/widgets";

    Await.until("the second replica serves widgets", Duration.ofSeconds(15),
        () -> b.get(widgets).code() == 200);
    b.create(widgets, KubeHttp.object("""
        {"apiVersion":"replicas.example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":3}}"""));

    Await.until("the first replica lists the widget", Duration.ofSeconds(15),
        () -> a.get(widgets).code() == 200 && names(a.list(widgets)).contains("w"));
    assertThat(name(a.get(widgets + "/w").expect(200))).isEqualTo("w");
  }

  @Test
  void aWatchOnAReplica_survivesEtcdRestarting() throws Exception {
    String ns = a.createNamespace("replicas");
    long from = b.listResourceVersion(cms(ns));
    try (WatchStream watch = b.watch(cms(ns) + "?resourceVersion=" + from)) {
      a.create(cms(ns), configMap("before"));
      assertThat(describe(watch.next())).isEqualTo("ADDED before");

      etcd.restart();
      Await.until("the first replica writes again", Duration.ofSeconds(30),
          () -> List.of(201, 409).contains(a.post(cms(ns), configMap("after")).code()));

      assertThat(describe(watch.next(Duration.ofSeconds(30)))).isEqualTo("ADDED after");
    }
  }
}
