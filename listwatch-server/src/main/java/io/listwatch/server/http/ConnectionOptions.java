package io.listwatch.server.http;

import io.listwatch.api.clock.Clock;
import io.listwatch.server.audit.AuditBackend;
import io.listwatch.server.metrics.RequestMetrics;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every connection of a listener shares: how long it may sit idle (on which clock), where
 * requests are counted and audited, whether large answers are compressed, and how many
 * connections have reading paused (their client does not read its responses). Thread-safe.
 */
public final class ConnectionOptions {

  /** How long a connection may go without a complete request when nothing is in flight. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);

  private final Duration idleTimeout;
  private final RequestMetrics metrics;
  private final Clock clock;
  private final AuditBackend audit;
  private final AtomicInteger readingPaused = new AtomicInteger();
  private final boolean responseCompression;

  /** {@code clock} measures and schedules the idle timeout (the server's clock); nothing is audited. */
  public ConnectionOptions(Duration idleTimeout, RequestMetrics metrics, Clock clock) {
    this(idleTimeout, metrics, clock, AuditBackend.NONE);
  }

  /**
   * {@code clock} measures and schedules the idle timeout and stamps audit events (the server's
   * clock); every request is audited to {@code audit}; large answers are compressed for clients
   * that ask ({@link ResponseCompression}), kube's default.
   */
  public ConnectionOptions(Duration idleTimeout, RequestMetrics metrics, Clock clock, AuditBackend audit) {
    this(idleTimeout, metrics, clock, audit, true);
  }

  /**
   * As {@link #ConnectionOptions(Duration, RequestMetrics, Clock, AuditBackend)}, with large
   * answers compressed for clients that ask only when {@code responseCompression} (the feature
   * gate {@code APIResponseCompression}).
   */
  public ConnectionOptions(Duration idleTimeout, RequestMetrics metrics, Clock clock, AuditBackend audit,
      boolean responseCompression) {
    if (idleTimeout.isNegative() || idleTimeout.isZero()) {
      throw new IllegalArgumentException("the idle timeout must be positive");
    }
    this.idleTimeout = idleTimeout;
    this.metrics = Objects.requireNonNull(metrics);
    this.clock = Objects.requireNonNull(clock);
    this.audit = Objects.requireNonNull(audit);
    this.responseCompression = responseCompression;
  }

  /** Whether answers over kube's threshold are compressed for clients that ask ({@link ResponseCompression}). */
  public boolean responseCompression() {
    return responseCompression;
  }

  /** Where every request's audit events go. */
  public AuditBackend audit() {
    return audit;
  }

  public Duration idleTimeout() {
    return idleTimeout;
  }

  public RequestMetrics metrics() {
    return metrics;
  }

  /** The clock idle connections are timed by. */
  public Clock clock() {
    return clock;
  }

  /** Connections whose reading is paused now because their responses exceed the write buffer's high-water mark. */
  public int readingPaused() {
    return readingPaused.get();
  }

  AtomicInteger readingPausedCounter() {
    return readingPaused;
  }
}
