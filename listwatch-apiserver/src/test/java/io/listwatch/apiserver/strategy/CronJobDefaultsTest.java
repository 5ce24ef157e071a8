package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.InMemoryCore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * kube 1.32's defaults of a CronJob as stored ({@code SetObjectDefaults_CronJob}): the CronJob's
 * own and its job template's pod spec's, never {@code SetDefaults_Job}'s, which only a Job gets.
 */
class CronJobDefaultsTest {

  private static final String CRONJOB = "{\"apiVersion\":\"batch/v1\",\"kind\":\"CronJob\",\"metadata\":{\"name\":\"c\"},"
      + "\"spec\":{\"schedule\":\"0 * * * *\",\"jobTemplate\":{\"spec\":{%s\"template\":{\"spec\":{\"restartPolicy\":\"Never\","
      + "\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}}}}}";

  @Test
  void storedCronJob_hasItsOwnAndThePodDefaults_butNotTheJobDefaults() {
    try (InMemoryCore core = InMemoryCore.start()) {
      ObjectNode stored = StrategyCases.body(core.send("POST", "/apis/batch/v1/namespaces/default/cronjobs", Map.of(),
          CRONJOB.formatted("")));

      JsonNode spec = stored.path("spec");
      assertThat(spec.path("concurrencyPolicy").asText()).isEqualTo("Allow");
      assertThat(spec.path("suspend").asBoolean(true)).isFalse();
      assertThat(spec.path("successfulJobsHistoryLimit").asInt()).isEqualTo(3);
      assertThat(spec.path("failedJobsHistoryLimit").asInt()).isEqualTo(1);
      JsonNode jobSpec = spec.path("jobTemplate").path("spec");
      for (String jobDefault : List.of("completions", "parallelism", "backoffLimit", "completionMode", "suspend",
          "podReplacementPolicy", "manualSelector", "selector")) {
        assertThat(jobSpec.has(jobDefault)).as(jobDefault).isFalse();
      }
      JsonNode podSpec = jobSpec.path("template").path("spec");
      assertThat(podSpec.path("terminationGracePeriodSeconds").asInt()).isEqualTo(30);
      assertThat(podSpec.path("dnsPolicy").asText()).isEqualTo("ClusterFirst");
      assertThat(podSpec.path("containers").get(0).path("imagePullPolicy").asText()).isEqualTo("Always");
    }
  }

  @Test
  void jobTemplate_keepsWhatTheClientSet_andAPatternWithoutStatusIsRefused_asKubeDoes() {
    try (InMemoryCore core = InMemoryCore.start()) {
      ObjectNode stored = StrategyCases.body(core.send("POST", "/apis/batch/v1/namespaces/default/cronjobs", Map.of(),
          CRONJOB.formatted("\"backoffLimit\":2,\"completionMode\":\"Indexed\",\"completions\":3,")));
      JsonNode jobSpec = stored.path("spec").path("jobTemplate").path("spec");
      assertThat(jobSpec.path("backoffLimit").asInt()).isEqualTo(2);
      assertThat(jobSpec.path("completions").asInt()).isEqualTo(3);
      assertThat(jobSpec.has("parallelism")).isFalse();

      // SetDefaults_Job gives a Job's pod condition patterns status True; a job template gets no such default
      var e = core.refusal("POST", "/apis/batch/v1/namespaces/default/cronjobs", Map.of(), CRONJOB.formatted(
          "\"podFailurePolicy\":{\"rules\":[{\"action\":\"Ignore\",\"onPodConditions\":[{\"type\":\"DisruptionTarget\"}]}]},")
          .replace("\"name\":\"c\"}", "\"name\":\"d\"}"));
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.status().details().causes()).extracting(c -> c.field() + ": " + c.message()).containsExactly(
          "spec.jobTemplate.spec.podFailurePolicy.rules[0].onPodConditions[0].status: Required value: "
              + "valid values: [\"False\" \"True\" \"Unknown\"]");
    }
  }
}
