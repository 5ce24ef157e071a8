package io.listwatch.server.metrics;

import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.server.filters.MaxInFlightLimit;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.storage.Storage;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.function.Predicate;

/**
 * The metrics of one server: its own registry (several servers in one JVM, as in tests, do not
 * share series), the components' metrics registered in it, and the Prometheus text exposition
 * that {@code /metrics} serves.
 *
 * <p>Thread-safe. The {@code register}/{@code instrument} methods are called while the server
 * starts, before it serves {@code /metrics}.
 */
public final class ServerMetrics {

  /** The content type of {@link #exposition()}: Prometheus text format 0.0.4. */
  public static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
  private final RequestMetrics requests;
  private final Clock clock;

  /**
   * @param served tells whether a resource request names a resource the server serves (see {@link RequestMetrics})
   * @param clock the server's clock, which times requests and storage calls
   */
  public ServerMetrics(Predicate<RequestInfo> served, Clock clock) {
    this.clock = clock;
    this.requests = new RequestMetrics(registry, served, clock);
  }

  public RequestMetrics requests() {
    return requests;
  }

  /** Wraps {@code storage} so every call through it is timed ({@code etcd_request_duration_seconds}). */
  public Storage instrument(Storage storage) {
    return new InstrumentedStorage(storage, registry, clock);
  }

  /** Reports the watch caches' metrics; {@code cachers} is read at every scrape. */
  public void registerWatchCaches(Collection<Cacher> cachers) {
    WatchCacheMetrics.register(registry, cachers);
  }

  /** {@code apiserver_current_inflight_requests{request_kind="readOnly"|"mutating"}}. */
  public void registerInFlight(MaxInFlightLimit limit) {
    GaugeWithCallback.builder().name("apiserver_current_inflight_requests")
        .help("Maximal number of currently used inflight request limit of this apiserver per request kind.")
        .labelNames("request_kind")
        .callback(cb -> {
          cb.call(limit.readOnlyInFlight(), "readOnly");
          cb.call(limit.mutatingInFlight(), "mutating");
        })
        .register(registry);
  }

  /**
   * kube's {@code apiserver_flowcontrol_*} metrics: returns the observer to give the
   * {@link io.listwatch.apiserver.flowcontrol.FlowControl} that {@code flowControl} supplies
   * once it is made (its gauges are read at every scrape, after the server started).
   */
  public io.listwatch.apiserver.flowcontrol.FlowControlObserver registerFlowControl(
      java.util.function.Supplier<io.listwatch.apiserver.flowcontrol.FlowControl> flowControl) {
    return new FlowcontrolMetrics(registry, flowControl);
  }

  /**
   * {@code listwatch_connections_reading_paused}: connections whose reading is paused because
   * their client does not read its responses.
   */
  public void registerConnections(java.util.function.IntSupplier readingPaused) {
    GaugeWithCallback.builder().name("listwatch_connections_reading_paused")
        .help("Connections not read from because their client does not read its responses.")
        .callback(cb -> cb.call(readingPaused.getAsInt()))
        .register(registry);
  }

  /** Every metric, in the Prometheus text format. */
  public String exposition() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
    try {
      writer.write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
