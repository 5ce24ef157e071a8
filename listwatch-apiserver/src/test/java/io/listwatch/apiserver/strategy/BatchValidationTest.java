package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's validation of Jobs and CronJobs, from the cases of kube's
 * {@code pkg/apis/batch/validation/validation_test.go} ({@code TestValidateJob},
 * {@code TestValidateJobUpdate}, {@code TestValidateCronJob}, ...) and robfig/cron's parser
 * tests for the schedules.
 */
class BatchValidationTest {

  private static final String POD = "\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}";

  /** A job as the server holds it after {@code prepareForCreate} (generated selector and labels), with {@code spec} added. */
  private static String job(String spec) {
    return "{\"metadata\":{\"name\":\"j\",\"uid\":\"u\"},\"spec\":{" + spec + (spec.isEmpty() ? "" : ",")
        + "\"selector\":{\"matchLabels\":{\"batch.kubernetes.io/controller-uid\":\"u\"}},\"template\":{\"metadata\":"
        + "{\"labels\":{\"batch.kubernetes.io/controller-uid\":\"u\",\"controller-uid\":\"u\",\"batch.kubernetes.io/job-name\":\"j\","
        + "\"job-name\":\"j\"}}," + POD + "}}}";
  }

  private static String cronJob(String name, String spec) {
    return "{\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{" + spec + (spec.isEmpty() ? "" : ",")
        + "\"jobTemplate\":{\"spec\":{\"template\":{" + POD + "}}}}}";
  }

