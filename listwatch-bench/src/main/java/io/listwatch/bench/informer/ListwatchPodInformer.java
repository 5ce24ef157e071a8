package io.listwatch.bench.informer;

/**
 * Our pod informer (listwatch-client). PLACEHOLDER until the client library's REST client and
 * informer land on this branch: both variants throw, so their runs are reported as failed.
 *
 * <p>Confined to the child's main thread.
 */
final class ListwatchPodInformer implements PodInformerUnderTest {

  private final String variant;

  private ListwatchPodInformer(String variant) {
    this.variant = variant;
  }

  /** With {@code DynamicObject}s. */
  static ListwatchPodInformer dynamic() {
    return new ListwatchPodInformer("DynamicObject");
  }

  /** With fabric8's {@code Pod} model through {@code JacksonCodec}. */
  static ListwatchPodInformer fabric8Model() {
    return new ListwatchPodInformer("fabric8 Pod model");
  }

  @Override
  public void connect(String url) {
    throw new UnsupportedOperationException("listwatch-client's informer is not on this branch yet (" + variant + ")");
  }

  @Override
  public void start() {
    throw new UnsupportedOperationException();
  }

  @Override
  public boolean hasSynced() {
    return false;
  }

  @Override
  public int cachedPods() {
    return 0;
  }

  @Override
  public String describe() {
    return "listwatch-client (" + variant + ")";
  }

  @Override
  public void close() {
  }
}
