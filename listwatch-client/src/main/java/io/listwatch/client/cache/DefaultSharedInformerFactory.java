package io.listwatch.client.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.ListOptions;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ObjectCodec;
import io.listwatch.client.ResourceType;
import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

/**
 * The {@link SharedInformerFactory}: a map from (resource, object type) to informer, and
 * which of them were started.
 *
 * <p>Thread-safe: the maps and {@link #closed} are guarded by {@link #lock}, which is never
 * held while waiting for informers (closing or syncing).
 */
final class DefaultSharedInformerFactory implements SharedInformerFactory {

  /** Identifies an informer of a factory: a resource and the Java type of its objects. */
  record InformerKey(ResourceType type, Class<?> objectType) {
    InformerKey {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(objectType, "objectType");
    }
  }

  private final KubeClient client;
  private final String namespace;
  private final UnaryOperator<ListOptions> tweakListOptions;
  private final Duration defaultResync;
  private final Map<ResourceType, Duration> resync;
  private final Map<InformerKey, UnaryOperator<?>> transforms;
  private final Clock clock;
  private final boolean useWatchList;
  private final Duration bookmarkInterval;
  private final Duration minWatchTimeout;

  private final ReentrantLock lock = new ReentrantLock();
  /** Every informer created, in order. */
  @GuardedBy("lock")
  private final Map<InformerKey, DefaultSharedIndexInformer<?>> informers = new LinkedHashMap<>();
  /** Keys of the informers started. */
  @GuardedBy("lock")
  private final Set<InformerKey> started = new HashSet<>();
  @GuardedBy("lock")
  private boolean closed;

  DefaultSharedInformerFactory(SharedInformerFactory.Builder config) {
    this.client = config.client;
    this.namespace = config.namespace;
    this.tweakListOptions = config.tweakListOptions;
    this.defaultResync = config.defaultResync;
    this.resync = Map.copyOf(config.resync);
    this.transforms = Map.copyOf(config.transforms);
    this.clock = config.clock;
    this.useWatchList = config.useWatchList;
    this.bookmarkInterval = config.bookmarkInterval;
    this.minWatchTimeout = config.minWatchTimeout;
  }

  @Override
  public <T> SharedIndexInformer<T> informerFor(ResourceType type, ObjectCodec<T> codec) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(codec, "codec");
    InformerKey key = new InformerKey(type, codec.type());
    lock.lock();
    try {
      if (closed) {
        throw new IllegalStateException("SharedInformerFactory is closed; no informer for "
            + type);
      }
      @SuppressWarnings("unchecked") // the key holds codec.type(): same T
      DefaultSharedIndexInformer<T> informer =
          (DefaultSharedIndexInformer<T>) informers.computeIfAbsent(key, k -> create(type, codec));
      return informer;
    } finally {
      lock.unlock();
    }
  }

  private <T> DefaultSharedIndexInformer<T> create(ResourceType type, ObjectCodec<T> codec) {
    ListWatch<T> listWatch = ListWatch.of(client.resource(type, codec),
        type.namespaced() ? namespace : "", tweakListOptions);
    SharedIndexInformer.Builder<T> builder = SharedIndexInformer.builder(listWatch, codec)
        .name(type.toString())
        .resyncPeriod(resync.getOrDefault(type, defaultResync))
        .clock(clock)
        .useWatchList(useWatchList)
        .bookmarkInterval(bookmarkInterval)
        .minWatchTimeout(minWatchTimeout);
    @SuppressWarnings("unchecked") // registered by Builder.transform for this very class
    UnaryOperator<T> transform =
        (UnaryOperator<T>) transforms.get(new InformerKey(type, codec.type()));
    if (transform != null) {
      builder.transform(transform);
    }
    return (DefaultSharedIndexInformer<T>) builder.build();
  }

  @Override
  public void start() {
    lock.lock();
    try {
      if (closed) {
        throw new IllegalStateException("SharedInformerFactory is closed");
      }
      for (Map.Entry<InformerKey, DefaultSharedIndexInformer<?>> e : informers.entrySet()) {
        if (started.add(e.getKey())) {
          e.getValue().start();
        }
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean waitForCacheSync(Duration timeout) throws InterruptedException {
    Objects.requireNonNull(timeout, "timeout");
    List<CompletableFuture<Void>> syncs = new ArrayList<>();
    lock.lock();
    try {
      for (InformerKey key : started) {
        syncs.add(informers.get(key).whenSynced());
      }
    } finally {
      lock.unlock();
    }
    CompletableFuture<Boolean> result = new CompletableFuture<>();
    CompletableFuture.allOf(syncs.toArray(CompletableFuture[]::new))
        .whenComplete((ok, error) -> result.complete(error == null));
    Clock.Cancellable timer = clock.schedule(timeout, () -> result.complete(false));
    try {
      return result.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot happen: completed only normally", e);
    } finally {
      timer.cancel();
    }
  }

  @Override
  public void close() {
    List<DefaultSharedIndexInformer<?>> all;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      all = new ArrayList<>(informers.values());
    } finally {
      lock.unlock();
    }
    // In parallel: each close waits (bounded) for its informer's threads.
    List<Thread> closers = new ArrayList<>();
    for (DefaultSharedIndexInformer<?> informer : all) {
      closers.add(Thread.ofVirtual().name("informer-factory-close")
          .start(informer::close));
    }
    boolean interrupted = false;
    for (Thread closer : closers) {
      while (true) {
        try {
          closer.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
