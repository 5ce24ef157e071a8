package io.listwatch.client.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WebhookManifestsTest {

  private static final URI BASE = URI.create("https://127.0.0.1:9443");

  @Test
  void everyWebhook_callsTheLocalServer_atItsOwnPath_trustingItsCa() {
    List<ObjectNode> objects = WebhookManifests.read(List.of(Path.of("src/test/resources/webhooks/manifests.yaml")),
        BASE, "Q0E=");

    assertThat(objects).extracting(o -> o.path("kind").asText())
        .containsExactly("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration");
    assertThat(objects.get(0).path("webhooks").get(0).path("clientConfig").toString())
        .isEqualTo("{\"url\":\"https://127.0.0.1:9443/mutate-pods\",\"caBundle\":\"Q0E=\"}");
    assertThat(objects.get(1).path("webhooks").get(0).path("clientConfig").path("url").asText())
        .isEqualTo("https://127.0.0.1:9443/validate-pods");
    // nothing else changes
    assertThat(objects.get(1).path("webhooks").get(0).path("failurePolicy").asText()).isEqualTo("Fail");
  }

  @Test
  void aConversionWebhook_isPointedThereToo_andOtherKindsAreRefused(@TempDir Path dir) throws Exception {
    Path crd = dir.resolve("crd.yaml");
    Files.writeString(crd, """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: widgets.example.com}
        spec:
          conversion:
            strategy: Webhook
            webhook:
              conversionReviewVersions: [v1]
              clientConfig: {url: "https://webhook.example.com/convert"}
        """);
    assertThat(WebhookManifests.read(List.of(dir), BASE, "Q0E=").getFirst()
        .path("spec").path("conversion").path("webhook").path("clientConfig").path("url").asText())
        .isEqualTo("https://127.0.0.1:9443/convert");

    Files.writeString(dir.resolve("pod.yaml"), "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n");
    assertThatThrownBy(() -> WebhookManifests.read(List.of(dir), BASE, "Q0E="))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Pod p is not a webhook configuration or a CustomResourceDefinition");
  }
}
