package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@code kubectl get} prints from the server's Tables: each kind's own columns, the
 * {@code -o wide} ones, short names, {@code get all}, and rows of a watch. kubectl 1.32 from
 * PATH; each test in a namespace of its own.
 */
@EndToEnd
class KubectlGetTableTest extends KubectlAgainstServer {

  private static final Duration WAIT = Duration.ofSeconds(20);

  /** A pod with two containers: one ready and running, one crash-looping after 3 restarts. */
  private static void crashLoopingPod(String namespace) {
    api.createNamespace(namespace);
    api.expect(201, "POST", "/api/v1/namespaces/" + namespace + "/pods", "application/json", """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},
         "spec":{"nodeName":"node-1","containers":[{"name":"app","image":"nginx"},{"name":"sidecar","image":"busybox"}]}}
        """);
    String finished = Instant.now().minusSeconds(300).toString();
    api.mergePatch("/api/v1/namespaces/" + namespace + "/pods/web/status", """
        {"status":{"phase":"Running","podIP":"10.1.2.3","podIPs":[{"ip":"10.1.2.3"}],
          "containerStatuses":[
            {"name":"app","ready":true,"restartCount":0,"state":{"running":{}}},
            {"name":"sidecar","ready":false,"restartCount":3,"state":{"waiting":{"reason":"CrashLoopBackOff"}},
             "lastState":{"terminated":{"exitCode":1,"finishedAt":"%s"}}}]}}
        """.formatted(finished));
  }

  @Test
  void getPods_showsReadyStatusRestartsAndAge() {
    crashLoopingPod("table-pods");

    Kubectl.Result r = kubectl.ok("get", "pods", "-n", "table-pods");

    assertThat(r.lines().getFirst().split("\\s+")).containsExactly("NAME", "READY", "STATUS", "RESTARTS", "AGE");
    String[] row = r.lines().get(1).split("\\s{2,}");
    assertThat(row[0]).isEqualTo("web");
    assertThat(row[1]).isEqualTo("1/2");
    assertThat(row[2]).isEqualTo("CrashLoopBackOff");
    assertThat(row[3]).matches("3 \\(5m\\d*s? ago\\)");
    assertThat(row[4]).matches("\\d+s");
  }

  @Test
  void getPodsAllNamespaces_takesNamespaceAndLabelsFromEachRowsMetadata() {
    api.createNamespace("table-all-ns");
    api.createPod("table-all-ns", "labelled", "\"labels\":{\"app\":\"shop\"}", "node-1");

    Kubectl.Result r = kubectl.ok("get", "pods", "-A", "-L", "app", "--show-labels");

    assertThat(r.lines().getFirst().split("\\s+"))
        .containsExactly("NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE", "APP", "LABELS");
    assertThat(r.lines()).anySatisfy(l -> assertThat(l.split("\\s+"))
        .startsWith("table-all-ns", "labelled", "0/1").endsWith("shop", "app=shop"));
  }

  @Test
  void getPodsWide_showsIpNodeNominatedNodeAndReadinessGates() {
    crashLoopingPod("table-wide");

    Kubectl.Result r = kubectl.ok("get", "pods", "-o", "wide", "-n", "table-wide");

    assertThat(r.lines().getFirst()).contains("IP", "NODE", "NOMINATED NODE", "READINESS GATES");
    assertThat(r.lines().get(1).split("\\s{2,}"))
        .containsSubsequence("web", "1/2", "CrashLoopBackOff", "10.1.2.3", "node-1", "<none>", "<none>");
  }

  @Test
  void getByShortName_poAndDeploy_printTheKindsColumns() {
    api.createNamespace("table-short");
    api.createPod("table-short", "web", "", "node-1");
    api.expect(201, "POST", "/apis/apps/v1/namespaces/table-short/deployments", "application/json", """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
         "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},
          "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}]}}}}
        """);

    Kubectl.Result pods = kubectl.ok("get", "po", "-n", "table-short");
    Kubectl.Result deploys = kubectl.ok("get", "deploy", "-o", "wide", "-n", "table-short");

    assertThat(pods.lines().getFirst().split("\\s+")).containsExactly("NAME", "READY", "STATUS", "RESTARTS", "AGE");
    assertThat(pods.lines().get(1).split("\\s+")).startsWith("web", "0/1");
    assertThat(deploys.lines().getFirst().split("\\s+"))
        .containsExactly("NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE", "CONTAINERS", "IMAGES", "SELECTOR");
    assertThat(deploys.lines().get(1).split("\\s+"))
        .containsExactly("web", "0/3", "0", "0", deploys.lines().get(1).split("\\s+")[4], "nginx", "nginx:1.27", "app=web");
  }

  @Test
  void getAll_listsPodsServicesDeploymentsAndReplicaSets() {
    api.createNamespace("table-all");
    api.createPod("table-all", "web", "", "node-1");
    api.expect(201, "POST", "/api/v1/namespaces/table-all/services", "application/json", """
        {"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},
         "spec":{"clusterIP":"10.96.0.10","selector":{"app":"web"},"ports":[{"port":80}]}}
        """);
    api.expect(201, "POST", "/apis/apps/v1/namespaces/table-all/replicasets", "application/json", """
        {"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"web-1"},
         "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
          "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx"}]}}}}
        """);

    Kubectl.Result r = kubectl.ok("get", "all", "-n", "table-all");

    List<String> lines = r.lines();
    assertThat(lines).anySatisfy(l -> assertThat(l.split("\\s+")).startsWith("pod/web", "0/1"));
    assertThat(lines).anySatisfy(l -> assertThat(l.split("\\s+"))
        .startsWith("service/web", "ClusterIP", "10.96.0.10", "<none>", "80/TCP"));
    assertThat(lines).anySatisfy(l -> assertThat(l.split("\\s+")).startsWith("replicaset.apps/web-1", "2", "0", "0"));
    assertThat(lines).anySatisfy(l -> assertThat(l.split("\\s+"))
        .containsExactly("NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE"));
  }

