package io.listwatch.server.metrics;

import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.request.RequestInfo;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * kube's request metrics: {@code apiserver_request_total} (by verb, group, version, resource,
 * subresource, scope, component and code) and {@code apiserver_request_duration_seconds}
 * (kube's buckets, same labels but code). The transport records every answered request,
 * including 401, 403 and 429 answers: a non-watch request when its response is complete, a
 * watch when its response head is written (a watch's duration is its whole life, so it is
 * counted but not timed).
 *
 * <p>Label values follow kube: the verb in upper case with kube's names (LIST, WATCH, GET,
 * POST, PUT, PATCH, APPLY, DELETE, DELETECOLLECTION; a non-resource request's HTTP method),
 * scope {@code resource|namespace|cluster} or empty for non-resource requests. Only resources
 * the server serves get their group, version, resource and subresource as labels; requests for
 * anything else are recorded with those empty, so a client cannot create series at will.
 *
 * <p>Thread-safe (the Prometheus client's metrics are).
 */
public final class RequestMetrics {

  private final Clock clock;

  static final String COMPONENT = "apiserver";

  private final Counter total;
  private final Histogram duration;
  private final Predicate<RequestInfo> served;

  /** @param served tells whether a resource request names a resource (and subresource) the server serves */
  RequestMetrics(PrometheusRegistry registry, Predicate<RequestInfo> served, Clock clock) {
    this.clock = clock;
    this.served = served;
    this.total = Counter.builder().name("apiserver_request_total")
        .help("Counter of apiserver requests broken out for each verb, group, version, resource, scope, "
            + "component, and HTTP response code.")
        .labelNames("verb", "group", "version", "resource", "subresource", "scope", "component", "code")
        .register(registry);
    this.duration = Histogram.builder().name("apiserver_request_duration_seconds")
        .help("Response latency distribution in seconds for each verb, group, version, resource, "
            + "subresource, scope and component.")
        .labelNames("verb", "group", "version", "resource", "subresource", "scope", "component")
        .classicOnly().classicUpperBounds(Buckets.LATENCY_SECONDS).withoutExemplars()
        .register(registry);
  }

  /** The server clock's reading when a request arrives, to pass to {@link #completed}. */
  public long startTime() {
    return clock.nanoTime();
  }

  /** A non-watch request answered with {@code code}; {@code startNanos} is its {@link #startTime()}. */
  public void completed(RequestInfo info, String contentType, int code, long startNanos) {
    String[] labels = labels(info, contentType);
    total.labelValues(labels[0], labels[1], labels[2], labels[3], labels[4], labels[5], COMPONENT,
        Integer.toString(code)).inc();
    double seconds = (clock.nanoTime() - startNanos) / 1e9;
    duration.labelValues(labels[0], labels[1], labels[2], labels[3], labels[4], labels[5], COMPONENT)
        .observe(seconds);
  }

  /** A watch whose response head (or refusal) carried {@code code}. */
  public void watchStarted(RequestInfo info, int code) {
    String[] labels = labels(info, null);
    total.labelValues(labels[0], labels[1], labels[2], labels[3], labels[4], labels[5], COMPONENT,
        Integer.toString(code)).inc();
  }

  /** verb, group, version, resource, subresource, scope. */
  private String[] labels(RequestInfo info, String contentType) {
    String verb = verb(info, contentType);
    if (!info.resourceRequest()) {
      return new String[] {verb, "", "", "", "", ""};
    }
    if (!served.test(info)) {
      return new String[] {verb, "", "", "", "", scope(info)};
    }
    return new String[] {verb, info.group(), info.version(), info.resource(), info.subresource(), scope(info)};
  }

  static String verb(RequestInfo info, String contentType) {
    if (!info.resourceRequest()) {
      return info.verb().toUpperCase(Locale.ROOT);
    }
    return switch (info.verb()) {
      case "create" -> "POST";
      case "update" -> "PUT";
      case "patch" -> contentType != null && contentType.startsWith("application/apply-patch") ? "APPLY" : "PATCH";
      default -> info.verb().toUpperCase(Locale.ROOT); // GET, LIST, WATCH, DELETE, DELETECOLLECTION
    };
  }

  /** kube's CleanScope. */
  static String scope(RequestInfo info) {
    if (!info.name().isEmpty() || info.verb().equals("create")) {
      return "resource";
    }
    if (!info.namespace().isEmpty()) {
      return "namespace";
    }
    return info.resourceRequest() ? "cluster" : "";
  }
}
