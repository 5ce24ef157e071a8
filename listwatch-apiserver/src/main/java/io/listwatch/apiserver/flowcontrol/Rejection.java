package io.listwatch.apiserver.flowcontrol;

import io.listwatch.api.StatusException;
import java.util.Optional;

/**
 * Why API Priority and Fairness refused a request: kube's 429 (its message, {@code Retry-After:
 * 1}) and the classification, whose UIDs the 429 carries in its headers as a served response
 * does. {@link #reason()} is the {@code reason} label of
 * {@code apiserver_flowcontrol_rejected_requests_total}: {@code queue-full},
 * {@code concurrency-limit} (a level without queues at its limit), {@code time-out} (waited
 * longer than the queue wait limit) or {@code cancelled}.
 */
public final class Rejection extends RuntimeException {

  /** kube's message and Retry-After for a request APF refuses (the same as max-in-flight's). */
  public static final String MESSAGE = "Too many requests, please try again later.";
  public static final int RETRY_AFTER_SECONDS = 1;

  private static final long serialVersionUID = 1L;
  private final transient Classification classification;
  private final String reason;

  Rejection(Classification classification, String reason) {
    super(null, null, false, false);
    this.classification = classification;
    this.reason = reason;
  }

  /** kube's message and the reason; made when asked for (a flood is refused thousands of times a second). */
  @Override
  public String getMessage() {
    return MESSAGE + " (" + reason + ")";
  }

  public String reason() {
    return reason;
  }

  public Optional<Classification> classification() {
    return Optional.ofNullable(classification);
  }

  /** The Status to answer: 429 TooManyRequests with Retry-After. */
  public StatusException status() {
    return StatusException.tooManyRequests(MESSAGE, RETRY_AFTER_SECONDS);
  }
}
