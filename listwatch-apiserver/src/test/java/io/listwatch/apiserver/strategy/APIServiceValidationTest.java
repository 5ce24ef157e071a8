package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.printers.APIServiceTableConvertor;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube-aggregator's validation and strategy of APIServices ({@code ValidateAPIService},
 * {@code ValidateAPIServiceStatus}, the REST strategy and its table), and the local APIServices
 * the core registers for its own group-versions at start.
 */
class APIServiceValidationTest {

  private static final String PATH = "/apis/apiregistration.k8s.io/v1/apiservices";
  private static final String CA = java.util.Base64.getEncoder().encodeToString("0123456789".getBytes());

  private static String apiService(String name, String spec) {
    return "{\"apiVersion\":\"apiregistration.k8s.io/v1\",\"kind\":\"APIService\",\"metadata\":{\"name\":\"" + name
        + "\"},\"spec\":{" + spec + "}}";
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      v1beta1.metrics.k8s.io | "group":"metrics.k8s.io","version":"v1beta1","groupPriorityMinimum":100,"versionPriority":100,"service":{"namespace":"kube-system","name":"metrics-server"},"caBundle":"MDEy"
      v1beta1.metrics.k8s.io | "group":"metrics.k8s.io","version":"v1beta1","groupPriorityMinimum":20000,"versionPriority":1000,"service":{"namespace":"ns","name":"s"},"insecureSkipTLSVerify":true
      v1.apps                | "group":"apps","version":"v1","groupPriorityMinimum":17800,"versionPriority":15
      v1.                    | "version":"v1","groupPriorityMinimum":18000,"versionPriority":1
      """)
  void valid(String name, String spec) {
    assertThat(StrategyCases.create(new APIServiceStrategy(), apiService(name, spec))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      v1.foo.example.io     | "group":"bar.example.io","version":"v1","groupPriorityMinimum":1,"versionPriority":1                                       | metadata.name: Invalid value: "v1.foo.example.io": must be `spec.version+"."+spec.group`: "v1.bar.example.io"
      v2.                   | "version":"v2","groupPriorityMinimum":1,"versionPriority":1                                                                 | spec.group: Required value: only v1 may have an empty group and it better be legacy kube
      v1.Bad_Group          | "group":"Bad_Group","version":"v1","groupPriorityMinimum":1,"versionPriority":1                                            | spec.group: Invalid value: "Bad_Group": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
      1v.example.io         | "group":"example.io","version":"1v","groupPriorityMinimum":1,"versionPriority":1                                           | spec.version: Invalid value: "1v": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')
      v1.example.io         | "group":"example.io","version":"v1","groupPriorityMinimum":0,"versionPriority":1                                           | spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000
      v1.example.io         | "group":"example.io","version":"v1","groupPriorityMinimum":20001,"versionPriority":1                                       | spec.groupPriorityMinimum: Invalid value: 20001: must be positive and less than 20000
      v1.example.io         | "group":"example.io","version":"v1","groupPriorityMinimum":1,"versionPriority":0                                           | spec.versionPriority: Invalid value: 0: must be positive and less than 1000
      v1.example.io         | "group":"example.io","version":"v1","groupPriorityMinimum":1,"versionPriority":1001                                        | spec.versionPriority: Invalid value: 1001: must be positive and less than 1000
      v1.example.io         | "group":"example.io","version":"v1","groupPriorityMinimum":1,"versionPriority":1,"caBundle":"MDEyMzQ1Njc4OQ=="             | spec.caBundle: Invalid value: "10 bytes": local APIServices may not have a caBundle
      v1.example.io         | "group":"example.io","version":"v1","groupPriorityMinimum":1,"versionPriority":1,"insecureSkipTLSVerify":true             | spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify
      v1.example.io         | "group":"example.io","version":"v1","groupPriorityMinimum":1,"versionPriority":1,"service":{"name":"s"}                   | spec.service.namespace: Required value
      v1.example.io         | "group":"example.io","version":"v1","groupPriorityMinimum":1,"versionPriority":1,"service":{"namespace":"ns"}             | spec.service.name: Required value
      v1.example.io         | "group":"example.io","version":"v1","groupPriorityMinimum":1,"versionPriority":1,"service":{"namespace":"ns","name":"s"},"insecureSkipTLSVerify":true,"caBundle":"MDEy" | spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present
      """)
  void invalid(String name, String spec, String error) {
    assertThat(StrategyCases.create(new APIServiceStrategy(), apiService(name, spec))).containsExactly(error);
  }

