/**
 * client-go's {@code util/workqueue} in Java: the queues controllers feed from event handlers
 * and drain with worker threads.
 *
 * <p>Map:
 *
 * <ul>
 *   <li>{@link io.listwatch.client.workqueue.WorkQueue}: dedup while queued, one worker per
 *       item (an add during processing re-queues on done), FIFO, fair, shutdown with or
 *       without drain. Implemented by {@code DefaultWorkQueue}.
 *   <li>{@link io.listwatch.client.workqueue.DelayingQueue}: plus {@code addAfter}, timed by
 *       an injected {@link io.listwatch.api.clock.Clock} ({@code DefaultDelayingQueue}).
 *   <li>{@link io.listwatch.client.workqueue.RateLimitingQueue}: plus {@code addRateLimited},
 *       {@code forget}, {@code numRequeues} over a
 *       {@link io.listwatch.client.workqueue.RateLimiter} ({@code DefaultRateLimitingQueue}).
 *   <li>{@link io.listwatch.client.workqueue.RateLimiters}: the limiters (item exponential
 *       failure, token bucket, item fast-slow, max-of) and client-go's defaults.
 *   <li>{@link io.listwatch.client.workqueue.WorkQueueMetrics}: a snapshot of a queue's
 *       depth, adds, retries, in-flight work and timings; {@code QueueMetrics} keeps the
 *       counters under the queue's lock.
 * </ul>
 *
 * <p>Each queue interface has a {@code builder()}; implementation classes are final and
 * package-private.
 */
package io.listwatch.client.workqueue;
