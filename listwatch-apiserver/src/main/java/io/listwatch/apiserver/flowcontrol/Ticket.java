package io.listwatch.apiserver.flowcontrol;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One request's passage through API Priority and Fairness ({@link FlowControl#admit}): it
 * waits in its priority level's queue until {@link #dispatched()} completes, then holds its
 * seats until {@link #finish()}. A request that is refused (its queue full, its level at its
 * limit without queues, or it waited longer than the queue wait limit) gets
 * {@link #dispatched()} completed exceptionally with a {@link Rejection}.
 *
 * <p>Thread-safe; {@link #finish()} and {@link #cancel()} are idempotent.
 */
public interface Ticket {

  /** The schema and level the request matched; empty when no FlowSchema matched (it is not limited). */
  Optional<Classification> classification();

  /**
   * Completes, on the thread that frees the seats (or the caller's), when the request may
   * execute; fails with a {@link Rejection} when it may not.
   */
  CompletableFuture<Void> dispatched();

  /** The request is done executing (a watch: its initial events are sent); frees its seats. */
  void finish();

  /**
   * The client is gone: a waiting request leaves its queue (rejected, reason {@code cancelled}),
   * an executing one finishes.
   */
  void cancel();
}
