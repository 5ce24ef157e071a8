package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube 1.32's DaemonSet template generation through the core: the annotation
 * {@code deprecated.daemonset.template.generation} set on create (kube's {@code PrepareForCreate}),
 * kept or incremented on update ({@code PrepareForUpdate}), kept on {@code /status}, and a value
 * that is not an int64 refused 400 as kube's apps/v1 conversion refuses it.
 */
class DaemonSetTemplateGenerationTest {

  private static final String DAEMONSETS = "/apis/apps/v1/namespaces/default/daemonsets";
  private static final String GENERATION = "deprecated.daemonset.template.generation";

  private static String daemonSet(String annotations, String image) {
    return "{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"ds\"" + annotations + "},"
        + "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"a\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"a\"}},"
        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"" + image + "\"}]}}}}";
  }

  private static String annotation(String value) {
    return value == null ? "" : ",\"annotations\":{\"" + GENERATION + "\":\"" + value + "\"}";
  }

  private static String generation(ObjectNode ds) {
    return ds.path("metadata").path("annotations").path(GENERATION).asText(null);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', nullValues = "nil", textBlock = """
      nil | 1
      0   | 1
      -3  | 1
      1   | 1
      7   | 7
      +7  | 7
      """)
  void create_setsTheGeneration_atLeastOne(String given, String stored) {
    try (InMemoryCore core = InMemoryCore.start()) {
      ObjectNode ds = StrategyCases.body(core.send("POST", DAEMONSETS, Map.of(), daemonSet(annotation(given), "nginx")));
      assertThat(generation(ds)).isEqualTo(stored);
    }
  }

  @Test
  void update_keepsTheStoredGeneration_andIncrementsItWhenTheTemplateChanges() {
    try (InMemoryCore core = InMemoryCore.start()) {
      core.send("POST", DAEMONSETS, Map.of(), daemonSet("", "nginx"));

      ObjectNode same = StrategyCases.body(core.send("PUT", DAEMONSETS + "/ds", Map.of(), daemonSet(annotation("9"), "nginx")));
      assertThat(generation(same)).isEqualTo("1");
      assertThat(same.path("metadata").path("generation").asLong()).isEqualTo(1);

      ObjectNode changed = StrategyCases.body(core.send("PUT", DAEMONSETS + "/ds", Map.of(), daemonSet("", "nginx:2")));
      assertThat(generation(changed)).isEqualTo("2");
      assertThat(changed.path("metadata").path("generation").asLong()).isEqualTo(2);

      ObjectNode status = StrategyCases.body(core.send("PUT", DAEMONSETS + "/ds/status", Map.of(),
          daemonSet(annotation("5"), "nginx:3").replace("}}}}}", "}}}},\"status\":{\"numberReady\":0,"
              + "\"currentNumberScheduled\":0,\"numberMisscheduled\":0,\"desiredNumberScheduled\":0}}")));
      assertThat(generation(status)).isEqualTo("2");
      assertThat(status.path("spec").path("template").path("spec").path("containers").get(0).path("image").asText())
          .isEqualTo("nginx:2");
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      abc                  | strconv.ParseInt: parsing "abc": invalid syntax
      1.5                  | strconv.ParseInt: parsing "1.5": invalid syntax
      99999999999999999999 | strconv.ParseInt: parsing "99999999999999999999": value out of range
      """)
  void aGenerationThatIsNotAnInt64_is400(String given, String error) {
    try (InMemoryCore core = InMemoryCore.start()) {
      StatusException e = core.refusal("POST", DAEMONSETS, Map.of(), daemonSet(annotation(given), "nginx"));
      assertThat(e.code()).isEqualTo(400);
      assertThat(e.getMessage()).isEqualTo("DaemonSet in version \"v1\" cannot be handled as a DaemonSet: " + error);
    }
  }
}
