package io.listwatch.apiserver.printers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Jobs and CronJobs. */
class BatchTableConvertorsTest {

  private static final String TEMPLATE = """
      "template":{"spec":{"containers":[{"name":"pi","image":"perl:5"}]}}""";

  private static String job(String spec, String status) {
    return "{\"metadata\":{\"name\":\"pi\",\"creationTimestamp\":\"" + Rows.CREATED_5M_AGO + "\"},"
        + "\"spec\":{" + spec + (spec.isEmpty() ? "" : ",") + TEMPLATE + "},\"status\":{" + status + "}}";
  }

  @Test
  void job_columns_areKubes_withTheTemplateAndSelectorWhenWide() {
    assertThat(Rows.shapes(new JobTableConvertor())).containsExactly("Name:string:name", "Status:string",
        "Completions:string", "Duration:string", "Age:string", "Containers:string:wide", "Images:string:wide",
        "Selector:string:wide");
  }

  @Test
  void job_thatSucceeded_printsComplete_itsCompletions_andStartToCompletion() {
    assertThat(Rows.cells(new JobTableConvertor(), job(
        "\"completions\":1,\"selector\":{\"matchLabels\":{\"batch.kubernetes.io/controller-uid\":\"u1\"}}",
        "\"succeeded\":1,\"startTime\":\"2026-01-01T11:56:00Z\",\"completionTime\":\"2026-01-01T11:56:42Z\","
            + "\"conditions\":[{\"type\":\"SuccessCriteriaMet\",\"status\":\"True\"},{\"type\":\"Complete\",\"status\":\"True\"}]")))
        .containsExactly("pi", "Complete", "1/1", "42s", "5m", "pi", "perl:5", "batch.kubernetes.io/controller-uid=u1");
  }

  @Test
  void job_thatRuns_printsRunning_andTheTimeSinceItStarted() {
    assertThat(Rows.cells(new JobTableConvertor(), job("\"completions\":5,\"parallelism\":2",
        "\"succeeded\":2,\"active\":2,\"startTime\":\"2026-01-01T11:57:00Z\"")))
        .startsWith("pi", "Running", "2/5", "3m");
  }

  @Test
  void job_suspended_failed_terminating_andFailureTarget_printTheirStatus() {
    JobTableConvertor c = new JobTableConvertor();
    assertThat(Rows.cells(c, job("\"completions\":1,\"suspend\":true",
        "\"conditions\":[{\"type\":\"Suspended\",\"status\":\"True\"}]")).subList(1, 4))
        .containsExactly("Suspended", "0/1", "");
    assertThat(Rows.cells(c, job("", "\"conditions\":[{\"type\":\"FailureTarget\",\"status\":\"True\"},"
        + "{\"type\":\"Failed\",\"status\":\"True\"}]")).get(1)).isEqualTo("Failed");
    assertThat(Rows.cells(c, job("", "\"conditions\":[{\"type\":\"FailureTarget\",\"status\":\"True\"}]")).get(1))
        .isEqualTo("FailureTarget");
    assertThat(Rows.cells(c, job("", "\"conditions\":[{\"type\":\"Complete\",\"status\":\"False\"}]")).get(1))
        .isEqualTo("Running");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"pi\",\"deletionTimestamp\":\"2026-01-01T11:59:00Z\"},"
        + "\"status\":{\"conditions\":[{\"type\":\"Suspended\",\"status\":\"True\"}]}}").get(1)).isEqualTo("Terminating");
  }

  @Test
  void job_withoutCompletions_printsOneOrOneOfParallelism() {
    JobTableConvertor c = new JobTableConvertor();
    assertThat(Rows.cells(c, job("", "")).get(2)).isEqualTo("0/1");
    assertThat(Rows.cells(c, job("\"parallelism\":1", "\"succeeded\":1")).get(2)).isEqualTo("1/1");
    assertThat(Rows.cells(c, job("\"parallelism\":4", "\"succeeded\":3")).get(2)).isEqualTo("3/1 of 4");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"bare\"}}"))
        .containsExactly("bare", "Running", "0/1", "", "<unknown>", "", "", "<none>");
  }

  @Test
  void cronJob_columns_areKubes() {
    assertThat(Rows.shapes(new CronJobTableConvertor())).containsExactly("Name:string:name", "Schedule:string",
        "Timezone:string", "Suspend:boolean", "Active:integer", "Last Schedule:string", "Age:string",
        "Containers:string:wide", "Images:string:wide", "Selector:string:wide");
  }

  @Test
  void cronJob_showsScheduleTimezoneSuspendActive_andHowLongAgoItLastScheduled() {
    assertThat(Rows.cells(new CronJobTableConvertor(), """
        {"metadata":{"name":"nightly","creationTimestamp":"2025-12-29T12:00:00Z"},
         "spec":{"schedule":"0 3 * * *","timeZone":"Europe/Paris","suspend":true,
          "jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"backup","image":"restic:0.17"},
           {"name":"notify","image":"curl:8"}]}}}}},
         "status":{"active":[{"name":"nightly-1"},{"name":"nightly-2"}],"lastScheduleTime":"2026-01-01T09:00:00Z"}}
        """)).containsExactly("nightly", "0 3 * * *", "Europe/Paris", "True", 2L, "3h", "3d", "backup,notify",
        "restic:0.17,curl:8", "<none>");
  }

  @Test
  void cronJob_neverScheduled_printsNone_andUnsetSuspendReadsFalse() {
    assertThat(Rows.cells(new CronJobTableConvertor(), "{\"metadata\":{\"name\":\"c\"},\"spec\":{\"schedule\":\"@hourly\"}}"))
        .containsExactly("c", "@hourly", "<none>", "False", 0L, "<none>", "<unknown>", "", "", "<none>");
  }
}
