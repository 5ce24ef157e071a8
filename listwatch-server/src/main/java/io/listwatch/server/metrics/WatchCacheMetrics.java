package io.listwatch.server.metrics;

import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.cacher.CacherStats;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleBinaryOperator;
import java.util.function.ToDoubleFunction;

/**
 * The watch cache's metrics, per resource ({@code group}, {@code resource} labels), read from
 * each {@link Cacher#stats()} when scraped: the fan-out path itself only adds to a counter once
 * per batch of events. A resource served in several versions (HorizontalPodAutoscalers, a custom
 * resource's versions) has a cacher per version over one storage: its series is one, the
 * watchers and what they were sent summed over the versions, the storage-side values (the
 * same in each) taken once (the highest).
 *
 * <ul>
 *   <li>{@code apiserver_registered_watchers}: watchers open now;</li>
 *   <li>{@code apiserver_watch_events_total}: events queued to watchers (one per watcher per event);</li>
 *   <li>{@code apiserver_terminated_watchers_total}: watchers closed because they could not keep up;</li>
 *   <li>{@code apiserver_watch_cache_events_received_total}: events received from storage;</li>
 *   <li>{@code apiserver_watch_cache_capacity}: the most events of history kept;</li>
 *   <li>{@code apiserver_watch_cache_history_events}: events of history kept now;</li>
 *   <li>{@code apiserver_storage_objects}: objects in the cache (the current state);</li>
 *   <li>{@code apiserver_watch_cache_resource_version}: the newest resourceVersion the cache has;</li>
 *   <li>{@code apiserver_watch_cache_oldest_resource_version}: the oldest resourceVersion a watch
 *       can resume from (older gets 410 Expired);</li>
 *   <li>{@code apiserver_storage_decode_errors_total}: stored objects that could not be read (kube's
 *       metric, labelled as kube's by {@code resource} alone: {@code configmaps}, {@code deployments.apps}).</li>
 * </ul>
 *
 * <p>Thread-safe; holds no state of its own.
 */
final class WatchCacheMetrics {

  private WatchCacheMetrics() {
  }

  static void register(PrometheusRegistry registry, Collection<Cacher> cachers) {
    gauge(registry, cachers, "apiserver_registered_watchers", "Number of currently registered watchers per resource.",
        CacherStats::watchers, Double::sum);
    counter(registry, cachers, "apiserver_watch_events_total",
        "Number of events sent in watch clients (one per watcher per event).", CacherStats::eventsDispatched, Double::sum);
    counter(registry, cachers, "apiserver_terminated_watchers_total",
        "Counter of watchers closed due to unresponsiveness.", CacherStats::terminatedWatchers, Double::sum);
    counter(registry, cachers, "apiserver_watch_cache_events_received_total",
        "Counter of events received in watch cache.", CacherStats::eventsReceived, Math::max);
    gauge(registry, cachers, "apiserver_watch_cache_capacity", "Total capacity of the watch cache's event history.",
        CacherStats::historyCapacity, Math::max);
    gauge(registry, cachers, "apiserver_watch_cache_history_events",
        "Events kept in the watch cache's history for resuming watches.", CacherStats::historyEvents, Math::max);
    gauge(registry, cachers, "apiserver_storage_objects", "Number of stored objects per resource.",
        CacherStats::objects, Math::max);
    gauge(registry, cachers, "apiserver_watch_cache_resource_version", "Current resource version of the watch cache.",
        CacherStats::resourceVersion, Math::max);
    gauge(registry, cachers, "apiserver_watch_cache_oldest_resource_version",
        "The oldest resource version a watch can resume from without 410 Expired.", CacherStats::oldestResumable, Math::max);
    CounterWithCallback.builder().name("apiserver_storage_decode_errors_total")
        .help("Number of stored object decode errors split by object type").labelNames("resource")
        .callback(cb -> perResource(cachers, CacherStats::unreadableObjects, Math::max).forEach((r, v) ->
            cb.call(v, r.get(0).isEmpty() ? r.get(1) : r.get(1) + "." + r.get(0))))
        .register(registry);
  }

  private static void gauge(PrometheusRegistry registry, Collection<Cacher> cachers, String name, String help,
      ToDoubleFunction<CacherStats> value, DoubleBinaryOperator combine) {
    GaugeWithCallback.builder().name(name).help(help).labelNames("group", "resource")
        .callback(cb -> perResource(cachers, value, combine).forEach((r, v) -> cb.call(v, r.get(0), r.get(1))))
        .register(registry);
  }

  private static void counter(PrometheusRegistry registry, Collection<Cacher> cachers, String name, String help,
      ToDoubleFunction<CacherStats> value, DoubleBinaryOperator combine) {
    CounterWithCallback.builder().name(name).help(help).labelNames("group", "resource")
        .callback(cb -> perResource(cachers, value, combine).forEach((r, v) -> cb.call(v, r.get(0), r.get(1))))
        .register(registry);
  }

  /** {@code value} of each resource ({@code [group, plural]}), its versions' cachers combined. */
  private static Map<List<String>, Double> perResource(Collection<Cacher> cachers, ToDoubleFunction<CacherStats> value,
      DoubleBinaryOperator combine) {
    Map<List<String>, Double> values = new LinkedHashMap<>();
    for (Cacher c : cachers) {
      values.merge(List.of(c.resource().group(), c.resource().plural()), value.applyAsDouble(c.stats()),
          combine::applyAsDouble);
    }
    return values;
  }
}
