package io.listwatch.client.cache;

import java.time.Duration;

/**
 * A snapshot of how one {@link ResourceEventHandler} keeps up with its informer, from
 * {@link ResourceEventHandlerRegistration#metrics()}. A backlog that keeps growing names the
 * handler that is too slow; other handlers and the informer's cache are not slowed by it.
 *
 * <p>Times are measured with the informer's {@link io.listwatch.api.clock.Clock}.
 *
 * @param backlog notifications queued for the handler now, not yet delivered
 * @param maxBacklog the largest backlog seen since the handler was added
 * @param delivered notifications handed to the handler (including those it threw on)
 * @param failed notifications the handler threw on (logged, then delivery went on)
 * @param handlerTimeTotal time spent in the handler's methods, summed over {@code delivered}
 * @param handlerTimeMax the longest single call to the handler
 */
public record HandlerMetrics(int backlog, int maxBacklog, long delivered, long failed,
    Duration handlerTimeTotal, Duration handlerTimeMax) {

  /** The mean time of one call to the handler; zero before the first. */
  public Duration handlerTimeMean() {
    return delivered == 0 ? Duration.ZERO : handlerTimeTotal.dividedBy(delivered);
  }
}
