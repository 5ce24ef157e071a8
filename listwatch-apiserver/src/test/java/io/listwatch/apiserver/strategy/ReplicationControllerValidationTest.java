package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.printers.ReplicaSetTableConvertor;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's validation of ReplicationControllers, from the cases of kube's
 * {@code TestValidateReplicationController} and {@code TestValidateReplicationControllerUpdate},
 * its defaults ({@code TestSetDefaultReplicationController*}), and the kind served by the core
 * with its {@code /status} and {@code /scale}.
 */
class ReplicationControllerValidationTest {

  private static final String PATH = "/api/v1/namespaces/default/replicationcontrollers";
  private static final String TEMPLATE = "{\"metadata\":{\"labels\":{\"a\":\"b\"}},"
      + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}";

  private static String rc(String spec) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ReplicationController\",\"metadata\":{\"name\":\"abc\"},\"spec\":{" + spec + "}}";
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "selector":{"a":"b"},"template":TEMPLATE
      "template":TEMPLATE
      "replicas":0,"selector":{"a":"b"},"template":TEMPLATE
      "replicas":3,"template":TEMPLATE
      """)
  void valid(String spec) {
    assertThat(StrategyCases.create(new ReplicationControllerStrategy(), rc(spec.replace("TEMPLATE", TEMPLATE)))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "selector":{"a":"b"}                                                                    | spec.template: Required value
      "selector":{"a":"c"},"template":TEMPLATE                                                | spec.template.metadata.labels: Invalid value: map[string]string{"a":"b"}: `selector` does not match template `labels`
      "replicas":-1,"selector":{"a":"b"},"template":TEMPLATE                                  | spec.replicas: Invalid value: -1: must be greater than or equal to 0
      "minReadySeconds":-1,"selector":{"a":"b"},"template":TEMPLATE                           | spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0
      "selector":{"a":"b"},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"restartPolicy":"OnFailure","containers":[{"name":"c","image":"nginx"}]}} | spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"
      "selector":{"a":"b"},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"activeDeadlineSeconds":5,"containers":[{"name":"c","image":"nginx"}]}}  | spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported
      "replicas":2,"selector":{"a":"b"},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"volumes":[{"name":"gcepd","gcePersistentDisk":{"pdName":"my-PD","fsType":"ext4","partition":1}}],"containers":[{"name":"c","image":"nginx"}]}} | spec.template.spec.volumes[0].gcePersistentDisk.readOnly: Invalid value: false: must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only
      """)
  void invalid(String spec, String error) {
    assertThat(StrategyCases.create(new ReplicationControllerStrategy(), rc(spec.replace("TEMPLATE", TEMPLATE))))
        .containsExactly(error);
  }

  @Test
  void noSelectorAndNoTemplateLabels_isRequired() {
    assertThat(StrategyCases.create(new ReplicationControllerStrategy(),
        rc("\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}")))
        .containsExactly("spec.selector: Required value");
  }

  @Test
  void defaults_selectorLabelsAndReplicasFromTheTemplate() {
    ObjectNode obj = InMemoryCore.json(rc("\"template\":" + TEMPLATE));
    new ReplicationControllerStrategy().defaults(obj);
    assertThat(obj.at("/spec/selector")).isEqualTo(InMemoryCore.json("{\"a\":\"b\"}"));
    assertThat(obj.at("/metadata/labels")).isEqualTo(InMemoryCore.json("{\"a\":\"b\"}"));
    assertThat(obj.at("/spec/replicas").asInt()).isEqualTo(1);
    assertThat(obj.at("/spec/template/spec/restartPolicy").asText()).isEqualTo("Always");

    ObjectNode own = InMemoryCore.json("{\"metadata\":{\"name\":\"abc\",\"labels\":{\"x\":\"y\"}},"
        + "\"spec\":{\"replicas\":0,\"selector\":{\"a\":\"b\"},\"template\":" + TEMPLATE + "}}");
    new ReplicationControllerStrategy().defaults(own);
    assertThat(own.at("/metadata/labels")).isEqualTo(InMemoryCore.json("{\"x\":\"y\"}"));
    assertThat(own.at("/spec/replicas").asInt()).isZero();
  }

  @Test
  void tableRow_desiredCurrentReadyAndWideColumns() {
    ObjectNode obj = InMemoryCore.json(rc("\"replicas\":3,\"selector\":{\"a\":\"b\"},\"template\":" + TEMPLATE));
    obj.putObject("status").put("replicas", 2).put("readyReplicas", 1);
    assertThat(ReplicaSetTableConvertor.forReplicationControllers().row(obj, Instant.EPOCH).cells().subList(1, 4))
        .containsExactly(3L, 2L, 1L);
    assertThat(ReplicaSetTableConvertor.forReplicationControllers().row(obj, Instant.EPOCH).cells().subList(5, 8))
        .containsExactly("c", "nginx", "a=b");
  }

  @Test
  void served_theDocsExample_statusAndScale() {
    try (InMemoryCore core = InMemoryCore.start()) {
      // kubernetes.io's ReplicationController page example
      String example = """
          {"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"nginx"},
           "spec":{"replicas":3,"selector":{"app":"nginx"},
                   "template":{"metadata":{"name":"nginx","labels":{"app":"nginx"}},
                               "spec":{"containers":[{"name":"nginx","image":"nginx","ports":[{"containerPort":80}]}]}}}}""";
      assertThat(core.send("POST", PATH, Map.of(), example).code()).isEqualTo(201);
      ObjectNode got = StrategyCases.body(core.send("GET", PATH + "/nginx", Map.of(), null));
      assertThat(got.at("/metadata/generation").asLong()).isEqualTo(1);
      assertThat(got.at("/metadata/labels/app").asText()).isEqualTo("nginx");

      ObjectNode scale = StrategyCases.body(core.send("GET", PATH + "/nginx/scale", Map.of(), null));
      assertThat(scale.at("/spec/replicas").asInt()).isEqualTo(3);
      assertThat(scale.at("/status/selector").asText()).isEqualTo("app=nginx");
      scale.with("spec").put("replicas", 5);
      assertThat(core.send("PUT", PATH + "/nginx/scale", Map.of(), scale.toString()).code()).isEqualTo(200);
      ObjectNode scaled = StrategyCases.body(core.send("GET", PATH + "/nginx", Map.of(), null));
      assertThat(scaled.at("/spec/replicas").asInt()).isEqualTo(5);
      assertThat(scaled.at("/metadata/generation").asLong()).isEqualTo(2);

      scaled.putObject("status").put("replicas", 5).put("readyReplicas", 4);
      assertThat(core.send("PUT", PATH + "/nginx/status", Map.of(), scaled.toString()).code()).isEqualTo(200);
      ObjectNode withStatus = StrategyCases.body(core.send("GET", PATH + "/nginx", Map.of(), null));
      assertThat(withStatus.at("/status/readyReplicas").asInt()).isEqualTo(4);
      assertThat(withStatus.at("/metadata/generation").asLong()).isEqualTo(2);

      withStatus.with("spec").with("template").with("metadata").putObject("labels").put("app", "other");
      StatusException e = core.refusal("PUT", PATH + "/nginx", Map.of(), withStatus.toString());
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("ReplicationController \"nginx\" is invalid: spec.template.metadata.labels: "
          + "Invalid value: map[string]string{\"app\":\"other\"}: `selector` does not match template `labels`");
    }
  }
}
