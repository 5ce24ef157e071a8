package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.StrategyCases.causes;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** kube's {@code TestValidateEventForCoreV1Events}, {@code ...ForEventsV1Events} and update cases. */
class EventValidationTest {

  private static final String V1_OK = "\"eventTime\":\"2024-01-01T00:00:00.000000Z\",\"reportingController\":\"kubelet\","
      + "\"reportingInstance\":\"node-1\",\"action\":\"Pulling\",\"reason\":\"Pulling\",\"type\":\"Normal\"";

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"metadata":{"namespace":"ns"},"involvedObject":{"namespace":"ns"}}                 |
      {"metadata":{"namespace":"default"},"involvedObject":{}}                            |
      {"metadata":{"namespace":"ns"},"involvedObject":{}}                                 | involvedObject.namespace: Invalid value: "": does not match event.namespace
      {"metadata":{"namespace":"ns"},"involvedObject":{"namespace":"other"}}              | involvedObject.namespace: Invalid value: "other": does not match event.namespace
      {"metadata":{"namespace":"ns"},"involvedObject":{"namespace":"ns"},"eventTime":"2024-01-01T00:00:00Z"} | reportingController: Required value; reportingController: Invalid value: "": name part must be non-empty; reportingController: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'); reportingInstance: Required value; action: Required value; reason: Required value
      {"metadata":{"namespace":"kube-system"},"involvedObject":{},"eventTime":"2024-01-01T00:00:00Z","reportingComponent":"k","reportingInstance":"i","action":"a","reason":"r"} |
      {"metadata":{"namespace":"ns"},"involvedObject":{},"eventTime":"2024-01-01T00:00:00Z","reportingComponent":"k","reportingInstance":"i","action":"a","reason":"r"} | involvedObject.namespace: Invalid value: "": does not match event.namespace
      """)
  void coreV1_legacyRules(String event, String causes) {
    assertThat(causes(EventStrategy.CORE, event))
        .containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split("; ")));
  }

  @Test
  void coreV1_longFields_canHaveAtMost() {
    String event = "{\"metadata\":{\"namespace\":\"ns\"},\"involvedObject\":{\"namespace\":\"ns\"},\"eventTime\":\"2024-01-01T00:00:00Z\","
        + "\"reportingComponent\":\"k\",\"reportingInstance\":\"" + "i".repeat(129) + "\",\"action\":\"a\",\"reason\":\"r\","
        + "\"message\":\"" + "m".repeat(1025) + "\"}";
    assertThat(causes(EventStrategy.CORE, event)).containsExactly(
        "reportingInstance: Invalid value: \"\": can have at most 128 characters",
        "message: Invalid value: \"\": can have at most 1024 characters");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      @                                                                 |
      @,"type":"Bogus"                                                  | type: Invalid value: "": has invalid value: Bogus
      @,"deprecatedCount":3                                             | count: Invalid value: "": needs to be unset
      @,"deprecatedSource":{"component":"c"}                            | source: Invalid value: "": needs to be unset
      @,"deprecatedFirstTimestamp":"2024-01-01T00:00:00Z"               | firstTimestamp: Invalid value: "": needs to be unset
      @,"series":{"count":1}                                            | series.count: Invalid value: "": should be at least 2; series.lastObservedTime: Required value
      """)
  void eventsV1_strictRules(String fields, String causes) {
    String event = "{\"metadata\":{\"namespace\":\"ns\"},\"regarding\":{\"namespace\":\"ns\"}," + fields.replace("@", V1_OK) + "}";
    assertThat(causes(EventStrategy.EVENTS_V1, event))
        .containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split("; ")));
  }

  @Test
  void eventsV1_withoutEventTime_isRequired() {
    assertThat(causes(EventStrategy.EVENTS_V1, "{\"metadata\":{\"namespace\":\"ns\"},\"regarding\":{\"namespace\":\"ns\"},"
        + "\"type\":\"Normal\"}")).containsExactly("eventTime: Required value");
  }

  @Test
  void eventsV1_update_onlyTheSeriesChanges() {
    String old = "{\"metadata\":{\"namespace\":\"ns\"},\"regarding\":{\"namespace\":\"ns\"}," + V1_OK + ",\"note\":\"a\"}";
    String series = old.replace("\"note\":\"a\"", "\"note\":\"a\",\"series\":{\"count\":2,\"lastObservedTime\":\"2024-01-01T00:00:01.000000Z\"}");
    assertThat(causes(EventStrategy.EVENTS_V1, series, old)).isEmpty();
    assertThat(causes(EventStrategy.EVENTS_V1, old.replace("\"note\":\"a\"", "\"note\":\"b\""), old))
        .containsExactly("message: Invalid value: \"b\": field is immutable");
    assertThat(causes(EventStrategy.CORE, "{\"metadata\":{\"namespace\":\"ns\"},\"involvedObject\":{\"namespace\":\"ns\"},\"message\":\"b\"}",
        "{\"metadata\":{\"namespace\":\"ns\"},\"involvedObject\":{\"namespace\":\"ns\"},\"message\":\"a\"}")).isEmpty();
  }

  @Test
  void endToEnd_bothApis() {
    try (InMemoryCore core = InMemoryCore.start()) {
      StatusException legacy = core.refusal("POST", "/api/v1/namespaces/default/events", Map.of(),
          "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"e\"},\"involvedObject\":{\"namespace\":\"other\"}}");
      assertThat(legacy.getMessage()).isEqualTo(
          "Event \"e\" is invalid: involvedObject.namespace: Invalid value: \"other\": does not match event.namespace");
      StatusException strict = core.refusal("POST", "/apis/events.k8s.io/v1/namespaces/default/events", Map.of(),
          "{\"apiVersion\":\"events.k8s.io/v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"e\"},\"regarding\":{\"namespace\":\"default\"},"
              + "\"eventTime\":\"2024-01-01T00:00:00.000000Z\",\"reportingController\":\"c\",\"reportingInstance\":\"i\","
              + "\"action\":\"a\",\"reason\":\"r\",\"type\":\"Info\"}");
      assertThat(strict.code()).isEqualTo(422);
      assertThat(strict.getMessage()).isEqualTo("Event.events.k8s.io \"e\" is invalid: type: Invalid value: \"\": has invalid value: Info");
    }
  }
}