  @Test
  void job_valid() {
    assertThat(StrategyCases.create(new JobStrategy(), job(""))).isEmpty();
    assertThat(StrategyCases.create(new JobStrategy(), job("\"completionMode\":\"Indexed\",\"completions\":3,"
        + "\"backoffLimitPerIndex\":1,\"maxFailedIndexes\":2"))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "parallelism":-1                   | spec.parallelism: Invalid value: -1: must be greater than or equal to 0
      "completions":-1                   | spec.completions: Invalid value: -1: must be greater than or equal to 0
      "activeDeadlineSeconds":-1         | spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0
      "backoffLimit":-1                  | spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0
      "ttlSecondsAfterFinished":-1       | spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0
      "completionMode":"Sometimes"       | spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"
      "completionMode":"Indexed","parallelism":100001,"completions":1 | spec.parallelism: Invalid value: 100001: must be less than or equal to 100000 when completion mode is Indexed
      "backoffLimitPerIndex":1           | spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode
      "podReplacementPolicy":"Sometimes" | spec.podReplacementPolicy: Unsupported value: "Sometimes": supported values: "Failed", "TerminatingOrFailed"
      """)
  void job_invalid(String spec, String error) {
    assertThat(StrategyCases.create(new JobStrategy(), job(spec))).containsExactly(error);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      Always    | spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"
      Sometimes | spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "OnFailure", "Never"
      """)
  void job_restartPolicy(String policy, String error) {
    // a policy no pod may have is also refused by the pod spec's own rule, before the job's
    assertThat(StrategyCases.create(new JobStrategy(), job("").replace("\"Never\"", "\"" + policy + "\"")))
        .endsWith(error);
  }

  @Test
  void job_generatedLabels_mustBeTheJobs() {
    assertThat(StrategyCases.create(new JobStrategy(), job("").replace("\"job-name\":\"j\"", "\"job-name\":\"k\"")))
        .containsExactly("spec.template.metadata.labels[job-name]: Invalid value: map[string]string{"
            + "\"batch.kubernetes.io/controller-uid\":\"u\", \"batch.kubernetes.io/job-name\":\"j\", \"controller-uid\":\"u\", "
            + "\"job-name\":\"k\"}: must be 'j'");
  }

  @Test
  void job_update_keepsItsImmutableFields() {
    String old = job("\"completions\":2");
    String updated = job("\"completions\":3,\"completionMode\":\"NonIndexed\"").replace("\"image\":\"i\"", "\"image\":\"j\"");

    assertThat(StrategyCases.update(new JobStrategy(), old, updated)).containsExactly(
        "spec.completions: Invalid value: 3: field is immutable",
        "spec.template: Invalid value: core.PodTemplateSpec{...}: field is immutable");
    assertThat(StrategyCases.update(new JobStrategy(), old, old.replace("\"completions\":2", "\"completions\":2,\"parallelism\":5")))
        .isEmpty();
  }

  @Test
  void job_indexed_mayScaleCompletionsWithParallelism() {
    String old = job("\"completionMode\":\"Indexed\",\"completions\":2,\"parallelism\":2");

    assertThat(StrategyCases.update(new JobStrategy(), old, old.replace(":2,\"parallelism\":2", ":4,\"parallelism\":4")))
        .isEmpty();
    assertThat(StrategyCases.update(new JobStrategy(), old, old.replace(":2,\"parallelism\":2", ":4,\"parallelism\":2")))
        .containsExactly("spec.completions: Invalid value: 4: can only be modified in tandem with spec.parallelism");
  }

  @Test
  void job_suspendedAndNeverStarted_mayChangeItsSchedulingDirectives() {
    String old = job("\"suspend\":true");
    String updated = old.replace("\"restartPolicy\"", "\"nodeSelector\":{\"zone\":\"a\"},\"restartPolicy\"");

    assertThat(StrategyCases.update(new JobStrategy(), old, updated)).isEmpty();
    assertThat(StrategyCases.update(new JobStrategy(), job(""), updated.replace("\"suspend\":true,", "")))
        .containsExactly("spec.template: Invalid value: core.PodTemplateSpec{...}: field is immutable");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      * * * * *
      0 0 1 1 0
      */15 0-6/2 1,15 jan-mar mon-fri
      ? * * * SUN
      @hourly
      @every 1h30m
      5/10 * * * *
      """)
  void schedule_valid(String schedule) {
    assertThat(CronSchedule.problem(schedule)).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      * * * *           | expected exactly 5 fields, found 4: [* * * *]
      * * * * * *       | expected exactly 5 fields, found 6: [* * * * * *]
      60 * * * *        | end of range (60) above maximum (59): 60
      * * 0 * *         | beginning of range (0) below minimum (1): 0
      * * * * 7         | end of range (7) above maximum (6): 7
      5-1 * * * *       | beginning of range (5) beyond end of range (1): 5-1
      1-2-3 * * * *     | too many hyphens: 1-2-3
      */2/3 * * * *     | too many slashes: */2/3
      */0 * * * *       | step of range should be a positive number: */0
      a * * * *         | failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax
      @fortnightly      | unrecognized descriptor: @fortnightly
      @every 1x         | failed to parse duration 1x: time: unknown unit "x" in duration "1x"
      """)
  void schedule_invalid(String schedule, String problem) {
    assertThat(CronSchedule.problem(schedule)).isEqualTo(Optional.of(problem));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "schedule":""                                              | spec.schedule: Required value
      "schedule":"1 * *"                                         | spec.schedule: Invalid value: "1 * *": expected exactly 5 fields, found 3: [1 * *]
      "schedule":"TZ=UTC 0 * * * *"                              | spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead
      "schedule":"0 * * * *","timeZone":"Mars/Olympus"           | spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus
      "schedule":"0 * * * *","timeZone":""                       | spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string
      "schedule":"0 * * * *","timeZone":"Local"                  | spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones
      "schedule":"0 * * * *","timeZone":"America/New York"       | spec.timeZone: Invalid value: "America/New York": unknown time zone America/New York
      "schedule":"0 * * * *","startingDeadlineSeconds":-1        | spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0
      "schedule":"0 * * * *","concurrencyPolicy":"Sometimes"     | spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"
      "schedule":"0 * * * *","successfulJobsHistoryLimit":-1     | spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0
      "schedule":"0 * * * *","failedJobsHistoryLimit":-1         | spec.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0
      """)
  void cronJob_invalid(String spec, String error) {
    assertThat(StrategyCases.create(new CronJobStrategy(), cronJob("c", spec))).containsExactly(error);
  }

  @Test
  void cronJob_valid_withATimeZone() {
    assertThat(StrategyCases.create(new CronJobStrategy(), cronJob("c", "\"schedule\":\"@daily\",\"timeZone\":\"Europe/Paris\"")))
        .isEmpty();
  }

  @Test
  void cronJob_jobTemplate_isValidatedAsAJob_withoutASelector() {
    String json = cronJob("c", "\"schedule\":\"0 * * * *\"").replace("\"jobTemplate\":{\"spec\":{",
        "\"jobTemplate\":{\"spec\":{\"parallelism\":-1,\"manualSelector\":true,\"selector\":{\"matchLabels\":{\"a\":\"b\"}},");

    assertThat(StrategyCases.create(new CronJobStrategy(), json)).containsExactly(
        "spec.jobTemplate.spec.parallelism: Invalid value: -1: must be greater than or equal to 0",
        "spec.jobTemplate.spec.selector: Invalid value: &LabelSelector{MatchLabels:map[string]string{a: b,},"
            + "MatchExpressions:[]LabelSelectorRequirement{},}: `selector` will be auto-generated",
        "spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: \"nil\", \"false\"");
  }

  @Test
  void cronJob_name_atMost52Characters_onCreateOnly() {
    String name = "a".repeat(53);
    String json = cronJob(name, "\"schedule\":\"0 * * * *\"");

    assertThat(StrategyCases.create(new CronJobStrategy(), json))
        .containsExactly("metadata.name: Invalid value: \"" + name + "\": must be no more than 52 characters");
    assertThat(StrategyCases.update(new CronJobStrategy(), json, json)).isEmpty();
  }

  @Test
  void cronJob_storedTzSchedule_mayStay() {
    String json = cronJob("c", "\"schedule\":\"TZ=UTC 0 * * * *\"");
    assertThat(StrategyCases.update(new CronJobStrategy(), json, json)).isEmpty();
  }

  @Test
  void endToEnd_kubectlCreateJob_isAccepted_andABadCronJobIsRefused() {
    try (InMemoryCore core = InMemoryCore.start()) {
      String kubectl = "{\"kind\":\"Job\",\"apiVersion\":\"batch/v1\",\"metadata\":{\"name\":\"pi\",\"creationTimestamp\":null},"
          + "\"spec\":{\"template\":{\"metadata\":{\"creationTimestamp\":null},\"spec\":{\"containers\":[{\"name\":\"pi\","
          + "\"image\":\"perl\",\"resources\":{}}],\"restartPolicy\":\"Never\"}}},\"status\":{}}";
      assertThat(core.send("POST", "/apis/batch/v1/namespaces/default/jobs", Map.of(), kubectl).code()).isEqualTo(201);

      StatusException e = core.refusal("POST", "/apis/batch/v1/namespaces/default/cronjobs", Map.of(),
          "{\"apiVersion\":\"batch/v1\",\"kind\":\"CronJob\"," + cronJob("c", "\"schedule\":\"61 * * * *\"").substring(1));
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("CronJob.batch \"c\" is invalid: spec.schedule: Invalid value: \"61 * * * *\": "
          + "end of range (61) above maximum (59): 61");
    }
  }
}
