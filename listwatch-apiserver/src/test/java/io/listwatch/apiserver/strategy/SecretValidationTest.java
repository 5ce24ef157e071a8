package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.StrategyCases.causes;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** kube's {@code TestValidateSecret}, {@code TestValidateSecretUpdate} and the docker config cases. */
class SecretValidationTest {

  private final SecretStrategy strategy = new SecretStrategy();

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"type":"Opaque"}                                                                                  |
      {"type":"Opaque","data":{"a%":""}}                                                                 | data[a%]: Invalid value: "a%": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')
      {"type":"Opaque","data":{"..x":""}}                                                                | data[..x]: Invalid value: "..x": must not start with '..'
      {"type":"kubernetes.io/service-account-token"}                                                     | metadata.annotations[kubernetes.io/service-account.name]: Required value
      {"type":"kubernetes.io/service-account-token","metadata":{"annotations":{"kubernetes.io/service-account.name":"sa"}}} |
      {"type":"kubernetes.io/dockercfg"}                                                                 | data[.dockercfg]: Required value
      {"type":"kubernetes.io/dockercfg","data":{".dockercfg":"e30="}}                                    |
      {"type":"kubernetes.io/dockerconfigjson"}                                                          | data[.dockerconfigjson]: Required value
      {"type":"kubernetes.io/dockerconfigjson","data":{".dockerconfigjson":"eyJhdXRocyI6e319"}}          |
      {"type":"kubernetes.io/basic-auth"}                                                                | data[username]: Required value, data[password]: Required value
      {"type":"kubernetes.io/basic-auth","data":{"username":""}}                                         |
      {"type":"kubernetes.io/basic-auth","data":{"password":"cA=="}}                                     |
      {"type":"kubernetes.io/ssh-auth"}                                                                  | data[ssh-privatekey]: Required value
      {"type":"kubernetes.io/ssh-auth","data":{"ssh-privatekey":""}}                                     | data[ssh-privatekey]: Required value
      {"type":"kubernetes.io/ssh-auth","data":{"ssh-privatekey":"aw=="}}                                 |
      {"type":"kubernetes.io/tls"}                                                                       | data[tls.crt]: Required value, data[tls.key]: Required value
      {"type":"kubernetes.io/tls","data":{"tls.crt":""}}                                                 | data[tls.key]: Required value
      {"type":"kubernetes.io/tls","data":{"tls.crt":"","tls.key":""}}                                    |
      {"type":"bootstrap.kubernetes.io/token"}                                                           |
      {"type":"example.com/custom","data":{"anything":"eA=="}}                                           |
      """)
  void create(String secret, String causes) {
    assertThat(causes(strategy, secret)).containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split(", (?=data)")));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {}                 | unexpected end of JSON input
      [1]                | json: cannot unmarshal array into Go value of type map[string]interface {}
      "s"                | json: cannot unmarshal string into Go value of type map[string]interface {}
      {"a":1}x           | invalid character 'x' after top-level value
      {"a"               | unexpected end of JSON input
      """)
  void dockerConfig_mustBeAJsonObject(String content, String error) {
    String data = content.equals("{}") ? "" : content;
    List<String> found = causes(strategy, "{\"type\":\"kubernetes.io/dockerconfigjson\",\"data\":{\".dockerconfigjson\":\""
        + b64(data) + "\"}}");
    assertThat(found).containsExactly("data[.dockerconfigjson]: Invalid value: \"<secret contents redacted>\": " + error);
  }

  @Test
  void valuesOver1MiB_areTooLong_atData() {
    String big = b64("x".repeat(1024 * 1024 + 1));
    assertThat(causes(strategy, "{\"type\":\"Opaque\",\"data\":{\"a\":\"" + big + "\"}}"))
        .containsExactly("data: Too long: may not be more than 1048576 bytes");
    assertThat(causes(strategy, "{\"type\":\"Opaque\",\"data\":{\"a\":\"" + b64("x".repeat(1024 * 1024)) + "\"}}")).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"type":"Opaque","data":{"k":"dg=="}}                  | {"type":"Opaque","data":{"k":"dw=="}}                    |
      {"type":"Opaque"}                                      | {"type":"kubernetes.io/tls","data":{"tls.crt":"","tls.key":""}} | type: Invalid value: "kubernetes.io/tls": field is immutable
      {"type":"Opaque","immutable":true,"data":{"k":"dg=="}} | {"type":"Opaque","immutable":true,"data":{"k":"dg=="}}   |
      {"type":"Opaque","immutable":true,"data":{"k":"dg=="}} | {"type":"Opaque","data":{"k":"dg=="}}                    | immutable: Forbidden: field is immutable when `immutable` is set
      {"type":"Opaque","immutable":true,"data":{"k":"dg=="}} | {"type":"Opaque","immutable":true,"data":{"k":"dw=="}}   | data: Forbidden: field is immutable when `immutable` is set
      """)
  void update(String old, String updated, String cause) {
    assertThat(causes(strategy, updated, old)).containsExactlyElementsOf(cause == null ? List.of() : List.of(cause));
  }

  @Test
  void endToEnd_stringDataCountsAsData_andATlsSecretNeedsBothKeys() {
    try (InMemoryCore core = InMemoryCore.start()) {
      StatusException e = core.refusal("POST", "/api/v1/namespaces/default/secrets", Map.of(),
          "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"t\"},\"type\":\"kubernetes.io/tls\","
              + "\"stringData\":{\"tls.crt\":\"c\"}}");
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("Secret \"t\" is invalid: data[tls.key]: Required value");
      core.send("POST", "/api/v1/namespaces/default/secrets", Map.of(),
          "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"t\"},\"type\":\"kubernetes.io/tls\","
              + "\"stringData\":{\"tls.crt\":\"c\",\"tls.key\":\"k\"}}");
      StatusException retype = core.refusal("PUT", "/api/v1/namespaces/default/secrets/t", Map.of(),
          "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"t\"},\"type\":\"Opaque\"}");
      assertThat(StrategyCases.lines(retype.status().details().causes()))
          .containsExactly("type: Invalid value: \"Opaque\": field is immutable");
    }
  }
}
