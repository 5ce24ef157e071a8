package io.listwatch.server.metrics;

import io.listwatch.apiserver.flowcontrol.Classification;
import io.listwatch.apiserver.flowcontrol.FlowControl;
import io.listwatch.apiserver.flowcontrol.FlowControlObserver;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.function.Supplier;

/**
 * kube's API Priority and Fairness metrics, with kube's names and labels:
 * {@code apiserver_flowcontrol_rejected_requests_total{flow_schema, priority_level, reason}},
 * {@code apiserver_flowcontrol_dispatched_requests_total{flow_schema, priority_level}},
 * {@code apiserver_flowcontrol_request_wait_duration_seconds{execute, flow_schema, priority_level}}
 * (kube's buckets; {@code execute} is {@code "true"} for a request that then executed), and the
 * gauges read at each scrape: {@code apiserver_flowcontrol_current_inqueue_requests},
 * {@code apiserver_flowcontrol_current_executing_requests},
 * {@code apiserver_flowcontrol_current_executing_seats} (each by flow_schema and priority_level)
 * and, by priority_level, {@code apiserver_flowcontrol_nominal_limit_seats},
 * {@code apiserver_flowcontrol_lower_limit_seats}, {@code apiserver_flowcontrol_upper_limit_seats}
 * and {@code apiserver_flowcontrol_current_limit_seats} (as borrowing set it), and
 * {@code apiserver_flowcontrol_seat_fair_frac}.
 *
 * <p>Thread-safe (the Prometheus client's metrics are).
 */
final class FlowcontrolMetrics implements FlowControlObserver {

  private final Counter rejected;
  private final Counter dispatched;
  private final Histogram waited;

  FlowcontrolMetrics(PrometheusRegistry registry, Supplier<FlowControl> flowControl) {
    rejected = Counter.builder().name("apiserver_flowcontrol_rejected_requests_total")
        .help("Number of requests rejected by API Priority and Fairness subsystem")
        .labelNames("flow_schema", "priority_level", "reason").register(registry);
    dispatched = Counter.builder().name("apiserver_flowcontrol_dispatched_requests_total")
        .help("Number of requests executed by API Priority and Fairness subsystem")
        .labelNames("flow_schema", "priority_level").register(registry);
    waited = Histogram.builder().name("apiserver_flowcontrol_request_wait_duration_seconds")
        .help("Length of time a request spent waiting in its queue")
        .labelNames("execute", "flow_schema", "priority_level")
        .classicOnly().classicUpperBounds(Buckets.FLOWCONTROL_WAIT_SECONDS).withoutExemplars()
        .register(registry);
    GaugeWithCallback.builder().name("apiserver_flowcontrol_current_inqueue_requests")
        .help("Number of requests currently pending in queues of the API Priority and Fairness subsystem")
        .labelNames("flow_schema", "priority_level")
        .callback(cb -> levels(flowControl).forEach(l -> l.flowSchemas()
            .forEach(s -> cb.call(s.waiting(), s.flowSchema(), l.priorityLevel()))))
        .register(registry);
    GaugeWithCallback.builder().name("apiserver_flowcontrol_current_executing_requests")
        .help("Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API "
            + "Priority and Fairness subsystem")
        .labelNames("flow_schema", "priority_level")
        .callback(cb -> levels(flowControl).forEach(l -> l.flowSchemas()
            .forEach(s -> cb.call(s.executing(), s.flowSchema(), l.priorityLevel()))))
        .register(registry);
    GaugeWithCallback.builder().name("apiserver_flowcontrol_current_executing_seats")
        .help("Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any "
            + "stage otherwise) requests in the API Priority and Fairness subsystem")
        .labelNames("flow_schema", "priority_level")
        .callback(cb -> levels(flowControl).forEach(l -> l.flowSchemas()
            .forEach(s -> cb.call(s.seats(), s.flowSchema(), l.priorityLevel()))))
        .register(registry);
    levelGauge(registry, flowControl, "apiserver_flowcontrol_nominal_limit_seats",
        "Nominal number of execution seats configured for each priority level",
        FlowControl.LevelSnapshot::nominalLimitSeats);
    levelGauge(registry, flowControl, "apiserver_flowcontrol_lower_limit_seats",
        "Configured lower bound on number of execution seats available to each priority level",
        FlowControl.LevelSnapshot::lowerLimitSeats);
    levelGauge(registry, flowControl, "apiserver_flowcontrol_upper_limit_seats",
        "Configured upper bound on number of execution seats available to each priority level",
        FlowControl.LevelSnapshot::upperLimitSeats);
    levelGauge(registry, flowControl, "apiserver_flowcontrol_current_limit_seats",
        "current derived number of execution seats available to each priority level",
        FlowControl.LevelSnapshot::currentLimitSeats);
    GaugeWithCallback.builder().name("apiserver_flowcontrol_seat_fair_frac")
        .help("Fair fraction of server's concurrency to allocate to each priority level that can use it")
        .callback(cb -> {
          FlowControl fc = flowControl.get();
          if (fc != null) {
            cb.call(fc.fairFraction());
          }
        })
        .register(registry);
  }

  /** A gauge of one figure of each priority level, read at each scrape. */
  private static void levelGauge(PrometheusRegistry registry, Supplier<FlowControl> flowControl, String name,
      String help, java.util.function.ToIntFunction<FlowControl.LevelSnapshot> figure) {
    GaugeWithCallback.builder().name(name).help(help).labelNames("priority_level")
        .callback(cb -> levels(flowControl).forEach(l -> cb.call(figure.applyAsInt(l), l.priorityLevel())))
        .register(registry);
  }

  private static java.util.List<FlowControl.LevelSnapshot> levels(Supplier<FlowControl> flowControl) {
    FlowControl fc = flowControl.get();
    return fc == null ? java.util.List.of() : fc.snapshot();
  }

  @Override
  public void dispatched(Classification c, double waitSeconds) {
    dispatched.labelValues(c.flowSchema(), c.priorityLevel()).inc();
    waited.labelValues("true", c.flowSchema(), c.priorityLevel()).observe(waitSeconds);
  }

  @Override
  public void rejected(Classification c, String reason, double waitSeconds) {
    rejected.labelValues(c.flowSchema(), c.priorityLevel(), reason).inc();
    waited.labelValues("false", c.flowSchema(), c.priorityLevel()).observe(waitSeconds);
  }
}
