package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's validation of built-in kinds, through the core as a request meets it: each case is a
 * body kube 1.32 refuses, with the field path and message kube answers (the cases of kube's
 * {@code pkg/apis/*}/validation tests and of the step 9 findings), and the cause list of the 422.
 */
class BuiltinValidationTest {

  private static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":%s}";
  private static final String DEPLOYMENT = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d\"},"
      + "\"spec\":{%s\"template\":{\"metadata\":{\"labels\":{\"app\":\"d\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
      + "\"image\":\"nginx\"}]}}}}";
  private static final String SERVICE = "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"s\"},"
      + "\"spec\":{\"ports\":%s}}";

  private final InMemoryCore core = InMemoryCore.start();

  @AfterEach
  void stop() {
    core.close();
  }

  /** The 422 a create of {@code body} at {@code path} gets; fails the test if it is stored. */
  private StatusException refusal(String path, String body) {
    StatusException status = core.refusal("POST", path, Map.of(), body);
    assertThat(status.code()).isEqualTo(422);
    return status;
  }

  private static List<String> causes(StatusException e) {
    return e.status().details().causes().stream().map(c -> c.field() + ": " + c.message()).toList();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {}                                                                  | spec.containers: Required value
      {"containers":[]}                                                   | spec.containers: Required value
      {"containers":[{"image":"nginx"}]}                                  | spec.containers[0].name: Required value
      {"containers":[{"name":"c"}]}                                       | spec.containers[0].image: Required value
      {"containers":[{"name":"c","image":""}]}                            | spec.containers[0].image: Required value
      {"containers":[{"name":"c","image":"a"},{"name":"c","image":"b"}]}  | spec.containers[1].name: Duplicate value: "c"
      {"initContainers":[{"name":"c","image":"a"}],"containers":[{"name":"c","image":"b"}]} | spec.initContainers[0].name: Duplicate value: "c"
      """)
  void pod(String spec, String cause) {
    assertThat(causes(refusal("/api/v1/namespaces/default/pods", POD.formatted(spec)))).containsExactly(cause);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      Bad_Name | spec.containers[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')
      """)
  void pod_containerName(String name, String cause) {
    StatusException e = refusal("/api/v1/namespaces/default/pods",
        POD.formatted("{\"containers\":[{\"name\":\"" + name + "\",\"image\":\"\"}]}"));
    assertThat(causes(e)).containsExactly(cause, "spec.containers[0].image: Required value");
    assertThat(e.getMessage()).startsWith("Pod \"p\" is invalid: [spec.containers[0].name: Invalid value: \"Bad_Name\"");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "selector":{"matchLabels":{"app":"d"}},"replicas":-2, | spec.replicas: Invalid value: -2: must be greater than or equal to 0
      """)
  void deployment(String spec, String cause) {
    assertThat(causes(refusal("/apis/apps/v1/namespaces/default/deployments", DEPLOYMENT.formatted(spec))))
        .containsExactly(cause);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      [{"port":99999,"targetPort":80}]                     | spec.ports[0].port: Invalid value: 99999: must be between 1 and 65535, inclusive
      [{"port":0,"targetPort":80}]                         | spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive
      [{"name":"http","port":80},{"name":"http","port":81}] | spec.ports[1].name: Duplicate value: "http"
      [{"name":"http","port":80},{"port":81}]               | spec.ports[1].name: Required value
      """)
  void service(String ports, String cause) {
    assertThat(causes(refusal("/api/v1/namespaces/default/services", SERVICE.formatted(ports))))
        .containsExactly(cause);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      /api/v1/namespaces/default/pods | {"apiVersion":"v1","kind":"Pod","metadata":{"name":"Bad"},"spec":{}}
      """)
  void metadataAndSpecErrors_comeInOneAnswer(String path, String body) {
    List<Status.Cause> all = refusal(path, body).status().details().causes();
    assertThat(all).extracting(Status.Cause::field).containsExactly("metadata.name", "spec.containers");
  }
}
