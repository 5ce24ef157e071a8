package io.listwatch.apiserver.webhook;

/**
 * A webhook could not be called or did not answer: its Service did not resolve, the connection
 * or TLS failed, it timed out, or it answered with an error. The message is what kube says of
 * the failure (the caller prefixes which webhook it was).
 */
public final class WebhookCallException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final boolean timeout;

  public WebhookCallException(String message) {
    this(message, null, false);
  }

  public WebhookCallException(String message, Throwable cause, boolean timeout) {
    super(message, cause);
    this.timeout = timeout;
  }

  /** Whether the webhook did not answer in time (kube says so with its own message, and a 504 for admission). */
  public boolean timeout() {
    return timeout;
  }
}
