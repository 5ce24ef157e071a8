package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl get -o wide} on the batch and apps workloads added in step 5: kube 1.32's
 * headers, and each kind's cells as the server prints them. kubectl 1.32 from PATH; each test
 * in a namespace of its own.
 */
@EndToEnd
class KubectlGetColumnsTest extends KubectlAgainstServer {

  /** kube's MicroTime: RFC 3339 with six fractional digits. */
  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  private static void create(String path, String json) {
    api.expect(201, "POST", path, "application/json", json);
  }

  /** A completed job, a suspended cron job that ran 3 hours ago, a stateful set and a daemon set. */
  private static void workloads(String ns) {
    api.createNamespace(ns);
    String podTemplate = """
        {"metadata":{"labels":{"app":"%s"}},
         "spec":{"restartPolicy":"%s","containers":[{"name":"main","image":"%s"},{"name":"log","image":"fluent-bit:3"}]}}""";
    create("/apis/batch/v1/namespaces/" + ns + "/jobs", """
        {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"pi"},
         "spec":{"completions":1,"manualSelector":true,"selector":{"matchLabels":{"app":"pi"}},"template":%s}}
        """.formatted(podTemplate.formatted("pi", "Never", "perl:5")));
    Instant started = Instant.now().minusSeconds(600);
    api.mergePatch("/apis/batch/v1/namespaces/" + ns + "/jobs/pi/status", """
        {"status":{"succeeded":1,"startTime":"%s","completionTime":"%s",
          "conditions":[{"type":"SuccessCriteriaMet","status":"True"},{"type":"Complete","status":"True"}]}}
        """.formatted(started, started.plusSeconds(42)));
    create("/apis/batch/v1/namespaces/" + ns + "/cronjobs", """
        {"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"nightly"},
         "spec":{"schedule":"0 3 * * *","timeZone":"Europe/Paris","suspend":true,
          "jobTemplate":{"spec":{"template":%s}}}}
        """.formatted(podTemplate.formatted("backup", "OnFailure", "restic:0.17")));
    api.mergePatch("/apis/batch/v1/namespaces/" + ns + "/cronjobs/nightly/status", """
        {"status":{"active":[{"kind":"Job","name":"nightly-1","namespace":"%s"}],"lastScheduleTime":"%s"}}
        """.formatted(ns, Instant.now().minusSeconds(3 * 3600)));
    create("/apis/apps/v1/namespaces/" + ns + "/statefulsets", """
        {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"},
         "spec":{"replicas":3,"serviceName":"db","selector":{"matchLabels":{"app":"db"}},"template":%s}}
        """.formatted(podTemplate.formatted("db", "Always", "postgres:17")));
    api.mergePatch("/apis/apps/v1/namespaces/" + ns + "/statefulsets/db/status",
        "{\"status\":{\"replicas\":3,\"readyReplicas\":2}}");
    create("/apis/apps/v1/namespaces/" + ns + "/daemonsets", """
        {"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"agent"},
         "spec":{"selector":{"matchLabels":{"app":"agent"}},
          "template":{"metadata":{"labels":{"app":"agent"}},
           "spec":{"nodeSelector":{"kubernetes.io/os":"linux"},"containers":[{"name":"main","image":"agent:2"}]}}}}
        """);
    api.mergePatch("/apis/apps/v1/namespaces/" + ns + "/daemonsets/agent/status", """
        {"status":{"desiredNumberScheduled":4,"currentNumberScheduled":4,"numberReady":3,"updatedNumberScheduled":2,
          "numberAvailable":1,"numberMisscheduled":0}}
        """);
  }

  /** The line that starts with {@code prefix}, split into cells at runs of two or more spaces. */
  private static List<String> cells(Kubectl.Result r, String prefix) {
    return r.lines().stream().filter(l -> l.startsWith(prefix)).findFirst()
        .map(l -> Arrays.asList(l.trim().split("\\s{2,}")))
        .orElseThrow(() -> new AssertionError("no line starting with " + prefix + " in\n" + r));
  }

