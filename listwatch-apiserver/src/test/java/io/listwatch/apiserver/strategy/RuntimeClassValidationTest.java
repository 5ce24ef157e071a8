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
 * kube's validation of RuntimeClasses, from the cases of kube's {@code TestValidateRuntimeClass},
 * {@code TestValidateOverhead}, {@code TestValidateScheduling} and
 * {@code TestValidateRuntimeUpdate}, and the kind served by the core with the RuntimeClass
 * admission plug-in now live.
 */
class RuntimeClassValidationTest {

  private static final String PATH = "/apis/node.k8s.io/v1/runtimeclasses";
  private static final String POD = """
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s"},
       "spec":{"runtimeClassName":"%s","containers":[{"name":"c","image":"nginx"}]}}""";

  private static String runtimeClass(String fields) {
    return "{\"apiVersion\":\"node.k8s.io/v1\",\"kind\":\"RuntimeClass\",\"metadata\":{\"name\":\"foo\"}," + fields + "}";
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "handler":"bar"
      "handler":"bar-baz"
      "handler":"bar","overhead":{"podFixed":{"memory":"32Mi","cpu":"250m"}}
      "handler":"bar","scheduling":{"nodeSelector":{"valid":"yes"}}
      "handler":"bar","scheduling":{"tolerations":[{"key":"valid","operator":"Exists","effect":"NoSchedule"}]}
      """)
  void valid(String fields) {
    assertThat(StrategyCases.create(new RuntimeClassStrategy(), runtimeClass(fields))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "handler":""                                                                        | handler: Invalid value: "": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')
      "handler":"foo.bar"                                                                 | handler: Invalid value: "foo.bar": must not contain dots
      "handler":"bar","overhead":{"podFixed":{"cpu":"-1"}}                                | overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0
      "handler":"bar","scheduling":{"nodeSelector":{"not a valid key!!!":"nope"}}         | scheduling.nodeSelector: Invalid value: "not a valid key!!!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
      "handler":"bar","scheduling":{"tolerations":[{"key":"valid","operator":"Nope"}]}    | scheduling.tolerations[0].operator: Unsupported value: "Nope": supported values: "Equal", "Exists"
      """)
  void invalid(String fields, String error) {
    assertThat(StrategyCases.create(new RuntimeClassStrategy(), runtimeClass(fields))).containsExactly(error);
  }

  @Test
  void tableRow_nameAndHandler() {
    ObjectNode rc = InMemoryCore.json(runtimeClass("\"handler\":\"runc\""));
    assertThat(new io.listwatch.apiserver.printers.RuntimeClassTableConvertor().row(rc, java.time.Instant.EPOCH)
        .cells().subList(0, 2)).containsExactly("foo", "runc");
  }

  @Test
  void update_handlerIsImmutable() {
    String old = runtimeClass("\"handler\":\"bar\"");
    assertThat(StrategyCases.update(new RuntimeClassStrategy(), old, runtimeClass("\"handler\":\"somethingelse\"")))
        .containsExactly("handler: Invalid value: \"somethingelse\": field is immutable");
    assertThat(StrategyCases.update(new RuntimeClassStrategy(), old,
        runtimeClass("\"handler\":\"bar\",\"overhead\":{\"podFixed\":{\"cpu\":\"100m\"}}"))).isEmpty();
  }

  @Test
  void served_theDocsExample_andItsPods() {
    try (InMemoryCore core = InMemoryCore.start()) {
      // kubernetes.io's RuntimeClass page, with the overhead of its Pod Overhead page
      String example = """
          {"apiVersion":"node.k8s.io/v1","kind":"RuntimeClass","metadata":{"name":"kata-fc"},
           "handler":"kata-fc","overhead":{"podFixed":{"memory":"120Mi","cpu":"250m"}},
           "scheduling":{"nodeSelector":{"runtime":"kata"},"tolerations":[{"key":"kata","operator":"Exists","effect":"NoSchedule"}]}}""";
      assertThat(core.send("POST", PATH, Map.of(), example).code()).isEqualTo(201);
      ObjectNode got = StrategyCases.body(core.send("GET", PATH + "/kata-fc", Map.of(), null));
      assertThat(got.path("handler").asText()).isEqualTo("kata-fc");
      core.send("GET", PATH, Map.of(), null);

      got.put("handler", "runc");
      StatusException e = core.refusal("PUT", PATH + "/kata-fc", Map.of(), got.toString());
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("RuntimeClass.node.k8s.io \"kata-fc\" is invalid: handler: "
          + "Invalid value: \"runc\": field is immutable");

      assertThat(core.send("POST", "/api/v1/namespaces/default/pods", Map.of(), POD.formatted("p", "kata-fc")).code())
          .isEqualTo(201);
      ObjectNode pod = StrategyCases.body(core.send("GET", "/api/v1/namespaces/default/pods/p", Map.of(), null));
      assertThat(pod.at("/spec/overhead/memory").asText()).isEqualTo("120Mi");
      assertThat(pod.at("/spec/overhead/cpu").asText()).isEqualTo("250m");
      assertThat(pod.at("/spec/nodeSelector/runtime").asText()).isEqualTo("kata");
      assertThat(pod.at("/spec/tolerations").findValuesAsText("key")).contains("kata");

      StatusException missing = core.refusal("POST", "/api/v1/namespaces/default/pods", Map.of(), POD.formatted("q", "ghost"));
      assertThat(missing.code()).isEqualTo(403);
      assertThat(missing.status().message()).isEqualTo("pods \"q\" is forbidden: pod rejected: RuntimeClass \"ghost\" not found");
    }
  }
}
