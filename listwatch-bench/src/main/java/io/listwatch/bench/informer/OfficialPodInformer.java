package io.listwatch.bench.informer;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import java.util.concurrent.TimeUnit;

/**
 * The official Java client's pod informer ({@code io.kubernetes:client-java}):
 * {@code SharedInformerFactory.sharedIndexInformerFor} with a call generator on
 * {@code CoreV1Api.listPodForAllNamespaces}, started by {@code startAllRegisteredInformers()}.
 * The {@code ApiClient} is built directly on the server's URL (no kubeconfig), with OkHttp's
 * read timeout off so the watch is not cut off between events.
 *
 * <p>Confined to the child's main thread.
 */
final class OfficialPodInformer extends ClientPodInformer {

  private ApiClient client;

  @Override
  public void connect(String url) {
    client = new ApiClient().setBasePath(url);
    client.setHttpClient(client.getHttpClient().newBuilder().readTimeout(0, TimeUnit.SECONDS).build());
  }

  @Override
  public void start() {
    CoreV1Api api = new CoreV1Api(client);
    SharedInformerFactory factory = new SharedInformerFactory(client);
    closing(() -> factory.stopAllRegisteredInformers(true));
    SharedIndexInformer<V1Pod> informer = factory.sharedIndexInformerFor(
        params -> api.listPodForAllNamespaces()
            .resourceVersion(params.resourceVersion)
            .timeoutSeconds(params.timeoutSeconds)
            .watch(params.watch)
            .buildCall(null),
        V1Pod.class, V1PodList.class, 0);
    factory.startAllRegisteredInformers();
    started(informer::hasSynced, () -> informer.getIndexer().listKeys().size(),
        onUpdate -> informer.addEventHandler(new ResourceEventHandler<>() {
          @Override
          public void onAdd(V1Pod pod) {
          }

          @Override
          public void onUpdate(V1Pod oldPod, V1Pod newPod) {
            onUpdate.run();
          }

          @Override
          public void onDelete(V1Pod pod, boolean deletedFinalStateUnknown) {
          }
        }));
  }

  @Override
  public String holds() {
    return "V1Pod (typed)";
  }

  @Override
  public String describe() {
    return "official client-java " + mavenVersion("io.kubernetes", "client-java")
        + " (OkHttp; V1Pod model; SharedInformerFactory.sharedIndexInformerFor(listPodForAllNamespaces "
        + "call generator, resync 0); read timeout off)";
  }
}