  @Test
  void getWide_jobsCronjobsStatefulsetsDaemonsets_printKubesHeadersAndARowEach() {
    workloads("columns-wide");

    Kubectl.Result r = kubectl.ok("get", "jobs,cronjobs,statefulsets,daemonsets", "-o", "wide", "-n", "columns-wide");

    List<String> headers = r.lines().stream().filter(l -> l.startsWith("NAME ")).toList();
    assertThat(headers).hasSize(4);
    assertThat(headers.get(0).split("\\s{2,}"))
        .containsExactly("NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE", "CONTAINERS", "IMAGES", "SELECTOR");
    assertThat(headers.get(1).split("\\s{2,}")).containsExactly("NAME", "SCHEDULE", "TIMEZONE", "SUSPEND", "ACTIVE",
        "LAST SCHEDULE", "AGE", "CONTAINERS", "IMAGES", "SELECTOR");
    assertThat(headers.get(2).split("\\s{2,}")).containsExactly("NAME", "READY", "AGE", "CONTAINERS", "IMAGES");
    assertThat(headers.get(3).split("\\s{2,}")).containsExactly("NAME", "DESIRED", "CURRENT", "READY", "UP-TO-DATE",
        "AVAILABLE", "NODE SELECTOR", "AGE", "CONTAINERS", "IMAGES", "SELECTOR");

    List<String> job = cells(r, "job.batch/pi ");
    assertThat(job.subList(0, 4)).containsExactly("job.batch/pi", "Complete", "1/1", "42s");
    assertThat(job.subList(5, 8)).containsExactly("main,log", "perl:5,fluent-bit:3", "app=pi");
    List<String> cronJob = cells(r, "cronjob.batch/nightly ");
    assertThat(cronJob.subList(0, 6))
        .containsExactly("cronjob.batch/nightly", "0 3 * * *", "Europe/Paris", "True", "1", "3h");
    assertThat(cronJob.subList(7, 10)).containsExactly("main,log", "restic:0.17,fluent-bit:3", "<none>");
    List<String> statefulSet = cells(r, "statefulset.apps/db ");
    assertThat(statefulSet).hasSize(5);
    assertThat(statefulSet.get(1)).isEqualTo("2/3");
    assertThat(statefulSet.subList(3, 5)).containsExactly("main,log", "postgres:17,fluent-bit:3");
    List<String> daemonSet = cells(r, "daemonset.apps/agent ");
    assertThat(daemonSet.subList(0, 7))
        .containsExactly("daemonset.apps/agent", "4", "4", "3", "2", "1", "kubernetes.io/os=linux");
    assertThat(daemonSet.subList(8, 11)).containsExactly("main", "agent:2", "app=agent");
  }

  @Test
  void getWithoutWide_hidesThePriorityOneColumns() {
    workloads("columns-narrow");

    Kubectl.Result r = kubectl.ok("get", "jobs", "-n", "columns-narrow");

    assertThat(r.lines().getFirst().split("\\s{2,}")).containsExactly("NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE");
    assertThat(cells(r, "pi ")).startsWith("pi", "Complete", "1/1", "42s").hasSize(5);
  }

  @Test
  void getEventsK8sIo_printsTheColumnsOfCoreEvents_andStorageClassesMarkTheDefault() {
    api.createNamespace("columns-events");
    create("/apis/events.k8s.io/v1/namespaces/columns-events/events", """
        {"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"web.1"},
         "eventTime":"%s","reportingController":"default-scheduler","reportingInstance":"sched-1",
         "action":"Binding","reason":"Scheduled","type":"Normal","note":"Assigned to node-1",
         "regarding":{"kind":"Pod","name":"web","namespace":"columns-events","fieldPath":"spec.containers{app}"}}
        """.formatted(MICRO_TIME.format(Instant.now().minusSeconds(30))));
    create("/apis/storage.k8s.io/v1/storageclasses", """
        {"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"columns-local",
          "annotations":{"storageclass.kubernetes.io/is-default-class":"true"}},"provisioner":"rancher.io/local-path"}
        """);

    Kubectl.Result events = kubectl.ok("get", "events.events.k8s.io", "-o", "wide", "-n", "columns-events");
    Kubectl.Result classes = kubectl.ok("get", "storageclasses", "columns-local");

    assertThat(events.lines().getFirst().split("\\s{2,}")).containsExactly("LAST SEEN", "TYPE", "REASON", "OBJECT",
        "SUBOBJECT", "SOURCE", "MESSAGE", "FIRST SEEN", "COUNT", "NAME");
    List<String> event = Arrays.asList(events.lines().get(1).trim().split("\\s{2,}"));
    assertThat(event.getFirst()).matches("\\d+s");
    assertThat(event.subList(1, 10)).containsExactly("Normal", "Scheduled", "pod/web", "spec.containers{app}",
        "default-scheduler, sched-1", "Assigned to node-1", event.getFirst(), "1", "web.1");
    assertThat(classes.lines().getFirst().split("\\s{2,}")).containsExactly("NAME", "PROVISIONER", "RECLAIMPOLICY",
        "VOLUMEBINDINGMODE", "ALLOWVOLUMEEXPANSION", "AGE");
    assertThat(cells(classes, "columns-local")).startsWith("columns-local (default)", "rancher.io/local-path", "Delete",
        "Immediate", "false");
  }
}
