/**
 * The server's metrics, under kube-apiserver's names, served at {@code /metrics} in the
 * Prometheus text format through the Prometheus Java client.
 *
 * <ul>
 *   <li>{@link io.listwatch.server.metrics.ServerMetrics}: one per server; owns the registry,
 *       writes the exposition, registers the callback metrics below.</li>
 *   <li>{@link io.listwatch.server.metrics.RequestMetrics}: {@code apiserver_request_total} and
 *       {@code apiserver_request_duration_seconds}, recorded by the transport per request.</li>
 *   <li>{@link io.listwatch.server.metrics.WatchCacheMetrics}: watchers, events and cache sizes,
 *       read from each {@link io.listwatch.apiserver.cacher.Cacher}'s counters at scrape time, so
 *       the fan-out path only bumps counters.</li>
 *   <li>{@code FlowcontrolMetrics}: kube's {@code apiserver_flowcontrol_*} (API Priority and
 *       Fairness: queued, executing, seats, dispatched, rejected, wait durations, limits).</li>
 *   <li>{@link io.listwatch.server.metrics.InstrumentedStorage}: {@code etcd_request_duration_seconds}
 *       around every storage call the REST layer makes, whichever storage is underneath.</li>
 * </ul>
 */
package io.listwatch.server.metrics;
