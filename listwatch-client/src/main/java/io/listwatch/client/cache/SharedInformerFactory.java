package io.listwatch.client.cache;

import io.listwatch.api.ListOptions;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ObjectCodec;
import io.listwatch.client.ResourceType;
import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Hands out one {@link SharedIndexInformer} per resource, so that every controller of a
 * process shares one cache and one watch per resource (client-go's
 * {@code SharedInformerFactory}).
 *
 * <p>Typical use: build the factory, ask for the informers you need and add handlers, then
 * {@link #start()} and {@link #waitForCacheSync}; {@link #close()} at the end.
 * <pre>{@code
 * try (SharedInformerFactory factory = SharedInformerFactory.builder(client)
 *     .namespace("default").defaultResync(Duration.ofMinutes(10)).build()) {
 *   SharedIndexInformer<Pod> pods = factory.informerFor(ResourceType.PODS, podCodec);
 *   pods.addEventHandler(handler);
 *   factory.start();
 *   factory.waitForCacheSync(Duration.ofMinutes(1));
 *   ...
 * }
 * }</pre>
 *
 * <p>Every informer lists and watches the factory's namespace (all namespaces when none is
 * set; cluster-scoped resources always whole) with the factory's {@code tweakListOptions}, is
 * named after its resource ({@code pods}, {@code deployments.apps}) and has the namespace
 * index. Thread-safe.
 */
public interface SharedInformerFactory extends AutoCloseable {

  /** A builder of a factory whose informers use {@code client} (the caller closes it). */
  static Builder builder(KubeClient client) {
    return new Builder(client);
  }

  /**
   * The informer of {@code type} for objects read with {@code codec}: created the first time,
   * the same one after, for the same resource and {@code codec.type()} (the first codec
   * given for that pair is the one used). An informer created after {@link #start()} starts
   * with the next {@code start()}, as in client-go.
   *
   * @throws IllegalStateException if the factory was closed
   */
  <T> SharedIndexInformer<T> informerFor(ResourceType type, ObjectCodec<T> codec);

  /**
   * Starts every informer not started yet and returns. Idempotent.
   *
   * @throws IllegalStateException if the factory was closed
   */
  void start();

  /**
   * Waits until every started informer has synced, at most {@code timeout} of the factory's
   * clock. Returns whether they all did; false also when one is closed meanwhile.
   */
  boolean waitForCacheSync(Duration timeout) throws InterruptedException;

  /**
   * Closes every informer this factory created, which stops and joins their threads
   * (bounded per informer). Later calls to {@link #informerFor} and {@link #start()} fail.
   * Idempotent. Does not close the client.
   */
  @Override
  void close();

  /**
   * Configures a {@link SharedInformerFactory}. Defaults: every namespace, requests as the
   * reflector builds them, no resync, no transform, the system clock, paged lists. Not
   * thread-safe; use from one thread.
   */
  final class Builder {
    final KubeClient client;
    String namespace = "";
    UnaryOperator<ListOptions> tweakListOptions = UnaryOperator.identity();
    Duration defaultResync = Duration.ZERO;
    final Map<ResourceType, Duration> resync = new HashMap<>();
    final Map<DefaultSharedInformerFactory.InformerKey, UnaryOperator<?>> transforms = new HashMap<>();
    Clock clock = Clock.system();
    boolean useWatchList;
    Duration bookmarkInterval = Duration.ofMinutes(1);
    Duration minWatchTimeout = Duration.ofMinutes(5);

    private Builder(KubeClient client) {
      this.client = Objects.requireNonNull(client, "client");
    }

    /** Only this namespace, for namespaced resources ({@code ""}: all, the default). */
    public Builder namespace(String namespace) {
      this.namespace = Objects.requireNonNull(namespace, "namespace");
      return this;
    }

    /**
     * Changes every list and watch request of every informer, typically to add a label or
     * field selector (see {@link ListWatch}).
     */
    public Builder tweakListOptions(UnaryOperator<ListOptions> tweak) {
      this.tweakListOptions = Objects.requireNonNull(tweak, "tweak");
      return this;
    }

    /** The resync period of informers without their own {@link #resync}. Default none. */
    public Builder defaultResync(Duration period) {
      this.defaultResync = requireResync(period);
      return this;
    }

    /** The resync period of the informer of {@code type}. */
    public Builder resync(ResourceType type, Duration period) {
      resync.put(Objects.requireNonNull(type, "type"), requireResync(period));
      return this;
    }

    /**
     * A transform for the informer of {@code type} with objects of {@code objectType} (see
     * {@link SharedIndexInformer.Builder#transform}).
     */
    public <T> Builder transform(ResourceType type, Class<T> objectType,
        UnaryOperator<T> transform) {
      transforms.put(new DefaultSharedInformerFactory.InformerKey(type, objectType),
          Objects.requireNonNull(transform, "transform"));
      return this;
    }

    /** The clock of every informer, and of {@link #waitForCacheSync} timeouts. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** List with watch-lists ({@code sendInitialEvents}), falling back to paged lists. */
    public Builder useWatchList(boolean useWatchList) {
      this.useWatchList = useWatchList;
      return this;
    }

    /** See {@link SharedIndexInformer.Builder#bookmarkInterval}. Default 1 minute. */
    public Builder bookmarkInterval(Duration interval) {
      Objects.requireNonNull(interval, "interval");
      if (interval.isNegative()) {
        throw new IllegalArgumentException("bookmark interval must not be negative: " + interval);
      }
      this.bookmarkInterval = interval;
      return this;
    }

    /** See {@link SharedIndexInformer.Builder#minWatchTimeout}. Default 5 minutes. */
    public Builder minWatchTimeout(Duration min) {
      this.minWatchTimeout = Objects.requireNonNull(min, "min");
      return this;
    }

    public SharedInformerFactory build() {
      return new DefaultSharedInformerFactory(this);
    }

    private static Duration requireResync(Duration period) {
      Objects.requireNonNull(period, "period");
      if (period.isNegative()) {
        throw new IllegalArgumentException("resync period must not be negative: " + period);
      }
      return period;
    }
  }
}
