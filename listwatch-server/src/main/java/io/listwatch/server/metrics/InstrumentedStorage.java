package io.listwatch.server.metrics;

import io.listwatch.api.clock.Clock;
import io.listwatch.storage.KeyValue;
import io.listwatch.storage.RangeRequest;
import io.listwatch.storage.RangeResult;
import io.listwatch.storage.Storage;
import io.listwatch.storage.Watch;
import io.listwatch.storage.WatchListener;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * A {@link Storage} that times every call into the one it wraps:
 * {@code etcd_request_duration_seconds{operation,type}} (kube's name and buckets, whichever
 * storage is underneath), from the call until its future completes, failures included. The
 * operation is {@code get}, {@code list}, {@code create}, {@code update} or {@code delete};
 * the type is the resource the key belongs to ({@code pods}, {@code deployments.apps}), read from
 * the key's {@code /registry/<group>/<resource>/} prefix. The REST layer writes and reads
 * through it; the watch cache's own storage watch is not timed (it is not a request).
 *
 * <p>Thread-safe if the wrapped storage is.
 */
public final class InstrumentedStorage implements Storage {

  private final Clock clock;

  private final Storage storage;
  private final Histogram latency;

  InstrumentedStorage(Storage storage, PrometheusRegistry registry, Clock clock) {
    this.clock = clock;
    this.storage = storage;
    this.latency = Histogram.builder().name("etcd_request_duration_seconds")
        .help("Storage request latency in seconds for each operation and object type.")
        .labelNames("operation", "type")
        .classicOnly().classicUpperBounds(Buckets.LATENCY_SECONDS).withoutExemplars()
        .register(registry);
  }

  @Override
  public CompletableFuture<Optional<KeyValue>> get(String key, long revision) {
    return timed("get", key, () -> storage.get(key, revision));
  }

  @Override
  public CompletableFuture<RangeResult> range(RangeRequest request) {
    return timed("list", request.prefix(), () -> storage.range(request));
  }

  @Override
  public CompletableFuture<KeyValue> create(String key, byte[] value) {
    return timed("create", key, () -> storage.create(key, value));
  }

  @Override
  public CompletableFuture<KeyValue> update(String key, byte[] value, long expectedModRevision) {
    return timed("update", key, () -> storage.update(key, value, expectedModRevision));
  }

  @Override
  public CompletableFuture<KeyValue> delete(String key, long expectedModRevision) {
    return timed("delete", key, () -> storage.delete(key, expectedModRevision));
  }

  private <T> CompletableFuture<T> timed(String operation, String key, Supplier<CompletableFuture<T>> call) {
    long start = clock.nanoTime();
    CompletableFuture<T> f = call.get();
    String type = type(key);
    f.whenComplete((r, e) -> latency.labelValues(operation, type).observe((clock.nanoTime() - start) / 1e9));
    return f;
  }

  @Override
  public Watch watch(String prefix, long fromRevision, WatchListener listener) {
    return storage.watch(prefix, fromRevision, listener);
  }

  @Override
  public long currentRevision() {
    return storage.currentRevision();
  }

  @Override
  public CompletableFuture<Long> readCurrentRevision() {
    return storage.readCurrentRevision();
  }

  @Override
  public long compactedRevision() {
    return storage.compactedRevision();
  }

  @Override
  public CompletableFuture<Void> compact(long revision) {
    return storage.compact(revision);
  }

  /** Closes the wrapped storage. */
  @Override
  public void close() {
    storage.close();
  }

  /** The resource a key belongs to: {@code /registry/core/pods/ns/a} is "pods", {@code /registry/apps/deployments/..} "deployments.apps". */
  static String type(String key) {
    // /registry/<group>/<resource>/...
    int g = key.indexOf('/', 1);
    int r = g < 0 ? -1 : key.indexOf('/', g + 1);
    if (!key.startsWith("/registry/") || g < 0 || r < 0) {
      return "";
    }
    int end = key.indexOf('/', r + 1);
    String group = key.substring(g + 1, r);
    String resource = key.substring(r + 1, end < 0 ? key.length() : end);
    return group.equals("core") ? resource : resource + "." + group;
  }
}
