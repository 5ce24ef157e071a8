package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.request.ApiResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** kube's warnings about pods and pod templates that pass validation (kube's warnings_test.go cases). */
class PodWarningsTest {

  private final InMemoryCore core = InMemoryCore.start();

  @AfterEach
  void stop() {
    core.close();
  }

  private static List<String> warnings(String pod, String prefix) {
    List<String> out = new ArrayList<>();
    PodWarnings.of(InMemoryCore.json(pod), prefix, out::add);
    return out;
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "nodeSelector":{"beta.kubernetes.io/arch":"amd64"} | spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead
      "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"failure-domain.beta.kubernetes.io/zone","operator":"Exists"}]}]}}} | spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead
      "topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"DoNotSchedule"}] | spec.topologySpreadConstraints[0].labelSelector: a null labelSelector results in matching no pod
      "volumes":[{"name":"v","gitRepo":{"repository":"r"}}] | spec.volumes[0].gitRepo: deprecated in v1.11
      "hostAliases":[{"ip":"1.1.1.1"},{"ip":"1.1.1.1"}] | spec.hostAliases[1].ip: duplicate ip "1.1.1.1"
      "imagePullSecrets":[{"name":"a"},{"name":"a"}] | spec.imagePullSecrets[1].name: duplicate name "a"
      "imagePullSecrets":[{"name":""}] | spec.imagePullSecrets[0].name: invalid empty name ""
      "overhead":{"memory":"1.5"} | spec.overhead[memory]: fractional byte value "1500m" is invalid, must be an integer
      "containers":[{"name":"c","image":"i","resources":{"limits":{"memory":"1m"}}}] | spec.containers[0].resources.limits[memory]: fractional byte value "1m" is invalid, must be an integer
      "containers":[{"name":"c","image":"i","env":[{"name":"a","value":"1"},{"name":"a","value":"2"}]}] | spec.containers[0].env[1]: hides previous definition of "a", which may be dropped when using apply
      "containers":[{"name":"a","image":"i","ports":[{"containerPort":80,"protocol":"TCP"}]},{"name":"b","image":"i","ports":[{"containerPort":80,"protocol":"TCP"}]}] | spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]
      "containers":[{"name":"a","image":"i","ports":[{"containerPort":80,"protocol":"TCP"}]},{"name":"b","image":"i","ports":[{"containerPort":80,"protocol":"TCP","hostPort":80}]}] | spec.containers[1].ports[0]: overlapping port definition with spec.containers[0].ports[0]
      """)
  void aLikelyMistake_isWarnedAbout_atKubesPath(String spec, String warning) {
    assertThat(warnings("{\"spec\":{" + spec + "}}", "")).containsExactly(warning);
    assertThat(warnings("{\"spec\":{" + spec + "}}", "spec.template."))
        .containsExactly("spec.template." + warning.replace(" with spec.", " with spec.template.spec."));
  }

  @Test
  void anEnvVarThatBuildsOnTheOneItHides_isNotWarnedAbout() {
    assertThat(warnings("{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\",\"env\":[{\"name\":\"P\",\"value\":\"/a\"},"
        + "{\"name\":\"P\",\"value\":\"$(P):/b\"}]}]}}", "")).isEmpty();
  }

  @Test
  void theClientGetsTheWarnings_asWarningHeaders_forPodsAndDeployments() {
    ApiResponse pod = core.send("POST", "/api/v1/namespaces/default/pods", Map.of(), """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web.1"},"spec":{"nodeSelector":{"beta.kubernetes.io/os":"linux"},
         "containers":[{"name":"c","image":"nginx"}]}}""");
    assertThat(pod.code()).isEqualTo(201);
    assertThat(pod.headers().get("Warning")).containsExactly(
        ApiResponse.warningHeader("metadata.name: this is used in the Pod's hostname, which can result in surprising "
            + "behavior; a DNS label is recommended: [must not contain dots]"),
        ApiResponse.warningHeader("spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "
            + "\"kubernetes.io/os\" instead"));

    ApiResponse deployment = core.send("POST", "/apis/apps/v1/namespaces/default/deployments", Map.of(), """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"app":"d"}},
         "template":{"metadata":{"labels":{"app":"d"}},"spec":{"volumes":[{"name":"v","gitRepo":{"repository":"r"}}],
         "containers":[{"name":"c","image":"nginx","volumeMounts":[{"name":"v","mountPath":"/v"}]}]}}}}""");
    assertThat(deployment.code()).isEqualTo(201);
    assertThat(deployment.headers().get("Warning"))
        .containsExactly(ApiResponse.warningHeader("spec.template.spec.volumes[0].gitRepo: deprecated in v1.11"));
  }
}
