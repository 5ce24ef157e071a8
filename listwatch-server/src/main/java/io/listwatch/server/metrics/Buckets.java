package io.listwatch.server.metrics;

/** Histogram bucket bounds kube-apiserver uses. */
final class Buckets {

  /** {@code apiserver_request_duration_seconds} and {@code etcd_request_duration_seconds}, in seconds. */
  static final double[] LATENCY_SECONDS = {
      0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60};

  /** {@code apiserver_flowcontrol_request_wait_duration_seconds}, in seconds. */
  static final double[] FLOWCONTROL_WAIT_SECONDS = {0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30};

  private Buckets() {
  }
}
