package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.StrategyCases.causes;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** kube's {@code TestValidateConfigMap} and {@code TestValidateConfigMapUpdate} cases. */
class ConfigMapValidationTest {

  private static final String KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' "
      + "(e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

  private final ConfigMapStrategy strategy = new ConfigMapStrategy();

  @ParameterizedTest
  @ValueSource(strings = {"key", "key.with.dots", "-key", "_key", "KEY_NAME", ".dotfile", "a..b"})
  void validKeys(String key) {
    assertThat(causes(strategy, "{\"data\":{\"" + key + "\":\"v\"},\"binaryData\":{\"b" + key + "\":\"AA==\"}}")).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      key%  | data[key%]: Invalid value: "key%": #KEY
      a b   | data[a b]: Invalid value: "a b": #KEY
      .     | data[.]: Invalid value: ".": must not be '.'
      ..    | data[..]: Invalid value: "..": must not be '..'
      ..bad | data[..bad]: Invalid value: "..bad": must not start with '..'
      """)
  void invalidKeys(String key, String cause) {
    assertThat(causes(strategy, "{\"data\":{\"" + key + "\":\"v\"}}")).containsExactly(cause.replace("#KEY", KEY_MSG));
  }

  @Test
  void keyLongerThan253_isRefused() {
    String key = "a".repeat(254);
    assertThat(causes(strategy, "{\"binaryData\":{\"" + key + "\":\"\"}}"))
        .containsExactly("binaryData[" + key + "]: Invalid value: \"" + key + "\": must be no more than 253 characters");
  }

  @Test
  void keyInDataAndBinaryData_isADuplicate() {
    assertThat(causes(strategy, "{\"data\":{\"k\":\"v\"},\"binaryData\":{\"k\":\"dg==\"}}"))
        .containsExactly("data[k]: Invalid value: \"k\": duplicate of key present in binaryData");
  }

  @Test
  void valuesOver1MiB_together_areTooLong_atTheWholeObject() {
    String half = "x".repeat(512 * 1024);
    assertThat(causes(strategy, "{\"data\":{\"a\":\"" + half + "\",\"b\":\"" + half + "\"}}")).isEmpty();
    assertThat(causes(strategy, "{\"data\":{\"a\":\"" + half + "\",\"b\":\"" + half + "\"},\"binaryData\":{\"c\":\"AA==\"}}"))
        .containsExactly(": Too long: may not be more than 1048576 bytes");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"data":{"k":"v"}}                                  | {"data":{"k":"v"}}                                   |
      {"data":{"k":"v"}}                                  | {"data":{"k":"w"}}                                   |
      {"data":{"k":"v"}}                                  | {"immutable":true,"data":{"k":"v"}}                  |
      {"immutable":true,"data":{"k":"v"}}                 | {"immutable":true,"data":{"k":"v"}}                  |
      {"immutable":true,"data":{"k":"v"}}                 | {"immutable":false,"data":{"k":"v"}}                 | immutable: Forbidden: field is immutable when `immutable` is set
      {"immutable":true,"data":{"k":"v"}}                 | {"data":{"k":"v"}}                                   | immutable: Forbidden: field is immutable when `immutable` is set
      {"immutable":true,"data":{"k":"v"}}                 | {"immutable":true,"data":{"k":"w"}}                  | data: Forbidden: field is immutable when `immutable` is set
      {"immutable":true,"binaryData":{"k":"dg=="}}        | {"immutable":true}                                   | binaryData: Forbidden: field is immutable when `immutable` is set
      """)
  void update_immutable(String old, String updated, String cause) {
    assertThat(causes(strategy, updated, old)).containsExactlyElementsOf(cause == null ? java.util.List.of() : java.util.List.of(cause));
  }

  @Test
  void endToEnd_createAndUpdate_answer422WithKubesCauses() {
    try (InMemoryCore core = InMemoryCore.start()) {
      StatusException e = core.refusal("POST", "/api/v1/namespaces/default/configmaps", Map.of(),
          "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\"},\"data\":{\"a%\":\"v\"}}");
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("ConfigMap \"x\" is invalid: data[a%]: Invalid value: \"a%\": " + KEY_MSG);

      core.send("POST", "/api/v1/namespaces/default/configmaps", Map.of(),
          "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"frozen\"},\"immutable\":true,\"data\":{\"a\":\"v\"}}");
      StatusException frozen = core.refusal("PUT", "/api/v1/namespaces/default/configmaps/frozen", Map.of(),
          "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"frozen\"},\"immutable\":true,\"data\":{\"a\":\"w\"}}");
      assertThat(frozen.code()).isEqualTo(422);
      assertThat(StrategyCases.lines(frozen.status().details().causes()))
          .containsExactly("data: Forbidden: field is immutable when `immutable` is set");
    }
  }
}
