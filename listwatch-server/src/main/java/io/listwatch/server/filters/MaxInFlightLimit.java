package io.listwatch.server.filters;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.apiserver.request.RequestInfo;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * kube-apiserver's max-in-flight filter ({@code --max-requests-inflight},
 * {@code --max-mutating-requests-inflight}): at most so many read-only and so many mutating
 * requests are served at once; one more is answered 429 TooManyRequests with
 * {@code Retry-After: 1}, so a client that floods the server slows itself down instead of
 * the others.
 *
 * <p>As in kube: read-only means the verbs get, list and watch (for a non-resource request,
 * the lower-case HTTP method, so only {@code get} is read-only); long-running requests
 * (watches and the connect-style subresources attach, exec, log, portforward, proxy) are not
 * counted; a member of system:masters over the limit is still served (without taking a slot),
 * because the super-user must always get an answer. A limit of 0 means unlimited (requests are
 * still counted for {@code apiserver_current_inflight_requests}).
 *
 * <p>Thread-safe: lock-free counters.
 */
public final class MaxInFlightLimit {

  /** kube's defaults. */
  public static final int DEFAULT_MAX_REQUESTS_INFLIGHT = 400;
  public static final int DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT = 200;
  /** The message and Retry-After of kube's 429. */
  static final String MESSAGE = "Too many requests, please try again later.";
  static final int RETRY_AFTER_SECONDS = 1;

  private static final Set<String> READ_ONLY_VERBS = Set.of("get", "list", "watch");
  private static final Set<String> LONG_RUNNING_SUBRESOURCES = Set.of("attach", "exec", "log", "portforward", "proxy");

  private final int maxReadOnly;
  private final int maxMutating;
  private final AtomicInteger readOnly = new AtomicInteger();
  private final AtomicInteger mutating = new AtomicInteger();

  /** @param maxReadOnly {@code --max-requests-inflight}, 0 for unlimited
   *  @param maxMutating {@code --max-mutating-requests-inflight}, 0 for unlimited */
  public MaxInFlightLimit(int maxReadOnly, int maxMutating) {
    if (maxReadOnly < 0 || maxMutating < 0) {
      throw new IllegalArgumentException("in-flight limits must be >= 0 (0 = unlimited)");
    }
    this.maxReadOnly = maxReadOnly;
    this.maxMutating = maxMutating;
  }

  /** A held place in a limit; {@link #release()} gives it back and must be called exactly once. */
  @FunctionalInterface
  public interface Slot {
    Slot NONE = () -> { };

    void release();
  }

  /**
   * Takes a place for the request, or throws 429. Long-running requests and system:masters over
   * the limit get {@link Slot#NONE}.
   */
  public Slot acquire(UserInfo user, RequestInfo info) {
    if (isLongRunning(info)) {
      return Slot.NONE;
    }
    boolean isMutating = !READ_ONLY_VERBS.contains(info.verb());
    AtomicInteger count = isMutating ? mutating : readOnly;
    int max = isMutating ? maxMutating : maxReadOnly;
    while (true) {
      int n = count.get();
      if (max > 0 && n >= max) {
        if (user.inGroup(UserInfo.MASTERS)) {
          return Slot.NONE;
        }
        throw StatusException.tooManyRequests(MESSAGE, RETRY_AFTER_SECONDS);
      }
      if (count.compareAndSet(n, n + 1)) {
        return count::decrementAndGet;
      }
    }
  }

  /** kube's long-running check: watches and connect-style subresources. */
  public static boolean isLongRunning(RequestInfo info) {
    return info.verb().equals("watch") || info.verb().equals("proxy")
        || (info.resourceRequest() && LONG_RUNNING_SUBRESOURCES.contains(info.subresource()));
  }

  /** Read-only requests being served now (counted ones). */
  public int readOnlyInFlight() {
    return readOnly.get();
  }

  /** Mutating requests being served now (counted ones). */
  public int mutatingInFlight() {
    return mutating.get();
  }
}