  @Test
  void getNodesAndConfigMapsAndSecrets_printTheirColumns() {
    api.createNamespace("table-misc");
    api.expect(201, "POST", "/api/v1/nodes", "application/json", """
        {"apiVersion":"v1","kind":"Node","metadata":{"name":"table-node","labels":{"node-role.kubernetes.io/control-plane":""}},
         "spec":{"unschedulable":true}}
        """);
    api.expect(201, "POST", "/api/v1/namespaces/table-misc/configmaps", "application/json",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"conf\"},\"data\":{\"a\":\"1\",\"b\":\"2\"}}");
    api.expect(201, "POST", "/api/v1/namespaces/table-misc/secrets", "application/json",
        "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"creds\"},\"data\":{\"p\":\"cA==\"}}");

    Kubectl.Result node = kubectl.ok("get", "node", "table-node");
    Kubectl.Result cm = kubectl.ok("get", "cm", "-n", "table-misc");
    Kubectl.Result secret = kubectl.ok("get", "secrets", "-n", "table-misc");

    assertThat(node.lines().getFirst().split("\\s+")).containsExactly("NAME", "STATUS", "ROLES", "AGE", "VERSION");
    assertThat(node.lines().get(1).split("\\s+")).startsWith("table-node", "Unknown,SchedulingDisabled", "control-plane");
    assertThat(cm.lines().getFirst().split("\\s+")).containsExactly("NAME", "DATA", "AGE");
    assertThat(cm.lines()).anySatisfy(l -> assertThat(l.split("\\s+")).startsWith("conf", "2"));
    assertThat(secret.lines().getFirst().split("\\s+")).containsExactly("NAME", "TYPE", "DATA", "AGE");
    assertThat(secret.lines()).anySatisfy(l -> assertThat(l.split("\\s+")).startsWith("creds", "Opaque", "1"));
  }

  @Test
  void getPodsWatch_printsAStatusRowForANewPod() {
    api.createNamespace("table-watch");
    api.createPod("table-watch", "first", "", "node-1");

    try (Kubectl.Background watch = kubectl.start("get", "pods", "-w", "-n", "table-watch")) {
      assertThat(watch.nextLine(WAIT).split("\\s+")).containsExactly("NAME", "READY", "STATUS", "RESTARTS", "AGE");
      assertThat(watch.nextLine(WAIT).split("\\s+")).startsWith("first", "0/1");

      api.createPod("table-watch", "second", "", "node-1");
      api.mergePatch("/api/v1/namespaces/table-watch/pods/second/status", "{\"status\":{\"phase\":\"Running\"}}");

      String added = watch.nextLine(WAIT);
      assertThat(added.split("\\s+")).as("the new pod starts Pending: %s", added)
          .startsWith("second", "0/1", "Pending", "0");
      assertThat(watch.nextLine(WAIT).split("\\s+")).startsWith("second", "0/1", "Running", "0");
      assertThat(watch.stderrText()).doesNotContain("error");
    }
  }

  @Test
  void apiResourcesWide_showsShortNamesAndCategories_fromAggregatedDiscoveryAlone() {
    Kubectl.Result r = kubectl.ok("api-resources", "-o", "wide", "-v=6");

    assertThat(r.lines().getFirst().split("\\s+"))
        .containsExactly("NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND", "VERBS", "CATEGORIES");
    assertThat(r.lines()).anySatisfy(l -> assertThat(l.split("\\s+"))
        .startsWith("pods", "po", "v1", "true", "Pod").endsWith("all"));
    assertThat(r.lines()).anySatisfy(l -> assertThat(l.split("\\s+"))
        .startsWith("deployments", "deploy", "apps/v1", "true", "Deployment").endsWith("all"));
    assertThat(r.lines()).anySatisfy(l -> assertThat(l.split("\\s+"))
        .startsWith("configmaps", "cm", "v1", "true", "ConfigMap"));
    assertThat(r.stderr()).as("aggregated discovery: no per-group-version documents fetched")
        .containsPattern("GET \\S+/apis[? ]")
        .doesNotContainPattern("GET \\S+/api/v1[? ]").doesNotContainPattern("GET \\S+/apis/apps/v1[? ]");
  }

  @Test
  void componentStatuses_printAsKube_withTheDeprecationWarning() {
    Kubectl.Result r = kubectl.ok("get", "cs");

    assertThat(r.lines().getFirst().split("\\s+")).containsExactly("NAME", "STATUS", "MESSAGE", "ERROR");
    assertThat(r.lines()).anySatisfy(l -> assertThat(l.split("\\s+")).containsExactly("etcd-0", "Healthy", "ok"));
    assertThat(r.lines()).anySatisfy(l -> assertThat(l).startsWith("scheduler").contains("Unhealthy"));
    assertThat(r.stderr()).contains("Warning: v1 ComponentStatus is deprecated in v1.19+");
  }

  @Test
  void apiResourcesWide_listsBindingsCreateOnly_andComponentStatusesGetList() {
    Kubectl.Result r = kubectl.ok("api-resources", "-o", "wide");

    assertThat(r.lines()).anySatisfy(l -> assertThat(l.split("\\s+"))
        .containsExactly("bindings", "v1", "true", "Binding", "create"));
    assertThat(r.lines()).anySatisfy(l -> assertThat(l.split("\\s+"))
        .containsExactly("componentstatuses", "cs", "v1", "false", "ComponentStatus", "get,list"));
  }
}
