package io.listwatch.client.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.ListOptions;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ObjectList;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.WatchEvent;
import io.listwatch.client.WatchStream;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The client library with the kubeconfig the server wrote, as a user points it at
 * {@code <data-dir>/kubeconfig.yaml}: HTTPS verified by the server's CA, the admin's client
 * certificate as credentials.
 */
@ExtendWith(ApiServerExtension.class)
@ApiServerExtension.Tls
@Timeout(120)
class TlsKubeconfigTest {

  @Test
  void kubeClient_fromGeneratedKubeconfig_listsAndWatchesOverTls(ApiServer server) throws Exception {
    Config config = Config.fromKubeconfig(server.kubeconfig(), null);
    assertThat(config.server().toString()).isEqualTo(server.url()).startsWith("https://");
    assertThat(config.clientCertPem()).isPresent();
    try (KubeClient client = KubeClient.create(config)) {
      ResourceClient<DynamicObject> namespaces = client.dynamic(ResourceType.NAMESPACES);
      assertThat(namespaces.list(null, ListOptions.builder().build()).items())
          .extracting(DynamicObject::name).contains("default", "kube-system");

      namespaces.create(Pods.namespace("tls-client"));
      ResourceClient<DynamicObject> pods = client.dynamic(ResourceType.PODS);
      ObjectList<DynamicObject> initial = pods.list("tls-client", ListOptions.builder().build());
      try (WatchStream<DynamicObject> watch = pods.watch("tls-client",
          ListOptions.builder().watch(true).resourceVersion(initial.resourceVersion()).build())) {
        pods.create(Pods.pod("tls-client", "over-tls"));
        Optional<WatchEvent<DynamicObject>> event = CompletableFuture.supplyAsync(() -> {
          try {
            return watch.next();
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }).get(60, TimeUnit.SECONDS);
        assertThat(event).hasValueSatisfying(e -> {
          assertThat(e.type()).isEqualTo(WatchEvent.Type.ADDED);
          assertThat(e.object().name()).isEqualTo("over-tls");
        });
      }
    }
  }
}
