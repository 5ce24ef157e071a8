package io.listwatch.nodeagent;

import io.listwatch.api.FieldSelector;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.cache.KeyFunc;
import io.listwatch.client.cache.ListWatch;
import io.listwatch.client.cache.Reflector;
import io.listwatch.client.cache.UndeltaStore;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The kubelet's API server pod source: a {@link Reflector} lists and watches the pods with
 * {@code fieldSelector=spec.nodeName=<node>} into an {@link UndeltaStore}, which hands the
 * complete set over after every change; each becomes a {@link PodOperation#SET} of
 * {@link PodSources#API}.
 *
 * <p>Thread-safe: {@link #start} once, {@link #close} from any thread (idempotent). The
 * reflector runs on its own thread, named {@code ApiserverSource[<node>]}.
 */
public final class ApiserverSource implements AutoCloseable {

  private final Reflector<DynamicObject> reflector;
  private final Thread thread;

  /**
   * @param pods the pods client
   * @param nodeName the node whose pods to watch
   * @param channel where the SETs go (a {@link PodConfig#channel})
   */
  public ApiserverSource(ResourceClient<DynamicObject> pods, String nodeName, Consumer<PodUpdate> channel) {
    Objects.requireNonNull(channel, "channel");
    FieldSelector bound = FieldSelector.parse("spec.nodeName=" + nodeName);
    ListWatch<DynamicObject> lw = ListWatch.of(pods, "", o -> o.toBuilder().fieldSelector(bound).build());
    UndeltaStore<DynamicObject> store = new UndeltaStore<>(KeyFunc.metaNamespace(pods.codec()),
        all -> channel.accept(new PodUpdate(all, PodOperation.SET, PodSources.API)));
    this.reflector = Reflector.builder("pods of node " + nodeName, lw, store, pods.codec()).build();
    this.thread = Thread.ofPlatform().daemon().name("ApiserverSource[" + nodeName + "]").unstarted(reflector::run);
  }

  /** Starts listing and watching. */
  public void start() {
    thread.start();
  }

  @Override
  public void close() {
    reflector.close();
  }
}
