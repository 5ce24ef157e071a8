package io.listwatch.bench.informer;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * fabric8's pod informer: {@code client.pods().inAnyNamespace().runnableInformer(0).start()}
 * with the default HTTP client (Vert.x). Watches are plain HTTP ({@code onlyHttpWatches}), the
 * transport the other informers under test use, so that the comparison is between informers
 * rather than transports. The request timeout is raised to 5 minutes so that a list of
 * 100,000 pods is not cut off. No kubeconfig or environment is read.
 *
 * <p>Confined to the child's main thread.
 */
final class Fabric8PodInformer extends ClientPodInformer {

  private KubernetesClient client;

  @Override
  public void connect(String url) {
    Config config = new ConfigBuilder(Config.empty())
        .withMasterUrl(url)
        .withRequestTimeout(300_000)
        .withConnectionTimeout(10_000)
        .withOnlyHttpWatches(true)
        .build();
    client = new KubernetesClientBuilder().withConfig(config).build();
    closing(client::close);
  }

  @Override
  public void start() {
    SharedIndexInformer<Pod> informer = client.pods().inAnyNamespace().runnableInformer(0);
    closing(informer::close);
    informer.start();
    started(informer::hasSynced, () -> informer.getIndexer().listKeys().size(),
        onUpdate -> informer.addEventHandler(new ResourceEventHandler<>() {
          @Override
          public void onAdd(Pod pod) {
          }

          @Override
          public void onUpdate(Pod oldPod, Pod newPod) {
            onUpdate.run();
          }

          @Override
          public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
          }
        }));
  }

  @Override
  public String holds() {
    return "fabric8 Pod (typed)";
  }

  @Override
  public String describe() {
    return "fabric8 kubernetes-client " + mavenVersion("io.fabric8", "kubernetes-client")
        + " (HTTP client: Vert.x; Pod model; pods().inAnyNamespace().runnableInformer(0).start(); "
        + "onlyHttpWatches=true, requestTimeout=300 s)";
  }
}
