package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's validation of a write of a Job's {@code /status} with kube 1.32's options (JobManagedBy
 * on), from the cases of kube's {@code TestValidateJobUpdateStatus} and
 * {@code TestStatusStrategy_ValidateUpdate}: each row is the stored status, the written one, the
 * job's spec and every error kube gives (separated by {@code ~}).
 */
class JobStatusValidationTest {

  private static final String T0 = "2024-01-01T00:00:00Z";
  private static final String T1 = "2024-01-01T00:01:00Z";
  private static final String DONE = "\"startTime\":\"" + T0 + "\",\"completionTime\":\"" + T1 + "\",\"succeeded\":1,"
      + "\"conditions\":[{\"type\":\"SuccessCriteriaMet\",\"status\":\"True\"},{\"type\":\"Complete\",\"status\":\"True\"}]";

  private static ObjectNode job(String spec, String status) {
    return InMemoryCore.json("{\"metadata\":{\"name\":\"pi\"},\"spec\":{" + spec + "},\"status\":{"
        + status.replace("\"T0\"", "\"" + T0 + "\"").replace("\"T1\"", "\"" + T1 + "\"").replace("DONE", DONE) + "}}");
  }

  private static List<String> errors(String spec, String oldStatus, String newStatus) {
    List<Status.Cause> errors = new ArrayList<>();
    JobStatusValidation.update(job(spec, newStatus), job(spec, oldStatus), errors);
    return StrategyCases.lines(errors);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      "startTime":"T0","active":1             | DONE                                                    | "completions":1
      "startTime":"T0","active":1             | "startTime":"T0","active":0,"succeeded":1,"ready":0      | "completions":1
      "startTime":"T0","succeeded":2          | "startTime":"T0","succeeded":1                         | "completionMode":"Indexed","completions":2,"parallelism":2
      "completedIndexes":"0"                  | "completedIndexes":"0-1","succeeded":2                 | "completionMode":"Indexed","completions":2
      """)
  void valid(String oldStatus, String newStatus, String spec) {
    assertThat(errors(spec, oldStatus, newStatus)).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      ""                             | "active":-1,"succeeded":-1,"failed":-1,"ready":-1,"terminating":-1 | "completions":1 | status.active: Invalid value: -1: must be greater than or equal to 0 ~ status.succeeded: Invalid value: -1: must be greater than or equal to 0 ~ status.failed: Invalid value: -1: must be greater than or equal to 0 ~ status.ready: Invalid value: -1: must be greater than or equal to 0 ~ status.terminating: Invalid value: -1: must be greater than or equal to 0 ~ status.failed: Invalid value: -1: cannot decrease the failed counter ~ status.succeeded: Invalid value: -1: cannot decrease the succeeded counter
      ""                             | "uncountedTerminatedPods":{"succeeded":["a",""],"failed":["a"]} | "completions":1 | status.uncountedTerminatedPods.succeeded[1]: Invalid value: "": must not be empty ~ status.uncountedTerminatedPods.failed[0]: Duplicate value: "a"
      "startTime":"T0"               | "startTime":"T0","succeeded":1,"conditions":[{"type":"Complete","status":"True"}] | "completions":1 | status.completionTime: Required value: completionTime is required for Complete jobs
      ""                             | "completionTime":"T1","succeeded":1,"conditions":[{"type":"Complete","status":"True"}] | "completions":1 | status.startTime: Required value: startTime is required for finished job
      "startTime":"T0"               | "startTime":"T0","completionTime":"T1"                 | "completions":1 | status.completionTime: Invalid value: 2024-01-01 00:01:00 +0000 UTC: cannot set completionTime when there is no Complete=True condition
      "startTime":"T1"               | "startTime":"T1","completionTime":"T0","conditions":[{"type":"Complete","status":"True"}] | "completions":1 | status.completionTime: Invalid value: 2024-01-01 00:00:00 +0000 UTC: completionTime cannot be set before startTime
      "startTime":"T0","active":1    | "startTime":"T0","active":1,"conditions":[{"type":"Failed","status":"True"},{"type":"FailureTarget","status":"True"}] | "completions":1 | status.active: Invalid value: 1: active>0 is invalid for finished job
      "startTime":"T0"               | "startTime":"T0","completionTime":"T1","conditions":[{"type":"Complete","status":"True"},{"type":"Failed","status":"True"}] | "completions":1 | status.conditions: Invalid value: cannot set Complete=True and Failed=true conditions
      "startTime":"T0"               | "startTime":"T0","uncountedTerminatedPods":{"succeeded":["a"]},"conditions":[{"type":"Failed","status":"True"}] | "completions":1 | status.uncountedTerminatedPods: Invalid value: batch.UncountedTerminatedPods{Succeeded:[]types.UID{"a"}, Failed:[]types.UID(nil)}: uncountedTerminatedPods needs to be empty for finished job
      DONE                           | "startTime":"T0","completionTime":"T1","succeeded":1,"conditions":[{"type":"SuccessCriteriaMet","status":"True"}] | "completions":1 | status.completionTime: Invalid value: 2024-01-01 00:01:00 +0000 UTC: cannot set completionTime when there is no Complete=True condition ~ status.conditions: Invalid value: cannot disable the terminal Complete=True condition
      DONE                           | "startTime":"T0","completionTime":"T0","succeeded":1,"conditions":[{"type":"SuccessCriteriaMet","status":"True"},{"type":"Complete","status":"True"}] | "completions":1 | status.completionTime: Invalid value: 2024-01-01 00:00:00 +0000 UTC: completionTime cannot be mutated
      "startTime":"T0","failed":2    | "startTime":"T0","failed":1                            | "completions":1 | status.failed: Invalid value: 1: cannot decrease the failed counter
      "startTime":"T0","succeeded":2 | "startTime":"T0","succeeded":1                         | "completions":3 | status.succeeded: Invalid value: 1: cannot decrease the succeeded counter
      "startTime":"T0"               | ""                                                     | "completions":1 | status.startTime: Required value: startTime cannot be removed for unsuspended job
      ""                             | "completedIndexes":"0"                                 | "completions":1 | status.completedIndexes: Invalid value: "0": cannot set non-empty completedIndexes when non-indexed completion mode
      ""                             | "completedIndexes":"0,5"                               | "completionMode":"Indexed","completions":3 | status.completedIndexes: Invalid value: "0,5": error parsing completedIndexes: too large index: "5"
      ""                             | "failedIndexes":"1"                                    | "completionMode":"Indexed","completions":3 | status.failedIndexes: Invalid value: "1": cannot set non-null failedIndexes when backoffLimitPerIndex is null
      "completedIndexes":"1-3"       | "completedIndexes":"1-3","failedIndexes":"0,3-4"       | "completionMode":"Indexed","completions":5,"backoffLimitPerIndex":1 | status.failedIndexes: Invalid value: "0,3-4": failedIndexes and completedIndexes overlap at index: 3
      ""                             | "conditions":[{"type":"SuccessCriteriaMet","status":"True"},{"type":"FailureTarget","status":"True"}] | "completions":1 | status.conditions: Invalid value: cannot set SuccessCriteriaMet=True and FailureTarget=true conditions
      "conditions":[{"type":"SuccessCriteriaMet","status":"True"}] | ""               | "completions":1 | status.conditions: Invalid value: cannot disable the SuccessCriteriaMet=True condition
      """)
  void invalid(String oldStatus, String newStatus, String spec, String expected) {
    assertThat(errors(spec, empty(oldStatus), empty(newStatus)))
        .containsExactly(expected.split(" ~ "));
  }

  /** {@code ""} in a row: no status field at all. */
  private static String empty(String status) {
    return status.equals("\"\"") ? "" : status;
  }

  @Test
  void endToEnd_aStatusWriteBreakingTheRules_isRefused_andAValidOneStored() {
    try (InMemoryCore core = InMemoryCore.start()) {
      String jobs = "/apis/batch/v1/namespaces/default/jobs";
      ObjectNode job = StrategyCases.body(core.send("POST", jobs, Map.of(), """
          {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"pi"},
           "spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"pi","image":"perl"}]}}}}"""));
      job.set("status", InMemoryCore.json("{\"startTime\":\"" + T0 + "\",\"succeeded\":1,"
          + "\"conditions\":[{\"type\":\"Complete\",\"status\":\"True\"}]}"));

      StatusException e = core.refusal("PUT", jobs + "/pi/status", Map.of(), job.toString());
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("Job.batch \"pi\" is invalid: status.completionTime: Required value: "
          + "completionTime is required for Complete jobs");

      ((ObjectNode) job.get("status")).put("completionTime", T1);
      assertThat(core.send("PUT", jobs + "/pi/status", Map.of(), job.toString()).code()).isEqualTo(200);
    }
  }
}
