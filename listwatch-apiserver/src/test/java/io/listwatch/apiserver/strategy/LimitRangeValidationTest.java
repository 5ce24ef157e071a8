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

/** kube's {@code TestValidateLimitRange} cases. */
class LimitRangeValidationTest {

  private final LimitRangeStrategy strategy = new LimitRangeStrategy();

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"type":"Container","max":{"cpu":"100m","memory":"10Mi"},"min":{"cpu":"10m"},"default":{"cpu":"50m"},"defaultRequest":{"cpu":"20m"},"maxLimitRequestRatio":{"cpu":"5"}} |
      {"type":"Pod","max":{"cpu":"1"},"min":{"cpu":"100m"}}                                 |
      {"type":"PersistentVolumeClaim","min":{"storage":"1Gi"},"max":{"storage":"10Gi"}}     |
      {"type":"example.com/thing","max":{"example.com/widgets":"3"}}                        |
      {"type":"Foo"}                                                        | spec.limits[0].type: Invalid value: "Foo": must be a standard limit type or fully qualified
      {"type":"Pod","default":{"cpu":"1"}}                                  | spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'
      {"type":"Pod","defaultRequest":{"cpu":"1"}}                           | spec.limits[0].defaultRequest: Forbidden: may not be specified when `type` is 'Pod'
      {"type":"PersistentVolumeClaim","max":{"cpu":"1"}}                    | spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided
      {"type":"Container","max":{"storage":"1Gi"}}                          | spec.limits[0].max[storage]: Invalid value: "storage": must be a standard resource for containers
      {"type":"Container","max":{"foo":"1"}}                                | spec.limits[0].max[foo]: Invalid value: "foo": must be a standard resource type or fully qualified; spec.limits[0].max[foo]: Invalid value: "foo": must be a standard resource for containers
      {"type":"Container","max":{"cpu":"10"},"min":{"cpu":"100"}}           | spec.limits[0].min[cpu]: Invalid value: "100": min value 100 is greater than max value 10
      {"type":"Container","min":{"cpu":"2"},"defaultRequest":{"cpu":"1"}}   | spec.limits[0].defaultRequest[cpu]: Invalid value: "1": min value 2 is greater than default request value 1
      {"type":"Container","max":{"cpu":"1"},"defaultRequest":{"cpu":"2"}}   | spec.limits[0].defaultRequest[cpu]: Invalid value: "2": default request value 2 is greater than max value 1
      {"type":"Container","default":{"cpu":"1"},"defaultRequest":{"cpu":"2"}} | spec.limits[0].defaultRequest[cpu]: Invalid value: "2": default request value 2 is greater than default limit value 1
      {"type":"Container","min":{"cpu":"2"},"default":{"cpu":"1"}}          | spec.limits[0].default[cpu]: Invalid value: "2": min value 2 is greater than default value 1
      {"type":"Container","max":{"cpu":"1"},"default":{"cpu":"2"}}          | spec.limits[0].default[cpu]: Invalid value: "1": default value 2 is greater than max value 1
      {"type":"Container","maxLimitRequestRatio":{"cpu":"800m"}}            | spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "800m": ratio 800m is less than 1
      {"type":"Container","min":{"memory":"1Mi"},"max":{"memory":"2Mi"},"maxLimitRequestRatio":{"memory":"3"}} | spec.limits[0].maxLimitRequestRatio[memory]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000
      {"type":"Container","default":{"hugepages-2Mi":"4Mi","cpu":"1"},"defaultRequest":{"hugepages-2Mi":"2Mi","cpu":"1"}} | spec.limits[0].defaultRequest[hugepages-2Mi]: Invalid value: "2Mi": default value 4Mi must equal to defaultRequest value 2Mi in hugepages-2Mi
      """)
  void limit(String limit, String causes) {
    assertThat(causes(strategy, "{\"spec\":{\"limits\":[" + limit + "]}}"))
        .containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split("; ")));
  }

  @Test
  void aTypeTwice_isADuplicate() {
    assertThat(causes(strategy, "{\"spec\":{\"limits\":[{\"type\":\"Container\"},{\"type\":\"Container\"}]}}"))
        .containsExactly("spec.limits[1].type: Duplicate value: \"Container\"");
  }

  @Test
  void endToEnd_minAboveMax_is422() {
    try (InMemoryCore core = InMemoryCore.start()) {
      StatusException e = core.refusal("POST", "/api/v1/namespaces/default/limitranges", Map.of(),
          "{\"apiVersion\":\"v1\",\"kind\":\"LimitRange\",\"metadata\":{\"name\":\"l\"},\"spec\":{\"limits\":[{\"type\":\"Container\","
              + "\"max\":{\"memory\":\"1Gi\"},\"min\":{\"memory\":\"2Gi\"}}]}}");
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("LimitRange \"l\" is invalid: spec.limits[0].min[memory]: Invalid value: \"2Gi\": "
          + "min value 2Gi is greater than max value 1Gi");
    }
  }
}
