package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * kubectl (1.32, from PATH) with validation on, as a user types it: {@code create}, {@code apply}
 * and {@code replace -f} validate through the server's OpenAPI v3 and {@code fieldValidation},
 * and {@code explain} reads the schemas.
 */
@ExtendWith(ApiServerExtension.class)
class KubectlOpenApiTest {

  @TempDir
  static Path workDir;

  private static Kubectl kubectl;
  private static RawApi api;

  @BeforeAll
  static void setUp(ApiServer server) {
    assertThat(Kubectl.binary()).as("kubectl must be on PATH: these tests drive the real client").isPresent();
    kubectl = Kubectl.forServer(server.url(), workDir);
    api = new RawApi(server.url());
  }

  @AfterAll
  static void tearDown() {
    if (api != null) {
      api.close();
    }
  }

  private static String configMap(String name, String extra) {
    return """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: %s
        data:
          color: blue
        %s""".formatted(name, extra);
  }

  private static String deployment(String name, String image, String containerExtra) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: %s
        spec:
          replicas: 1
          selector:
            matchLabels: {app: %s}
          template:
            metadata:
              labels: {app: %s}
            spec:
              containers:
              - name: main
                image: %s
                ports:
                - containerPort: 80
        %s""".formatted(name, name, name, image, containerExtra);
  }

  @Test
  void explain_podsSpecContainers_listsTheContainerFields() {
    Kubectl.Result r = kubectl.ok("explain", "pods.spec.containers");

    assertThat(r.stdout()).contains("KIND:       Pod").contains("FIELD: containers <[]Container>");
    assertThat(r.stdout()).containsPattern("(?m)^  image\\s+<string>");
    assertThat(r.stdout()).containsPattern("(?m)^  name\\s+<string>");
    assertThat(r.stdout()).containsPattern("(?m)^  ports\\s+<\\[\\]ContainerPort>");
  }

  @Test
  void explain_deploymentsSpec_listsTheSpecFields() {
    Kubectl.Result r = kubectl.ok("explain", "deployments.spec");

    assertThat(r.stdout()).contains("GROUP:      apps").contains("KIND:       Deployment");
    assertThat(r.stdout()).containsPattern("(?m)^  replicas\\s+<integer>");
    assertThat(r.stdout()).containsPattern("(?m)^  template\\s+<PodTemplateSpec>");
    assertThat(r.stdout()).containsPattern("(?m)^  strategy\\s+<DeploymentStrategy>");
  }
}
