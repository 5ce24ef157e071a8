package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.EndToEnd;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * fabric8's client over HTTPS as a user sets it up: from the kubeconfig the server wrote, whose
 * client key it must be able to read (an EC key, written as SEC1 as kube's tools write it).
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
@ApiServerExtension.Tls
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class Fabric8TlsTest {

  @Test
  void clientFromTheGeneratedKubeconfig_isTheAdmin_andWrites(ApiServer server) throws Exception {
    Config config = Config.fromKubeconfig(Files.readString(server.kubeconfig()));
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("f8-tls").endMetadata()
          .build()).create();

      assertThat(client.namespaces().withName("f8-tls").get().getMetadata().getUid()).isNotBlank();
      assertThat(client.namespaces().list().getItems()).extracting(n -> n.getMetadata().getName())
          .contains("default", "f8-tls");
    }
  }
}