  @Test
  void defaults_aServicesPortIs443() {
    ObjectNode obj = InMemoryCore.json(apiService("v1.example.io", "\"service\":{\"namespace\":\"ns\",\"name\":\"s\"}"));
    new APIServiceStrategy().defaults(obj);
    assertThat(obj.at("/spec/service/port").asInt()).isEqualTo(443);
  }

  @Test
  void table_serviceAndAvailability() {
    APIServiceTableConvertor table = new APIServiceTableConvertor();
    ObjectNode local = InMemoryCore.json(apiService("v1.apps", "\"group\":\"apps\",\"version\":\"v1\""));
    assertThat(table.row(local, Instant.EPOCH).cells().subList(0, 3)).containsExactly("v1.apps", "Local", "Unknown");
    ObjectNode remote = InMemoryCore.json(apiService("v1beta1.metrics.k8s.io",
        "\"service\":{\"namespace\":\"kube-system\",\"name\":\"metrics-server\"}"));
    remote.putObject("status").putArray("conditions").addObject().put("type", "Available").put("status", "False")
        .put("reason", "MissingEndpoints");
    assertThat(table.row(remote, Instant.EPOCH).cells().subList(0, 3))
        .containsExactly("v1beta1.metrics.k8s.io", "kube-system/metrics-server", "False (MissingEndpoints)");
  }

  @Test
  void served_localOnesAtStart_statusSetOnCreateAndKeptOnUpdate_statusValidated() {
    try (InMemoryCore core = InMemoryCore.start()) {
      ObjectNode apps = StrategyCases.body(core.send("GET", PATH + "/v1.apps", Map.of(), null));
      assertThat(apps.at("/spec/groupPriorityMinimum").asInt()).isEqualTo(17800);
      assertThat(apps.at("/metadata/labels/kube-aggregator.kubernetes.io~1automanaged").asText()).isEqualTo("onstart");
      assertThat(apps.at("/status/conditions/0/reason").asText()).isEqualTo("Local");
      assertThat(core.send("GET", PATH + "/v1.", Map.of(), null).code()).isEqualTo(200);

      String created = apiService("v1.kitchen.example.io",
          "\"group\":\"kitchen.example.io\",\"version\":\"v1\",\"groupPriorityMinimum\":1,\"versionPriority\":1");
      ObjectNode withStatus = InMemoryCore.json(created);
      withStatus.putObject("status").putArray("conditions").addObject().put("type", "Available").put("status", "False");
      assertThat(core.send("POST", PATH, Map.of(), withStatus.toString()).code()).isEqualTo(201);
      ObjectNode stored = StrategyCases.body(core.send("GET", PATH + "/v1.kitchen.example.io", Map.of(), null));
      assertThat(stored.at("/status/conditions/0/status").asText()).isEqualTo("True");
      assertThat(stored.at("/status/conditions/0/message").asText()).isEqualTo("Local APIServices are always available");

      stored.with("status").withArray("conditions").removeAll().addObject().put("type", "Available").put("status", "Maybe");
      StatusException bad = core.refusal("PUT", PATH + "/v1.kitchen.example.io/status", Map.of(), stored.toString());
      assertThat(bad.code()).isEqualTo(422);
      assertThat(bad.getMessage()).contains("status.conditions[0].status: Unsupported value: \"Maybe\": supported values: "
          + "\"True\", \"False\", \"Unknown\"");

      StatusException misnamed = core.refusal("POST", PATH, Map.of(), apiService("v1.other.example.io",
          "\"group\":\"kitchen.example.io\",\"version\":\"v1\",\"groupPriorityMinimum\":1,\"versionPriority\":1"));
      assertThat(misnamed.getMessage()).isEqualTo("APIService.apiregistration.k8s.io \"v1.other.example.io\" is invalid: "
          + "metadata.name: Invalid value: \"v1.other.example.io\": must be `spec.version+\".\"+spec.group`: "
          + "\"v1.kitchen.example.io\"");
    }
  }
}
