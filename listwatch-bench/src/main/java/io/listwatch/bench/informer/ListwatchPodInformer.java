package io.listwatch.bench.informer;

import io.fabric8.kubernetes.api.model.Pod;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.JacksonCodec;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.ResourceEventHandler;
import io.listwatch.client.cache.SharedIndexInformer;
import io.listwatch.client.cache.SharedInformerFactory;
import java.time.Duration;

/**
 * Our pod informer (listwatch-client) over every namespace. Two variants:
 * <ul>
 *   <li>{@code listwatch}: the way a user builds it,
 *       {@code SharedInformerFactory.builder(KubeClient.create(config)).build()},
 *       {@code informerFor(ResourceType.PODS, DynamicObject.CODEC)}, {@code start()}, with the
 *       factory's defaults (no resync; the first list asks for {@code resourceVersion=0&limit=500},
 *       which this server, like kube's watch cache, serves whole in one response);
 *   <li>{@code listwatch-typed}: the same informer holding fabric8's {@code Pod} model, read
 *       through {@link JacksonCodec} (the typed model fabric8's informer holds), so that the
 *       informer machinery is compared with the representation held the same as a peer's.
 * </ul>
 * The request timeout is raised to 5 minutes like fabric8's, so no list is cut off.
 *
 * <p>Confined to the child's main thread.
 */
final class ListwatchPodInformer extends ClientPodInformer {

  private static final String FACTORY_DEFAULTS =
      "SharedInformerFactory defaults (first list rv=0, limit=500, served whole by this server)";

  private enum Variant { FACTORY_DYNAMIC, FACTORY_FABRIC8_MODEL }

  private final Variant variant;
  private KubeClient client;

  private ListwatchPodInformer(Variant variant) {
    this.variant = variant;
  }

  /** {@code DynamicObject}s through the factory. */
  static ListwatchPodInformer dynamic() {
    return new ListwatchPodInformer(Variant.FACTORY_DYNAMIC);
  }

  /** fabric8's {@code Pod} model through {@code JacksonCodec}, through the factory. */
  static ListwatchPodInformer typed() {
    return new ListwatchPodInformer(Variant.FACTORY_FABRIC8_MODEL);
  }

  @Override
  public void connect(String url) {
    client = KubeClient.create(Config.builder(url).requestTimeout(Duration.ofMinutes(5)).build());
    closing(client::close);
  }

  @Override
  public void start() {
    SharedInformerFactory factory = SharedInformerFactory.builder(client).build();
    closing(factory::close);
    switch (variant) {
      case FACTORY_DYNAMIC -> track(factory.informerFor(ResourceType.PODS, DynamicObject.CODEC));
      case FACTORY_FABRIC8_MODEL -> track(factory.informerFor(ResourceType.PODS, JacksonCodec.of(Pod.class)));
    }
    factory.start();
  }

  private <T> void track(SharedIndexInformer<T> informer) {
    started(informer::hasSynced, () -> informer.getIndexer().listKeys().size(),
        onUpdate -> informer.addEventHandler(new ResourceEventHandler<T>() {
          @Override
          public void onUpdate(T oldObject, T newObject) {
            onUpdate.run();
          }
        }));
  }

  @Override
  public String holds() {
    return switch (variant) {
      case FACTORY_DYNAMIC -> "DynamicObject (JSON bytes + parsed metadata)";
      case FACTORY_FABRIC8_MODEL -> "fabric8 Pod (typed, via JacksonCodec)";
    };
  }

  @Override
  public String describe() {
    return "listwatch-client 0.1.0-SNAPSHOT (java.net.http; " + switch (variant) {
      case FACTORY_DYNAMIC -> "DynamicObject";
      case FACTORY_FABRIC8_MODEL -> "fabric8 Pod model via JacksonCodec";
    } + "; " + FACTORY_DEFAULTS + ", informerFor(PODS), start(); requestTimeout=300 s)";
  }
}
