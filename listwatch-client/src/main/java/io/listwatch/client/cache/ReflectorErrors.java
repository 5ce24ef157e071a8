package io.listwatch.client.cache;

import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;

/**
 * How the {@link Reflector} classifies and names failures: which ones mean "the
 * resourceVersion is gone" (relist), which carry a Retry-After, and the short human reason
 * reported to {@link ReflectorListener}. Stateless.
 */
final class ReflectorErrors {

  /** The cause kube puts on a 504 for a resourceVersion ahead of its storage. */
  static final String RESOURCE_VERSION_TOO_LARGE = "ResourceVersionTooLarge";

  private ReflectorErrors() {
  }

  /** 410 Expired or Gone: the requested resourceVersion or continue token is too old. */
  static boolean isExpired(Throwable error) {
    return error instanceof StatusException se && se.code() == 410;
  }

  /**
   * kube's "Too large resource version" (504 Timeout): the server has not yet seen the
   * resourceVersion we asked for (e.g. a lagging replica). client-go's
   * {@code isTooLargeResourceVersionError}.
   */
  static boolean isTooLargeResourceVersion(Throwable error) {
    if (!(error instanceof StatusException se) || se.code() != 504) {
      return false;
    }
    Status.Details details = se.status().details();
    if (details != null && details.causes() != null) {
      for (Status.Cause cause : details.causes()) {
        if (RESOURCE_VERSION_TOO_LARGE.equals(cause.reason())) {
          return true;
        }
      }
    }
    String message = se.getMessage();
    return message != null && message.contains("Too large resource version");
  }

  /**
   * Whether a list failing with {@code error} means the resourceVersion it asked for cannot
   * be served, so the next list must be a consistent read ({@code ""}): client-go's
   * {@code isLastSyncResourceVersionUnavailable}.
   */
  static boolean isResourceVersionUnavailable(Throwable error) {
    return isExpired(error) || isTooLargeResourceVersion(error);
  }

  /**
   * Whether a watch-list request failing with {@code error} says the server does not serve
   * watch-lists (a 4xx other than 410 Expired and 429 TooManyRequests), so the reflector
   * should fall back to paged lists.
   */
  static boolean isWatchListRejected(Throwable error) {
    return error instanceof StatusException se
        && se.code() >= 400 && se.code() < 500 && se.code() != 410 && se.code() != 429;
  }

  /** The server's {@code details.retryAfterSeconds}, when it gave one. */
  static Optional<Duration> retryAfter(Throwable error) {
    if (error instanceof StatusException se && se.status().details() != null) {
      Integer seconds = se.status().details().retryAfterSeconds();
      if (seconds != null && seconds > 0) {
        return Optional.of(Duration.ofSeconds(seconds));
      }
    }
    return Optional.empty();
  }

  /**
   * A short reason for listeners: {@code "410 Expired"}, {@code "429 TooManyRequests"},
   * {@code "connection error: Connection refused"}, or the exception's message.
   */
  static String describe(Throwable error) {
    if (error instanceof StatusException se) {
      String reason = se.reason();
      return reason == null || reason.isEmpty() ? Integer.toString(se.code())
          : se.code() + " " + reason;
    }
    if (error instanceof UncheckedIOException || error instanceof IOException) {
      Throwable io = error instanceof UncheckedIOException u ? u.getCause() : error;
      String message = io.getMessage();
      return "connection error: "
          + (message == null || message.isEmpty() ? io.getClass().getSimpleName() : message);
    }
    String message = error.getMessage();
    return message == null || message.isEmpty() ? error.getClass().getSimpleName() : message;
  }

  /** A duration as Go prints it ({@code 2m0s}, {@code 1m30s}, {@code 1.5s}, {@code 800ms}). */
  static String formatDuration(Duration duration) {
    long nanos = duration.toNanos();
    if (nanos == 0) {
      return "0s";
    }
    StringBuilder out = new StringBuilder();
    if (nanos < 0) {
      out.append('-');
      nanos = -nanos;
    }
    if (nanos < 1_000L) {
      return out.append(nanos).append("ns").toString();
    }
    if (nanos < 1_000_000L) {
      return out.append(decimal(nanos, 1_000L)).append("µs").toString();
    }
    if (nanos < 1_000_000_000L) {
      return out.append(decimal(nanos, 1_000_000L)).append("ms").toString();
    }
    long totalSeconds = nanos / 1_000_000_000L;
    long hours = totalSeconds / 3600;
    long minutes = totalSeconds / 60 % 60;
    if (hours > 0) {
      out.append(hours).append('h');
    }
    if (hours > 0 || minutes > 0) {
      out.append(minutes).append('m');
    }
    long secondsNanos = nanos % 60_000_000_000L;
    return out.append(decimal(secondsNanos, 1_000_000_000L)).append('s').toString();
  }

  /** {@code value / unit} with its fraction, trailing zeros dropped ({@code 1.5}, {@code 2}). */
  private static String decimal(long value, long unit) {
    long whole = value / unit;
    long fraction = value % unit;
    if (fraction == 0) {
      return Long.toString(whole);
    }
    int digits = Long.toString(unit).length() - 1;
    String padded = String.format("%0" + digits + "d", fraction);
    int end = padded.length();
    while (padded.charAt(end - 1) == '0') {
      end--;
    }
    return whole + "." + padded.substring(0, end);
  }
}
