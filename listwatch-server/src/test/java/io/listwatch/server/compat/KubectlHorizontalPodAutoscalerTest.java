package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * kubectl 1.32 on HorizontalPodAutoscalers, as kubernetes.io's HPA walkthrough drives them:
 * {@code kubectl autoscale} (an autoscaling/v1 object), {@code kubectl apply} of the walkthrough's
 * autoscaling/v2 manifest with every metric type and a behavior, {@code kubectl get hpa} with
 * kube's columns, a v1 client's view ({@code horizontalpodautoscalers.v1.autoscaling}), and {@code api-resources}
 * listing the kind once, in its preferred version.
 */
@EndToEnd
class KubectlHorizontalPodAutoscalerTest extends KubectlAgainstServer {

  private static final String NS = "hpa-walkthrough";

  /** The walkthrough's "autoscaling on multiple metrics" HPA, with the concept page's behavior example. */
  private static final String WALKTHROUGH = """
      apiVersion: autoscaling/v2
      kind: HorizontalPodAutoscaler
      metadata:
        name: php-apache-v2
      spec:
        scaleTargetRef:
          apiVersion: apps/v1
          kind: Deployment
          name: php-apache
        minReplicas: 1
        maxReplicas: 10
        metrics:
        - type: Resource
          resource:
            name: cpu
            target:
              type: Utilization
              averageUtilization: 50
        - type: Pods
          pods:
            metric:
              name: packets-per-second
            target:
              type: AverageValue
              averageValue: 1k
        - type: Object
          object:
            metric:
              name: requests-per-second
            describedObject:
              apiVersion: networking.k8s.io/v1
              kind: Ingress
              name: main-route
            target:
              type: Value
              value: 10k
        - type: External
          external:
            metric:
              name: queue_messages_ready
              selector:
                matchLabels:
                  queue: "worker_tasks"
            target:
              type: AverageValue
              averageValue: 30
        behavior:
          scaleDown:
            policies:
            - type: Pods
              value: 4
              periodSeconds: 60
            - type: Percent
              value: 10
              periodSeconds: 60
      """;

  @BeforeAll
  static void deployment() {
    api.createNamespace(NS);
    kubectl.ok("create", "deployment", "php-apache", "--image=registry.k8s.io/hpa-example", "-n", NS);
  }

  private static List<String> cells(Kubectl.Result r, String prefix) {
    return r.lines().stream().filter(l -> l.startsWith(prefix)).findFirst()
        .map(l -> Arrays.asList(l.trim().split("\\s{2,}")))
        .orElseThrow(() -> new AssertionError("no line starting with " + prefix + " in\n" + r));
  }

  @Test
  void autoscale_thenGetHpa_inBothVersions() {
    assertThat(kubectl.ok("autoscale", "deployment", "php-apache", "--cpu-percent=50", "--min=1", "--max=10", "-n", NS)
        .lines()).containsExactly("horizontalpodautoscaler.autoscaling/php-apache autoscaled");

    Kubectl.Result get = kubectl.ok("get", "hpa", "php-apache", "-n", NS);
    assertThat(Arrays.asList(get.lines().getFirst().split("\\s{2,}")))
        .containsExactly("NAME", "REFERENCE", "TARGETS", "MINPODS", "MAXPODS", "REPLICAS", "AGE");
    assertThat(cells(get, "php-apache")).startsWith("php-apache", "Deployment/php-apache", "cpu: <unknown>/50%", "1", "10", "0");

    assertThat(kubectl.ok("get", "hpa.v2.autoscaling", "php-apache", "-n", NS, "-o",
        "jsonpath={.apiVersion} {.spec.metrics[0].resource.target.averageUtilization}").stdout())
        .isEqualTo("autoscaling/v2 50");
    // kubectl's short-name expansion drops the version (hpa.v1.autoscaling asks for v2): a v1 client names the resource
    assertThat(kubectl.ok("get", "horizontalpodautoscalers.v1.autoscaling", "php-apache", "-n", NS, "-o",
        "jsonpath={.apiVersion} {.spec.targetCPUUtilizationPercentage}").stdout())
        .isEqualTo("autoscaling/v1 50");
  }

  @Test
  void apply_theWalkthroughsV2Manifest_andReadItAsV1() {
    assertThat(kubectl.ok("apply", "-n", NS, "-f", kubectl.file("hpa-v2.yaml", WALKTHROUGH).toString()).lines())
        .containsExactly("horizontalpodautoscaler.autoscaling/php-apache-v2 created");
    Kubectl.Result get = kubectl.ok("get", "hpa", "php-apache-v2", "-n", NS);
    assertThat(cells(get, "php-apache-v2"))
        .startsWith("php-apache-v2", "Deployment/php-apache", "cpu: <unknown>/50%, <unknown>/1k + 2 more...", "1", "10");
    assertThat(kubectl.ok("get", "horizontalpodautoscalers.v1.autoscaling", "php-apache-v2", "-n", NS, "-o",
        "jsonpath={.metadata.annotations.autoscaling\\.alpha\\.kubernetes\\.io/metrics}").stdout())
        .contains("\"metricName\":\"packets-per-second\"", "\"metricName\":\"queue_messages_ready\"");
    assertThat(kubectl.ok("apply", "-n", NS, "-f",
        kubectl.file("hpa-v2b.yaml", WALKTHROUGH.replace("maxReplicas: 10", "maxReplicas: 12")).toString()).lines())
        .containsExactly("horizontalpodautoscaler.autoscaling/php-apache-v2 configured");
    Kubectl.Result refused = kubectl.run("apply", "-n", NS, "-f",
        kubectl.file("hpa-v2c.yaml", WALKTHROUGH.replace("maxReplicas: 10", "maxReplicas: 0")).toString());
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.stderr()).contains("spec.maxReplicas: Invalid value: 0: must be greater than 0");
  }

  @Test
  void apiResources_listsHorizontalPodAutoscalersOnce_inAutoscalingV2() {
    List<String> lines = kubectl.ok("api-resources", "-o", "wide").lines().stream()
        .filter(l -> l.startsWith("horizontalpodautoscalers")).toList();
    assertThat(lines).hasSize(1);
    assertThat(lines.getFirst().split("\\s+")).startsWith("horizontalpodautoscalers", "hpa", "autoscaling/v2", "true",
        "HorizontalPodAutoscaler").endsWith("all");
  }
}
