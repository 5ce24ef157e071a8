package io.listwatch.client.workqueue;

import java.time.Duration;

/**
 * A snapshot of one queue's metrics (client-go's workqueue metrics, without a registry):
 * read it with {@link WorkQueue#metrics()} and export it however you like. Immutable.
 *
 * @param name the queue's name
 * @param depth items queued now, waiting for a worker
 * @param adds items that became queued or dirty (deduplicated adds are not counted)
 * @param retries calls of {@link DelayingQueue#addAfter} (and so of
 *     {@link RateLimitingQueue#addRateLimited})
 * @param longestRunningProcessor how long the oldest item being processed has been
 *     processing now; zero if none
 * @param unfinishedWork the total time the items being processed now have been processing
 * @param queueLatency time from an item becoming queued (or dirty) to {@link WorkQueue#get}
 * @param workDuration time from {@link WorkQueue#get} to {@link WorkQueue#done}
 */
public record WorkQueueMetrics(
    String name,
    int depth,
    long adds,
    long retries,
    Duration longestRunningProcessor,
    Duration unfinishedWork,
    Timing queueLatency,
    Timing workDuration) {

  /**
   * Count, sum and maximum of observed durations. The mean is {@code sum / count}.
   *
   * @param count how many were observed
   * @param sum their total
   * @param max the largest; zero if none
   */
  public record Timing(long count, Duration sum, Duration max) {}
}
