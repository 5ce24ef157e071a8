package io.listwatch.client.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceType;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.EndToEnd;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The extension's server and its three ready clients (fabric8's and the official one: end to end): each sees what the others wrote. */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
class ApiServerExtensionTest {

  @Test
  void theThreeClients_talkToTheOneServer(ApiServer server, KubeClient ours, KubernetesClient fabric8,
      ApiClient official) throws Exception {
    assertThat(server.url()).startsWith("http://127.0.0.1:");

    ours.dynamic(ResourceType.CONFIGMAPS).create(DynamicObject.parse(
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"from-ours\",\"namespace\":\"default\"}}"));
    fabric8.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("from-fabric8").endMetadata()
        .withData(Map.of("k", "v")).build()).create();

    assertThat(new CoreV1Api(official).listNamespacedConfigMap("default").execute().getItems())
        .extracting(cm -> cm.getMetadata().getName()).contains("from-ours", "from-fabric8");
    assertThat(fabric8.configMaps().withName("from-ours").get()).isNotNull();
    assertThat(ours.dynamic(ResourceType.CONFIGMAPS).get("default", "from-fabric8").orElseThrow()
        .get("data", "k").orElseThrow().asText()).isEqualTo("v");
  }

  @Test
  void everyTestOfTheClass_getsTheSameServerAndClients(ApiServer server, KubeClient ours) {
    assertThat(ours.dynamic(ResourceType.NAMESPACES).get("", "default")).isPresent();
    assertThat(server.url()).startsWith("http://127.0.0.1:");
  }
}
