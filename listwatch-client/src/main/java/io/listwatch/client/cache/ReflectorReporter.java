package io.listwatch.client.cache;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a {@link Reflector} tells the world what it does: every failure is logged (as the
 * Reflector's logger, prefixed {@code Reflector[name]}; 410s at info, the rest at warn),
 * counted in its metrics and passed to the {@link WatchErrorHandler}; every list and watch is
 * announced to the {@link ReflectorListener}. A handler or listener that throws is logged
 * and otherwise ignored.
 *
 * <p>Confined to the reflector's run thread.
 */
final class ReflectorReporter {

  private static final Logger log = LoggerFactory.getLogger(Reflector.class);

  private final String name;
  private final ReflectorMetrics metrics;
  /** May be null. */
  private final WatchErrorHandler watchErrorHandler;
  private final ReflectorListener listener;

  ReflectorReporter(String name, ReflectorMetrics metrics, WatchErrorHandler watchErrorHandler,
      ReflectorListener listener) {
    this.name = name;
    this.metrics = metrics;
    this.watchErrorHandler = watchErrorHandler;
    this.listener = listener;
  }

  /** A failure: logged, counted, and passed to the error handler. */
  void report(Throwable error, String message) {
    metrics.error();
    if (ReflectorErrors.isExpired(error)) {
      log.info("{}: {}", name, message);
    } else {
      log.warn("{}: {}", name, message);
    }
    if (watchErrorHandler != null) {
      try {
        watchErrorHandler.onError(name, error);
      } catch (RuntimeException e) {
        log.warn("{}: watch error handler threw", name, e);
      }
    }
  }

  void onList(String resourceVersion, String reason) {
    notifyListener(() -> listener.onList(resourceVersion, reason));
  }

  void onListed(String resourceVersion, int items) {
    notifyListener(() -> listener.onListed(resourceVersion, items));
  }

  void onWatch(String resourceVersion, String reason) {
    notifyListener(() -> listener.onWatch(resourceVersion, reason));
  }

  private void notifyListener(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      log.warn("{}: listener threw", name, e);
    }
  }
}
