package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.webhook.HostPortConversionWebhook;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * kubectl (1.32, from PATH) with a CustomResourceDefinition whose versions a conversion webhook
 * converts: an object created in v1 reads in v2 ({@code kubectl get gateways.v2.<group>}) and
 * a change made through v2 reads back in v1.
 */
@EndToEnd
class KubectlCrdConversionTest extends KubectlAgainstServer {

  private final HostPortConversionWebhook hook = new HostPortConversionWebhook();

  @AfterEach
  void stopWebhook() {
    hook.close();
  }

  @Test
  void anObjectCreatedInV1_readsAndPatchesThroughV2() {
    String group = "kubectl-conv.example.com";
    kubectl.ok("apply", "-f", kubectl.file("crd.json", hook.definition(group)).toString());
    Await.until("gateways served", SERVER_WORK,
        () -> kubectl.run("get", "gateways.v2." + group).exitCode() == 0);
    Path gateway = kubectl.file("gateway.yaml", """
        apiVersion: %s/v1
        kind: Gateway
        metadata: {name: front}
        spec: {hostPort: "localhost:8080"}
        """.formatted(group));
    kubectl.ok("create", "-f", gateway.toString());

    assertThat(kubectl.ok("get", "gateways.v2." + group, "front", "-o",
        "jsonpath={.apiVersion} {.spec.host} {.spec.port}").stdout())
        .isEqualTo(group + "/v2 localhost 8080");
    assertThat(kubectl.ok("get", "gateways.v2." + group).names()).containsExactly("front");

    kubectl.ok("patch", "gateways.v2." + group, "front", "--type=merge", "-p", "{\"spec\":{\"port\":\"9090\"}}");
    assertThat(kubectl.ok("get", "gateways.v1." + group, "front", "-o", "jsonpath={.spec.hostPort}").stdout())
        .isEqualTo("localhost:9090");
  }
}
