package io.listwatch.apiserver.flowcontrol;

/**
 * Told of each request's outcome in API Priority and Fairness, for kube's
 * {@code apiserver_flowcontrol_*} counters and histograms (the server's metrics implement it;
 * the gauges read {@link FlowControl#snapshot()} instead). Called without any lock held, from
 * the thread that decided; implementations must be thread-safe and quick.
 */
public interface FlowControlObserver {

  FlowControlObserver NONE = new FlowControlObserver() {
    @Override
    public void dispatched(Classification c, double waitSeconds) {
    }

    @Override
    public void rejected(Classification c, String reason, double waitSeconds) {
    }
  };

  /** The request may execute after waiting {@code waitSeconds} in a queue (0 if it did not wait). */
  void dispatched(Classification c, double waitSeconds);

  /** The request was refused, with {@code reason} (see {@link Rejection#reason()}). */
  void rejected(Classification c, String reason, double waitSeconds);
}
