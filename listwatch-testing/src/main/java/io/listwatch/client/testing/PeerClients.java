package io.listwatch.client.testing;

/**
 * The other Java clients, made for {@link ApiServerExtension}: this class is loaded only when a
 * test asks for one of them, so their libraries are needed only then. Stateless.
 */
final class PeerClients {

  private PeerClients() {
  }

  /** fabric8's client for a plain-HTTP server, reading no kubeconfig, service account or environment. */
  static io.fabric8.kubernetes.client.KubernetesClient fabric8(String url) {
    io.fabric8.kubernetes.client.Config config =
        new io.fabric8.kubernetes.client.ConfigBuilder(io.fabric8.kubernetes.client.Config.empty())
            .withMasterUrl(url)
            .withNamespace("default")
            .build();
    return new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(config).build();
  }

  /** The official client for a plain-HTTP server, reading no kubeconfig. */
  static io.kubernetes.client.openapi.ApiClient official(String url) {
    return new io.kubernetes.client.openapi.ApiClient().setBasePath(url);
  }
}
